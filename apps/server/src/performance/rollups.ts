import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { monthStart, yearStart } from './dates.ts';
import { jsonParam, rowsOf } from './sql.ts';

/*
 * The averages are read from rollups that every save keeps in step (see db/schema/performance.ts):
 *   performances.daily_average               mean of the day's scored skills
 *   performances.month_sum / month_days      running sum and count of daily averages, 1st..date
 *   performance_months.day_sum / day_count   the same over the whole month
 *   performance_months.year_sum / year_days  running over the months, 1 January..end of month
 *   performance_skill_days                    per department, date and skill: sum and count of scores
 * A save touches its rows, the later rows of their months and twelve month rows per employee, in
 * three set-based statements whatever the number of rows saved, and the skill days of its changed
 * cells in one more (two when a count falls to 0). An employee's change of department or deletion
 * moves their skill days through triggers on `employees` (migration 0011).
 */

export interface EmployeeDay {
  employeeCode: string;
  date: string;
}

export interface RollupGroups {
  /** `from`: the earliest changed day; the running sums before it stand. */
  months: { employee_code: string; month: string; from: string }[];
  years: { employee_code: string; year: string }[];
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
    years.set(`${d.employeeCode}|${year}`, { employee_code: d.employeeCode, year });
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
 * row is rewritten once. A daily average is the mean of the day's scored skills, kept to 30
 * decimals (the column's scale, here as in the rebuild), null when none is scored.
 */
async function refreshMonths(db: Executor, monthGroups: SQL, days?: SQL) {
  const daily = days
    ? sql`case when d.code is null then p.daily_average else d.average end`
    : sql`p.daily_average`;
  await db.execute(sql`
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
      select p.id, d.code is not null as changed, coalesce(d.bump, false) as bump, ${daily} as daily_average,
        base.month_sum + coalesce(sum(${daily}) over w, 0) as month_sum,
        base.month_days + count(${daily}) over w as month_days
      from base join performances p on p.employee_code = base.employee_code
        and p.date >= base.from_date and p.date < (base.month + interval '1 month')::date
      left join d on d.code = p.performance_code
      window w as (partition by p.employee_code, base.month order by p.date)
    )
    update performances p set daily_average = r.daily_average, month_sum = r.month_sum,
      month_days = r.month_days, updated_at = case when r.changed then now() else p.updated_at end,
      version = case when r.bump then p.version + 1 else p.version end
    from r
    where p.id = r.id and (r.changed or p.month_sum <> r.month_sum or p.month_days <> r.month_days)`);
  // A month's totals are the running values of its last row.
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

async function refreshYears(db: Executor, yearGroups: SQL) {
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

/** After the scores of these rows changed: their daily averages, then the running sums they feed. */
export async function refreshRollups(db: Executor, changed: readonly ChangedDay[]) {
  if (!changed.length) return;
  const { months, years } = rollupGroups(changed);
  const days = changed.map((c) => ({
    code: c.performanceCode,
    score_sum: c.scoreSum,
    scored: c.scored,
    bump: c.bump,
  }));
  await refreshMonths(
    db,
    sql`select x.employee_code, x.month::date as month, x.from::date as from_date
        from jsonb_to_recordset(${jsonParam(months)}) as x(employee_code text, month text, "from" text)`,
    sql`select * from jsonb_to_recordset(${jsonParam(days)}) as x(code text, score_sum int, scored int, bump boolean)`,
  );
  await refreshYears(
    db,
    sql`select x.employee_code, x.year::date as year
        from jsonb_to_recordset(${jsonParam(years)}) as x(employee_code text, year text)`,
  );
}

/** One cell's change to its department's, date's and skill's sum and count of scores. */
export interface SkillDelta {
  /** Employee code. */
  e: string;
  /** Date. */
  d: string;
  /** Skill code. */
  s: string;
  /** Points added (negative: taken away). */
  p: number;
  /** Scores added: 1 for a new one, -1 for a cleared one, 0 for a changed one. */
  n: number;
}

/**
 * Pure: what a row's upserted and cleared cells add to the skill days, from the cells as they
 * were (`before`, scored cells only). Unchanged cells add nothing.
 */
export function skillDeltas(
  day: EmployeeDay,
  before: ReadonlyMap<string, number>,
  upserts: readonly { skillCode: string; points: number }[],
  clears: readonly string[],
): SkillDelta[] {
  const deltas: SkillDelta[] = [];
  const at = (skill: string, p: number, n: number) => {
    if (p !== 0 || n !== 0) deltas.push({ e: day.employeeCode, d: day.date, s: skill, p, n });
  };
  for (const u of upserts) {
    const old = before.get(u.skillCode);
    at(u.skillCode, u.points - (old ?? 0), old === undefined ? 1 : 0);
  }
  for (const skill of clears) {
    const old = before.get(skill);
    if (old !== undefined) at(skill, -old, -1);
  }
  return deltas;
}

/**
 * Adds a save's cell changes to `performance_skill_days`, under each employee's department (the
 * save has locked its employees, so none moves meanwhile); a row left without scores is deleted.
 */
export async function refreshSkillDays(db: Executor, deltas: readonly SkillDelta[]) {
  if (!deltas.length) return;
  const emptied = await rowsOf<{ department_code: string; date: string; skill_code: string }>(
    db,
    sql`
    with x as (
      select * from jsonb_to_recordset(${jsonParam(deltas)}) as x(e text, d text, s text, p int, n int)
    ),
    g as (
      select e.department_code, x.d::date as date, x.s as skill_code,
        sum(x.p)::int as points_sum, sum(x.n)::int as scored
      from x join employees e on e.employee_code = x.e
      group by 1, 2, 3
      having sum(x.p) <> 0 or sum(x.n) <> 0
    ),
    up as (
      insert into performance_skill_days as k (department_code, date, skill_code, points_sum, scored)
      select department_code, date, skill_code, points_sum, scored from g
      -- The order the employee triggers write in too (migration 0011): no two wait in a cycle.
      order by department_code, date, skill_code
      on conflict (department_code, date, skill_code) do update
        set points_sum = k.points_sum + excluded.points_sum, scored = k.scored + excluded.scored
      returning k.department_code, k.date, k.skill_code, k.scored
    )
    select department_code, date::text as date, skill_code from up where scored = 0`,
  );
  if (!emptied.length) return;
  await db.execute(sql`
    delete from performance_skill_days k
    using jsonb_to_recordset(${jsonParam(emptied)}) as x(department_code text, date text, skill_code text)
    where k.department_code = x.department_code and k.date = x.date::date and k.skill_code = x.skill_code
      and k.scored = 0`);
}

/** Every department's, date's and skill's sum and count of scores, from the scores alone. */
async function rebuildSkillDays(db: Executor) {
  await db.execute(sql`delete from performance_skill_days`);
  await db.execute(sql`
    insert into performance_skill_days (department_code, date, skill_code, points_sum, scored)
    select e.department_code, p.date, ps.skill_code, sum(ps.points)::int, count(ps.points)::int
    from performance_scores ps
    join performances p on p.performance_code = ps.performance_code
    join employees e on e.employee_code = p.employee_code
    where ps.points is not null
    group by 1, 2, 3
    order by 2, 1, 3`);
}

/**
 * Recomputes every rollup from the scores alone. For loaders that write scores directly (demo
 * data, benchmark data) rather than through a save: run it once after loading. Rewriting every
 * row scatters them, so `performances` is then put back in date order and `performance_months`
 * in month order, which is how a date's grid reads them (its rows, and every employee's rollup of
 * the month before) and about how saves leave them, since a month's rows are written during that
 * month; that takes an exclusive lock for the duration.
 */
export async function rebuildPerformanceRollups(db: Executor) {
  await db.execute(sql`
    update performances p set daily_average = s.average
    from (
      select p2.performance_code,
        sum(ps.points)::numeric(36, 30) / nullif(count(ps.points), 0) as average
      from performances p2 left join performance_scores ps on ps.performance_code = p2.performance_code
      group by p2.performance_code
    ) s
    where p.performance_code = s.performance_code and p.daily_average is distinct from s.average`);
  await db.execute(sql`delete from performance_months`);
  await refreshMonths(
    db,
    sql`select distinct employee_code, date_trunc('month', date)::date as month,
        date_trunc('month', date)::date as from_date
        from performances`,
  );
  await refreshYears(
    db,
    sql`select distinct employee_code, date_trunc('year', date)::date as year from performances`,
  );
  await rebuildSkillDays(db);
  await db.execute(sql`cluster performances using performances_date`);
  await db.execute(sql`cluster performance_months using performance_months_month`);
  await db.execute(sql`analyze performances, performance_months, performance_skill_days`);
}
