import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { exactRound2 } from '../sql.ts';
import { DEPARTMENT_BUCKETS } from './declarations.ts';
import { type DepartmentDelta, departmentDeltas } from './departments.ts';

/**
 * The bucket of a yearly average `sum / days` as the overview's distribution counts it (`0-1` ...
 * `9-10`): the average rounded as the grid shows it, then its whole part.
 */
const yearlyBucket = (sum: SQL, days: SQL) =>
  sql`least(floor(${exactRound2(sql`(${sum}) / (${days})`)}), 9)::smallint`;

/**
 * `yearGroups` selects employee_code, year and from_date: the employees' yearly averages moved
 * from from_date to the end of the year (their running sums are already refreshed). Their bucket
 * changes from from_date on are computed again and written over the old ones (kept, changed, added
 * or deleted). Per employee: the year's sums before from_date (the month rollup before its month,
 * the row before it in its month) and the bucket in force then, then the scored days from
 * from_date on with running sums of their daily averages, which the employee-and-date index
 * carries, so that a year of rows is read without visiting them (2.6 s for a save of 1,000
 * employees on 2 January when their month rollups and running sums were joined instead). Answers
 * what that changes per department, date (and month) and bucket, for `addDepartmentDeltas`.
 */
export async function refreshBuckets(db: Executor, yearGroups: SQL): Promise<DepartmentDelta[]> {
  return rowsOf<DepartmentDelta>(
    db,
    sql`
    with g as (${yearGroups}),
    old as (
      select c.employee_code, c.date, c.bucket, c.previous
      from g join performance_bucket_changes c on c.employee_code = g.employee_code
        and c.date >= g.from_date and c.date < (g.year + interval '1 year')::date
    ),
    new as (
      select g.employee_code, v.date, v.bucket, v.previous
      from g
      cross join lateral (
        select coalesce(pm.year_sum, 0) + coalesce(pd.month_sum, 0) as sum,
          coalesce(pm.year_days, 0) + coalesce(pd.month_days, 0) as days,
          (select c.bucket from performance_bucket_changes c
            where c.employee_code = g.employee_code and c.date >= g.year and c.date < g.from_date
            order by c.date desc limit 1) as bucket
        from (select) one
        left join lateral (
          select m.year_sum, m.year_days from performance_months m
          where m.employee_code = g.employee_code
            and m.month >= g.year and m.month < date_trunc('month', g.from_date)::date
          order by m.month desc limit 1
        ) pm on true
        left join lateral (
          select p.month_sum, p.month_days from performances p
          where p.employee_code = g.employee_code
            and p.date >= date_trunc('month', g.from_date)::date and p.date < g.from_date
          order by p.date desc limit 1
        ) pd on true
      ) before
      cross join lateral (
        select x.date, x.bucket, coalesce(lag(x.bucket) over (order by x.date), before.bucket) as previous
        from (
          select p.date,
            ${yearlyBucket(sql`before.sum + sum(p.daily_average) over w`, sql`before.days + count(*) over w`)} as bucket
          from performances p
          where p.employee_code = g.employee_code and p.date >= g.from_date
            and p.date < (g.year + interval '1 year')::date and p.daily_average is not null
          window w as (order by p.date)
        ) x
      ) v
      where v.bucket is distinct from v.previous
    ),
    written as (
      insert into performance_bucket_changes as c (employee_code, date, bucket, previous)
      select * from new order by employee_code, date
      on conflict (employee_code, date) do update set bucket = excluded.bucket, previous = excluded.previous
        where c.bucket <> excluded.bucket or c.previous is distinct from excluded.previous
    ),
    gone as (
      delete from performance_bucket_changes c using old o
      where c.employee_code = o.employee_code and c.date = o.date
        and not exists (select from new n where n.employee_code = o.employee_code and n.date = o.date)
    ),
    delta as (
      select e.department_code, x.date, x.bucket, x.n as employees
      from (
        select employee_code, date, bucket, 1 as n from new
        union all select employee_code, date, previous, -1 from new where previous is not null
        union all select employee_code, date, bucket, -1 from old
        union all select employee_code, date, previous, 1 from old where previous is not null
      ) x join employees e on e.employee_code = x.employee_code
    )
    ${departmentDeltas(DEPARTMENT_BUCKETS, sql`delta`)}`,
  );
}
