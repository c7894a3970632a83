import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { performanceScores, performances } from '../db/schema/index.ts';
import { codeSql } from './sql.ts';

/**
 * A whole-number score 0..10, or null for "not scored" (about 1 in 23), from a cheap integer
 * hash of employee, skill and day: each person has a steady level per skill (3..9) and a daily
 * swing of -2..+2. Deterministic, so the daily average can be computed beside the scores
 * instead of by a second pass over them.
 */
function points(employeeId: SQL, skillId: SQL, dayIndex: SQL): SQL {
  const pair = sql`(${employeeId}::bigint * 73856093) # (${skillId}::bigint * 19349663)`;
  const level = sql`(3 + abs(${pair}) % 7)`;
  const h = sql`abs(${pair} # ((${dayIndex} + 1)::bigint * 83492791))`;
  return sql`(case when ${h} % 23 = 0 then null else least(10, greatest(0, ${level} + (${h} / 23) % 5 - 2)) end)::smallint`;
}

export interface DailyScoresOptions {
  /** A query selecting `id` and `employee_code` of employees that have no performance in the range. */
  employees: SQL;
  /** A query selecting `id` and `skill_code` of the skills to score. */
  skills: SQL;
  /** First date, YYYY-MM-DD. */
  from: string;
  days: number;
  /** Monday to Friday only, as a company records them. */
  workdaysOnly?: boolean;
}

/**
 * One performance per employee and day and a score per scored skill, in one set-based statement.
 * The daily average and the running month sums are written as the save path keeps them (exact
 * numerics, see db/schema/performance.ts), so the rollup rebuild that must follow finds them
 * already right; unscored skills get no row, as after a save.
 */
export async function insertDailyScores(db: Executor, opts: DailyScoresOptions) {
  const from = sql`${opts.from}::date`;
  await db.execute(sql`
    with e as (${opts.employees}),
    s as (${opts.skills}),
    d as materialized (
      select e.employee_code, ${from} + g.i as date,
        (select sum(${points(sql`e.id`, sql`s.id`, sql`g.i`)})::numeric(36, 30)
           / nullif(count(${points(sql`e.id`, sql`s.id`, sql`g.i`)}), 0) from s) as average
      from e cross join generate_series(0, ${opts.days - 1}) as g(i)
      ${opts.workdaysOnly ? sql`where extract(isodow from ${from} + g.i) < 6` : sql``}
    ),
    p as (
      insert into ${performances} (performance_code, employee_code, date, daily_average, month_sum, month_days)
      select ${codeSql('PERF-')}, d.employee_code, d.date, d.average,
        coalesce(sum(d.average) over w, 0), count(d.average) over w
      from d
      window w as (partition by d.employee_code, date_trunc('month', d.date) order by d.date)
      returning performance_code, employee_code, date
    )
    insert into ${performanceScores} (performance_code, skill_code, points)
    select x.performance_code, x.skill_code, x.points from (
      select p.performance_code, p.date, p.employee_code, s.skill_code,
        ${points(sql`e.id`, sql`s.id`, sql`(p.date - ${from})`)} as points
      from p join e on e.employee_code = p.employee_code cross join s
      -- offset 0 keeps the subquery whole, so the score is computed once rather than again in the filter.
      offset 0
    ) x
    where x.points is not null
    -- A row's scores side by side and a date's rows together, as saves through the API leave them:
    -- a date's grid or export then reads a few hundred pages rather than one page per score.
    order by x.date, x.employee_code, x.skill_code`);
}
