import type { PerformanceRow, PerformanceSkillColumn, PerformanceTotals } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import { textArray, textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { rowsOf } from '../../db/rows.ts';
import { monthStart, previousMonthStart, yearStart } from '../dates.ts';
import { exactRound2, meanOf, round2 } from '../sql.ts';

/** One row of the grid before its skills are attached. */
export interface DayRow {
  performanceCode: string | null;
  /** The saved row's version; null when nothing is saved for the employee and date. */
  version: number | null;
  employeeCode: string;
  employeeId: string;
  employeeName: string;
  date: string;
  daily: number | null;
  monthly: number | null;
  yearly: number | null;
}

/** A row with the number of rows its query matched. */
export interface BaseRow extends DayRow {
  total: number;
}

export interface ScoreRow {
  performanceCode: string;
  skillCode: string;
  points: number;
}

/** Skill columns in one stable order, the same in every row (docs/product.md section 12). */
export const listSkills = (db: Executor) =>
  rowsOf<PerformanceSkillColumn>(
    db,
    sql`select skill_code as "skillCode", title from skills order by lower(title), id`,
  );

/** The scored cells of these rows; unscored cells have no row. */
export function listScores(db: Executor, performanceCodes: readonly string[]) {
  if (!performanceCodes.length) return Promise.resolve([]);
  // Each row's cells looked up on the key's index, whatever the statistics say: a table filled in
  // the same transaction (an import's) still has those of before, and by them a hash join over
  // every cell looked cheaper. `offset 0` keeps the lookup from being merged into such a join.
  return rowsOf<ScoreRow>(
    db,
    sql`select ps.performance_code as "performanceCode", ps.skill_code as "skillCode", ps.points::int as points
        from unnest(${textArray(performanceCodes)}) as c(code)
        cross join lateral (
          select performance_code, skill_code, points from performance_scores
          where performance_code = c.code and points is not null offset 0
        ) ps`,
  );
}

/** Rows whose scores one statement reads; more are split over several statements at once. */
const ROWS_PER_READ = 500;
const CONCURRENT_READS = 8;

/**
 * The scores of many rows, read by up to eight statements at once (on as many connections as
 * the pool lends; a transaction runs them one after the other). A row's cells may lie on as many
 * pages as it has skills, and a backend reads the pages of a statement one at a time: when they
 * were not cached, eight readers fetched a date's 100,000 scores in 2.6 s instead of 8 s here.
 */
export async function scoresOf(db: Executor, performanceCodes: readonly string[]): Promise<ScoreRow[]> {
  const parts = Math.min(CONCURRENT_READS, Math.ceil(performanceCodes.length / ROWS_PER_READ));
  if (parts <= 1) return listScores(db, performanceCodes);
  const size = Math.ceil(performanceCodes.length / parts);
  const reads = Array.from({ length: parts }, (_, i) =>
    listScores(db, performanceCodes.slice(i * size, (i + 1) * size)),
  );
  return (await Promise.all(reads)).flat();
}

/** Pure: each row's scores by skill. */
export function scoresByRow(scores: readonly ScoreRow[]): Map<string, Map<string, number>> {
  const byRow = new Map<string, Map<string, number>>();
  for (const s of scores) {
    const cells = byRow.get(s.performanceCode) ?? new Map<string, number>();
    cells.set(s.skillCode, s.points);
    byRow.set(s.performanceCode, cells);
  }
  return byRow;
}

/** Pure: every row gets every skill column, in column order, with its score or null. */
export function assembleRows(
  base: readonly DayRow[],
  skills: readonly PerformanceSkillColumn[],
  scores: readonly ScoreRow[],
): PerformanceRow[] {
  const byRow = scoresByRow(scores);
  return base.map((b) => {
    const cells = b.performanceCode ? byRow.get(b.performanceCode) : undefined;
    const total: PerformanceTotals = { daily: b.daily, monthly: b.monthly, yearly: b.yearly };
    return {
      performanceCode: b.performanceCode,
      version: b.version,
      employeeCode: b.employeeCode,
      employeeId: b.employeeId,
      employeeName: b.employeeName,
      date: b.date,
      skills: skills.map((k) => ({
        skillCode: k.skillCode,
        title: k.title,
        score: cells?.get(k.skillCode) ?? null,
      })),
      total,
    };
  });
}

export async function withSkills(
  db: Executor,
  base: readonly BaseRow[],
  skills?: readonly PerformanceSkillColumn[],
): Promise<PerformanceRow[]> {
  const codes = base.flatMap((b) => (b.performanceCode ? [b.performanceCode] : []));
  const columns = skills ?? (await listSkills(db));
  return assembleRows(base, columns, await scoresOf(db, codes));
}

export type Direction = 'asc' | 'desc';

/** Which employees a date's grid shows. */
export type EmployeeFilter =
  | {
      kind: 'keyword';
      keyword: string;
      departmentCode?: string;
      /** The employees the caller reaches (a team, oneself), over `employees e`; absent for all. */
      within?: SQL;
    }
  | { kind: 'codes'; codes: readonly string[] };

export function employeeWhere(filter: EmployeeFilter): SQL {
  if (filter.kind === 'codes') return sql`e.employee_code in (${textSet(filter.codes)})`;
  const department = filter.departmentCode ? sql`e.department_code = ${filter.departmentCode}` : sql`true`;
  const reached = filter.within ? sql`${department} and ${filter.within}` : department;
  if (!filter.keyword) return reached;
  const pattern = `%${escapeLike(filter.keyword)}%`;
  return sql`${reached} and (e.name ilike ${pattern} or e.employee_id ilike ${pattern})`;
}

export interface DateGridQuery {
  date: string;
  filter: EmployeeFilter;
  sortField: 'name' | 'employeeId' | 'daily' | 'monthly' | 'yearly';
  sortValue: Direction;
  /** Absent: every matching employee (report, export). */
  page?: { limit: number; offset: number };
}

export const dir = (d: Direction) => (d === 'asc' ? sql`asc` : sql`desc`);

/**
 * The order of a date's rows, over columns named as `averagesOf` answers them, behind `alias`.
 * By an average, empty averages come last either way and ties (frequent once rounded to two
 * decimals) go by name and id.
 */
export function dateOrder(q: Pick<DateGridQuery, 'sortField' | 'sortValue'>, alias: SQL): SQL {
  const column = (name: string) => sql`${alias}.${sql.identifier(name)}`;
  const d = dir(q.sortValue);
  if (q.sortField === 'name' || q.sortField === 'employeeId') {
    return sql`${column(q.sortField === 'name' ? 'employeeName' : 'employeeId')} ${d}, ${column('id')} ${d}`;
  }
  return sql`${column(q.sortField)} ${d} nulls last, ${column('employeeName')} asc, ${column('id')} asc`;
}

type AverageField = 'daily' | 'monthly' | 'yearly';

/**
 * The running sums behind one date's averages for the employees `emp` selects (id, employee_code,
 * employee_id, name, total), as the CTE `calc` of a `with` list (after `emp`): each employee's
 * row of the date (performance_code, version, daily_average), the sum and count of the month's
 * daily averages up to the date (month_sum, month_days) and of the year's before the month
 * (before_sum, before_days). `wants` leaves out the joins an average that is not asked for needs.
 * The date's own rows are read in one go (the date index) and joined by hash, as are the previous
 * month's rollups; only employees without a row on the date (or without a rollup for the previous
 * month) fall back to an index probe for their latest one, and those probes are gated so they cost
 * nothing for everyone else: about two rows per employee. Gated lateral joins rather than
 * subqueries in `coalesce`: the planner charges such a subquery to every row, and at 5,000
 * employees the statement's estimate then passed the cost at which PostgreSQL compiles it (JIT),
 * which took 0.13 s.
 */
export function runningSumsOf(date: string, wants: (field: AverageField) => boolean = () => true): SQL {
  const m = monthStart(date);
  const y = yearStart(date);
  const pm = previousMonthStart(date);
  const month = wants('monthly') || wants('yearly');
  const monthSum = sql`coalesce(d.month_sum, cur.month_sum, 0)`;
  const monthDays = sql`coalesce(d.month_days, cur.month_days, 0)`;
  // In January the year so far is the month so far.
  const before =
    pm && wants('yearly')
      ? {
          sum: sql`coalesce(pm.year_sum, prev.year_sum, 0)`,
          days: sql`coalesce(pm.year_days, prev.year_days, 0)`,
          joins: sql`
        left join performance_months pm on pm.employee_code = emp.employee_code and pm.month = ${pm}::date
        left join lateral (
          select m.year_sum, m.year_days from performance_months m
          where pm.employee_code is null and m.employee_code = emp.employee_code
            and m.month >= ${y}::date and m.month < ${pm}::date
          order by m.month desc limit 1
        ) prev on true`,
        }
      : { sum: sql`0`, days: sql`0`, joins: sql`` };
  return sql`
    calc as (
      select emp.id, emp.employee_code, emp.employee_id, emp.name, emp.total,
        d.performance_code, d.version, d.daily_average,
        ${month ? monthSum : sql`0`} as month_sum, ${month ? monthDays : sql`0`} as month_days,
        ${before.sum} as before_sum, ${before.days} as before_days
      from emp
      left join performances d on d.employee_code = emp.employee_code and d.date = ${date}::date
      ${
        month
          ? sql`left join lateral (
        select p.month_sum, p.month_days from performances p
        where d.employee_code is null and p.employee_code = emp.employee_code
          and p.date >= ${m}::date and p.date < ${date}::date
        order by p.date desc limit 1
      ) cur on true`
          : sql``
      }
      ${before.joins}
    )`;
}

/**
 * The averages of one date for the employees `emp` selects (id, employee_code, employee_id, name,
 * total), unsorted, from their running sums (`runningSumsOf`). With `only`, that average alone,
 * left numeric (the others are null): what a sort by it computes for every employee, with only the
 * joins it needs.
 */
export function averagesOf(date: string, emp: SQL, only?: AverageField): SQL {
  const wants = (field: AverageField) => !only || only === field;
  return sql`
    with emp as (${emp}),
    ${runningSumsOf(date, wants)}
    select
      id,
      performance_code as "performanceCode",
      version,
      employee_code as "employeeCode",
      employee_id as "employeeId",
      name as "employeeName",
      ${date}::text as date,
      ${wants('daily') ? (only ? exactRound2 : round2)(sql`daily_average`) : sql`null`} as daily,
      ${wants('monthly') ? meanOf(sql`month_sum`, sql`month_days`, !!only) : sql`null`} as monthly,
      ${wants('yearly') ? meanOf(sql`before_sum + month_sum`, sql`before_days + month_days`, !!only) : sql`null`} as yearly,
      total::int as total
    from calc`;
}

/** The employees `e` in a person sort's order. */
export function personOrder(q: Pick<DateGridQuery, 'sortField' | 'sortValue'>): SQL {
  const d = dir(q.sortValue);
  return sql`e.${sql.raw(q.sortField === 'employeeId' ? 'employee_id' : 'name')} ${d}, e.id ${d}`;
}

export interface HistoryQuery {
  employeeCode: string;
  keyword: string;
  sortField: 'date' | 'daily' | 'monthly' | 'yearly';
  sortValue: Direction;
  limit: number;
  offset: number;
}

/** One employee's saved dates, each with its averages as of that date. */
export async function historyRows(db: Executor, q: HistoryQuery): Promise<BaseRow[]> {
  const yearSum = sql`coalesce(prev.year_sum, 0) + p.month_sum`;
  const yearDays = sql`coalesce(prev.year_days, 0) + p.month_days`;
  const order =
    q.sortField === 'date'
      ? sql`p.date ${dir(q.sortValue)}`
      : sql`${sql.raw(`"${q.sortField}"`)} ${dir(q.sortValue)} nulls last, p.date desc`;
  const keyword = q.keyword ? sql`and p.date::text like ${`%${escapeLike(q.keyword)}%`}` : sql``;
  return rowsOf<BaseRow>(
    db,
    sql`
    select
      p.performance_code as "performanceCode",
      p.version,
      e.employee_code as "employeeCode",
      e.employee_id as "employeeId",
      e.name as "employeeName",
      p.date::text as date,
      ${round2(sql`p.daily_average`)} as daily,
      ${meanOf(sql`p.month_sum`, sql`p.month_days`)} as monthly,
      ${meanOf(yearSum, yearDays)} as yearly,
      (count(*) over ())::int as total
    from performances p
    join employees e on e.employee_code = p.employee_code
    left join lateral (
      select pm.year_sum, pm.year_days
      from performance_months pm
      where pm.employee_code = p.employee_code
        and pm.month >= date_trunc('year', p.date)::date and pm.month < date_trunc('month', p.date)::date
      order by pm.month desc limit 1
    ) prev on true
    where p.employee_code = ${q.employeeCode} ${keyword}
    order by ${order}
    limit ${q.limit} offset ${q.offset}`,
  );
}

/** The employee and date of a saved row. */
export async function findPerformance(db: Executor, performanceCode: string) {
  const [r] = await rowsOf<{ employeeCode: string; date: string }>(
    db,
    sql`select employee_code as "employeeCode", date::text as date
        from performances where performance_code = ${performanceCode}`,
  );
  return r;
}
