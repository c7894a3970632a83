import type { PerformanceOverview, PerformanceTrend, TrendRange } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { monthStart, yearStart } from './dates.ts';
import { runningSumsOf } from './read.ts';
import { exactRound2, meanOf, round2, rowsOf } from './sql.ts';

/** A trend as the database writes it: only the months that have rows, and no range. */
export type TrendDocument = Omit<PerformanceTrend, 'from' | 'to' | 'employee'> & {
  employee: PerformanceTrend['employee'] | null;
};

/**
 * One employee's days, months and skills over a range, in one statement. Everything comes from the
 * employee's rows of the range (the employee-and-date index: at most 367 rows) and their scores
 * (the primary key): the daily averages are the rollups every save keeps, and the months and
 * skills are means over those few rows, exact to two decimals as every average is. The scores are
 * asked for as `= any(array(...))`, one index scan, rather than joined row by row: the planner
 * expects about 190 scores per row where there are 20, so the join looked like 250,000 cost units,
 * past PostgreSQL's JIT threshold, and compiling it took 70-130 ms of a 10 ms statement.
 */
export async function trendDocument(db: Executor, employeeCode: string, range: TrendRange) {
  const [row] = await rowsOf<{ doc: TrendDocument }>(
    db,
    sql`
    with p as (
      select p.performance_code, p.date, p.daily_average from performances p
      where p.employee_code = ${employeeCode} and p.date between ${range.from}::date and ${range.to}::date
    )
    select json_build_object(
      'employee', (
        select json_build_object('employeeCode', e.employee_code, 'employeeId', e.employee_id, 'name', e.name,
          'department', json_build_object('departmentCode', d.department_code, 'name', d.name))
        from employees e join departments d on d.department_code = e.department_code
        where e.employee_code = ${employeeCode}),
      'days', coalesce((
        select json_agg(json_build_object('date', p.date::text, 'daily', ${round2(sql`p.daily_average`)}) order by p.date)
        from p where p.daily_average is not null), '[]'),
      'months', coalesce((
        select json_agg(json_build_object('month', m.month, 'average', m.average) order by m.month)
        from (
          select to_char(p.date, 'YYYY-MM') as month,
            ${meanOf(sql`sum(p.daily_average)`, sql`count(p.daily_average)`)} as average
          from p group by 1
        ) m), '[]'),
      'skills', coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title,
            'average', ${meanOf(sql`s.points_sum`, sql`s.scored`)}, 'scored', coalesce(s.scored, 0))
          order by lower(k.title), k.id)
        from skills k left join (
          select ps.skill_code, sum(ps.points)::numeric as points_sum, count(ps.points)::int as scored
          from performance_scores ps
          where ps.performance_code = any(array(select performance_code from p))
          group by ps.skill_code
        ) s on s.skill_code = k.skill_code), '[]')
    ) as doc`,
  );
  if (!row) throw new Error('The trend query returned no row');
  return row.doc;
}

/** An overview as the database writes it: only the buckets that have employees. */
export type OverviewDocument = Omit<PerformanceOverview, 'date' | 'departmentCode' | 'distribution'> & {
  /** Bucket index 0..9 and its number of employees. */
  buckets: [number, number][];
};

/**
 * A date's overview, for every employee or one department's, in one statement. Departments and
 * the distribution come from the rollups a date's grid reads (`runningSumsOf`): each employee's
 * daily average, and running sums of the month and the year up to the date, pooled per department
 * so that a department's monthly average is the mean of all its employees' daily averages of the
 * month so far (as an employee's is of theirs). Skill averages are the mean of the skill's scores
 * from the 1st of the month (1 January) up to the date, read from their rollup per department,
 * date and skill (`performance_skill_days`: at most 366 x skills rows per department, where the
 * scores themselves are that times the department's employees).
 */
export async function overviewDocument(db: Executor, date: string, departmentCode: string | undefined) {
  const inDepartment = (column: SQL) => (departmentCode ? sql`${column} = ${departmentCode}` : sql`true`);
  const [row] = await rowsOf<{ doc: OverviewDocument }>(
    db,
    sql`
    with emp as (
      select e.id, e.employee_code, e.employee_id, e.name, 0 as total from employees e
      where ${inDepartment(sql`e.department_code`)}
    ),
    ${runningSumsOf(date)},
    per as (
      select e.department_code, c.daily_average, c.month_sum, c.month_days,
        c.before_sum + c.month_sum as year_sum, c.before_days + c.month_days as year_days
      from calc c join employees e on e.employee_code = c.employee_code
    ),
    dept as (
      select department_code, count(*)::int as employees,
        ${meanOf(sql`sum(daily_average)`, sql`count(daily_average)`)} as daily,
        ${meanOf(sql`sum(month_sum)`, sql`sum(month_days)`)} as monthly,
        ${meanOf(sql`sum(year_sum)`, sql`sum(year_days)`)} as yearly
      from per group by department_code
    ),
    scores as (
      select k.skill_code,
        sum(k.points_sum) filter (where k.date >= ${monthStart(date)}::date)::numeric as month_sum,
        sum(k.scored) filter (where k.date >= ${monthStart(date)}::date) as month_scored,
        sum(k.points_sum)::numeric as year_sum,
        sum(k.scored) as year_scored
      from performance_skill_days k
      where k.date >= ${yearStart(date)}::date and k.date <= ${date}::date
        and ${inDepartment(sql`k.department_code`)}
      group by k.skill_code
    )
    select json_build_object(
      'skills', coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title,
            'monthly', ${meanOf(sql`s.month_sum`, sql`s.month_scored`)},
            'yearly', ${meanOf(sql`s.year_sum`, sql`s.year_scored`)})
          order by lower(k.title), k.id)
        from skills k left join scores s on s.skill_code = k.skill_code), '[]'),
      'departments', coalesce((
        select json_agg(json_build_object('departmentCode', d.department_code, 'name', d.name,
            'employees', coalesce(x.employees, 0), 'daily', x.daily, 'monthly', x.monthly, 'yearly', x.yearly)
          order by lower(d.name), d.id)
        from departments d left join dept x on x.department_code = d.department_code
        where ${inDepartment(sql`d.department_code`)}), '[]'),
      'buckets', coalesce((
        select json_agg(json_build_array(b.bucket, b.count))
        from (
          select least(floor(${exactRound2(sql`year_sum / year_days`)}), 9)::int as bucket, count(*)::int as count
          from per where year_days > 0 group by 1
        ) b), '[]')
    ) as doc`,
  );
  if (!row) throw new Error('The overview query returned no row');
  return row.doc;
}
