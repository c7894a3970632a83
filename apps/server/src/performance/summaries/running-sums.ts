import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { monthStart, yearStart } from '../dates.ts';
import { dayJson, jsonParam } from '../sql.ts';
import { refreshBuckets } from './buckets.ts';
import { DEPARTMENT_BUCKETS, DEPARTMENT_DAYS } from './declarations.ts';
import { addDepartmentDeltas, type DepartmentDelta, departmentDeltas } from './departments.ts';

export interface EmployeeDay {
  employeeCode: string;
  date: string;
}

export interface RollupGroups {
  /** `from`: the earliest changed day; the running sums before it stand. */
  months: { employee_code: string; month: string; from: string }[];
  /** `from`: the earliest changed day of the year; the yearly averages before it stand. */
  years: { employee_code: string; year: string; from: string }[];
}

/** The (employee, month) and (employee, year) groups whose running sums a change of these days moves. */
export function rollupGroups(days: readonly EmployeeDay[]): RollupGroups {
  const months = new Map<string, RollupGroups['months'][number]>();
  const years = new Map<string, RollupGroups['years'][number]>();
  for (const d of days) {
    const month = monthStart(d.date);
    const year = yearStart(d.date);
    const key = `${d.employeeCode}|${month}`;
    const known = months.get(key);
    if (!known || d.date < known.from)
      months.set(key, { employee_code: d.employeeCode, month, from: d.date });
    const yearKey = `${d.employeeCode}|${year}`;
    const knownYear = years.get(yearKey);
    if (!knownYear || d.date < knownYear.from)
      years.set(yearKey, { employee_code: d.employeeCode, year, from: d.date });
  }
  return { months: [...months.values()], years: [...years.values()] };
}

/** A changed row and the sum and number of its scored cells after the change. */
export interface ChangedDay extends EmployeeDay {
  performanceCode: string;
  scoreSum: number;
  scored: number;
  /** The row existed before this save, so its version moves on (a created row stays at 1). */
  bump: boolean;
}

/**
 * `monthGroups` selects employee_code, month and from_date. Only rows from from_date on are
 * re-summed, starting from the running values of the row just before it, so appending a day
 * reads one earlier row instead of the whole month. `days` (code, score_sum, scored, bump), when
 * given, are the rows whose scores changed: their daily average, their `updated_at` and, for rows
 * that existed before the save (`bump`), their version are set in the same pass, so that each
 * row is rewritten once, and the difference each makes to its department's day goes into
 * `performance_department_days` in the same statement (the employees are locked, so their
 * departments stand). A daily average is the mean of the day's scored skills, kept to 30
 * decimals (the column's scale, here as in the rebuild), null when none is scored.
 */
async function refreshMonthRows(db: Executor, monthGroups: SQL, days?: SQL): Promise<DepartmentDelta[]> {
  const daily = days
    ? sql`case when d.code is null then p.daily_average else d.average end`
    : sql`p.daily_average`;
  return rowsOf<DepartmentDelta>(
    db,
    sql`
    with g as (${monthGroups}),
    d as (${
      days
        ? sql`select x.code, x.bump,
                (x.score_sum::numeric(36, 30) / nullif(x.scored, 0))::numeric(36, 30) as average
              from (${days}) x`
        : sql`select null::text as code, null::boolean as bump, null::numeric(36, 30) as average where false`
    }),
    base as (
      select g.employee_code, g.month, g.from_date,
        coalesce(b.month_sum, 0) as month_sum, coalesce(b.month_days, 0) as month_days
      from g left join lateral (
        select p.month_sum, p.month_days from performances p
        where p.employee_code = g.employee_code and p.date >= g.month and p.date < g.from_date
        order by p.date desc limit 1
      ) b on true
    ),
    r as (
      select p.id, p.employee_code, p.date, p.daily_average as old_average, d.code is not null as changed, coalesce(d.bump, false) as bump, ${daily} as daily_average,
        base.month_sum + coalesce(sum(${daily}) over w, 0) as month_sum,
        base.month_days + count(${daily}) over w as month_days
      from base join performances p on p.employee_code = base.employee_code
        and p.date >= base.from_date and p.date < (base.month + interval '1 month')::date
      left join d on d.code = p.performance_code
      window w as (partition by p.employee_code, base.month order by p.date)
    ),
    u as (
      update performances p set daily_average = r.daily_average, month_sum = r.month_sum,
        month_days = r.month_days, updated_at = case when r.changed then now() else p.updated_at end,
        version = case when r.bump then p.version + 1 else p.version end
      from r
      where p.id = r.id and (r.changed or p.month_sum <> r.month_sum or p.month_days <> r.month_days)
    ),
    delta as (
      select e.department_code, r.date, coalesce(r.daily_average, 0) - coalesce(r.old_average, 0) as daily_sum,
        (r.daily_average is not null)::int - (r.old_average is not null)::int as days
      from r join employees e on e.employee_code = r.employee_code
      where r.changed and r.daily_average is distinct from r.old_average
    )
    ${departmentDeltas(DEPARTMENT_DAYS, sql`delta`)}`,
  );
}

/** A month's totals are the running values of its last row. */
async function writeMonthTotals(db: Executor, monthGroups: SQL) {
  await db.execute(sql`
    with g as (${monthGroups})
    insert into performance_months as m (employee_code, month, day_sum, day_count, year_sum, year_days)
    select g.employee_code, g.month, coalesce(last.month_sum, 0), coalesce(last.month_days, 0), 0, 0
    from g left join lateral (
      select p.month_sum, p.month_days from performances p
      where p.employee_code = g.employee_code
        and p.date >= g.month and p.date < (g.month + interval '1 month')::date
      order by p.date desc limit 1
    ) last on true
    on conflict (employee_code, month) do update
      set day_sum = excluded.day_sum, day_count = excluded.day_count
      where m.day_sum <> excluded.day_sum or m.day_count <> excluded.day_count`);
}

/**
 * The month's days written out for the trends, from the employee-and-date index alone (it
 * carries the daily averages); a month left without a scored day has no row.
 */
async function writeMonthDays(db: Executor, monthGroups: SQL) {
  await db.execute(sql`
    with g as (${monthGroups}),
    w as (
      select g.employee_code, g.month, (
        select string_agg(${dayJson(sql`p.date`, sql`p.daily_average`)}, ',' order by p.date)
        from performances p
        where p.employee_code = g.employee_code and p.daily_average is not null
          and p.date >= g.month and p.date < (g.month + interval '1 month')::date
      ) as days
      from g
    ),
    emptied as (
      delete from performance_month_days s using w
      where s.employee_code = w.employee_code and s.month = w.month and w.days is null
    )
    insert into performance_month_days as s (employee_code, month, days)
    select employee_code, month, days from w where days is not null
    order by employee_code, month
    on conflict (employee_code, month) do update set days = excluded.days
      where s.days <> excluded.days`);
}

/**
 * The months of `monthGroups` (employee_code, month, from_date) summed again from from_date on,
 * after the scores of `days` changed (see `refreshMonthRows`): their rows, their totals and their
 * days written out. Answers what that changes per department and date.
 */
export async function refreshMonths(db: Executor, monthGroups: SQL, days?: SQL): Promise<DepartmentDelta[]> {
  const deltas = await refreshMonthRows(db, monthGroups, days);
  await writeMonthTotals(db, monthGroups);
  await writeMonthDays(db, monthGroups);
  return deltas;
}

/**
 * `yearGroups` selects employee_code, year and from_date: the running yearly sums of each of
 * those years' month rows, summed again from the months' totals, rewritten where they moved.
 */
export async function refreshYears(db: Executor, yearGroups: SQL) {
  await db.execute(sql`
    with y as (${yearGroups}),
    r as (
      select m.employee_code, m.month,
        sum(m.day_sum) over w as year_sum,
        sum(m.day_count) over w as year_days
      from y join performance_months m on m.employee_code = y.employee_code
        and m.month >= y.year and m.month < (y.year + interval '1 year')::date
      window w as (partition by m.employee_code, y.year order by m.month)
    )
    update performance_months m set year_sum = r.year_sum, year_days = r.year_days
    from r
    where m.employee_code = r.employee_code and m.month = r.month
      and (m.year_sum <> r.year_sum or m.year_days <> r.year_days)`);
}

/**
 * After the scores of these rows changed: their daily averages, then the running sums they feed,
 * then the bucket changes of their years, then what both change per department.
 */
export async function refreshRollups(db: Executor, changed: readonly ChangedDay[]) {
  if (!changed.length) return;
  const { months, years } = rollupGroups(changed);
  const days = changed.map((c) => ({
    code: c.performanceCode,
    score_sum: c.scoreSum,
    scored: c.scored,
    bump: c.bump,
  }));
  const dayDeltas = await refreshMonths(
    db,
    sql`select x.employee_code, x.month::date as month, x.from::date as from_date
        from jsonb_to_recordset(${jsonParam(months)}) as x(employee_code text, month text, "from" text)`,
    sql`select * from jsonb_to_recordset(${jsonParam(days)}) as x(code text, score_sum int, scored int, bump boolean)`,
  );
  const yearGroups = sql`select x.employee_code, x.year::date as year, x.from::date as from_date
      from jsonb_to_recordset(${jsonParam(years)}) as x(employee_code text, year text, "from" text)`;
  await refreshYears(db, yearGroups);
  const bucketDeltas = await refreshBuckets(db, yearGroups);
  await addDepartmentDeltas(db, DEPARTMENT_DAYS, dayDeltas);
  await addDepartmentDeltas(db, DEPARTMENT_BUCKETS, bucketDeltas);
}
