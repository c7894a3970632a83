import type { PerformanceRow, PerformanceSkillColumn } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { yearStart } from './dates.ts';
import {
  allAverages,
  assembleRows,
  countEmployees,
  type DateGridQuery,
  type DayRow,
  dir,
  type EmployeeFilter,
  employeeWhere,
  gridRows,
  listSkills,
  type ScoreRow,
  scoresOf,
  withSkills,
} from './read.ts';
import { jsonParam, rowsOf } from './sql.ts';

/*
 * The materialised grid: `performance_grid` holds, per date, every employee's averages as the grid
 * shows them, and `performance_grid_dates` the dates whose rows are complete and current. A page
 * sorted by an average then reads about a page of rows in index order, whatever the number of
 * employees. A date is filled when first asked for; whatever moves its averages deletes its
 * marker, and the next read fills it again.
 *
 * Fills and invalidations cannot cross: a fill holds this lock exclusively from before it reads
 * the averages until its marker is committed, and every writer takes it shared (until its own
 * commit) before deleting markers. Either the fill read the writer's committed data, or the fill
 * committed first and the writer deletes the marker it wrote.
 */
const GRID_LOCK = 727_010;

type AverageField = 'daily' | 'monthly' | 'yearly';

const isAverage = (field: DateGridQuery['sortField']): field is AverageField =>
  field === 'daily' || field === 'monthly' || field === 'yearly';

async function isCurrent(db: Executor, date: string): Promise<boolean> {
  const found = await rowsOf<{ one: number }>(
    db,
    sql`select 1 as one from performance_grid_dates where date = ${date}::date`,
  );
  return found.length > 0;
}

/**
 * Makes the date's grid rows current. Rows are upserted rather than deleted and inserted, so
 * that a refill rewrites only the rows whose values moved; rows of deleted employees go with
 * them (foreign key cascade), so every current employee has exactly one row.
 */
export async function ensureGrid(db: Executor, date: string): Promise<void> {
  if (await isCurrent(db, date)) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${GRID_LOCK})`);
    // Another request may have filled it while this one waited for the lock.
    if (await isCurrent(tx, date)) return;
    const [{ created }] = await rowsOf<{ created: number }>(
      tx,
      sql`
      with upserted as (
        insert into performance_grid as g (date, employee_code, performance_code, daily, monthly, yearly)
        select ${date}::date, a."employeeCode", a."performanceCode", a.daily, a.monthly, a.yearly
        from (${allAverages(date)}) a
        on conflict (employee_code, date) do update
          set performance_code = excluded.performance_code, daily = excluded.daily,
            monthly = excluded.monthly, yearly = excluded.yearly
          where (g.performance_code, g.daily, g.monthly, g.yearly)
            is distinct from (excluded.performance_code, excluded.daily, excluded.monthly, excluded.yearly)
        returning g.xmax = 0 as created
      )
      select count(*) filter (where created)::int as created from upserted`,
    );
    // The planner walks the (date, average) index only if it expects a date to hold many rows:
    // statistics that predate this date would have it sort the whole date instead. A sample of
    // the date column alone is enough and stays cheap however many dates are kept.
    if (created > 0) {
      await tx.execute(sql`set local default_statistics_target = 10`);
      await tx.execute(sql`analyze performance_grid (date)`);
    }
    await tx.execute(sql`insert into performance_grid_dates (date) values (${date}::date)`);
  });
}

/** A page of a date's grid: the skill columns, the rows with their scores, and the number of matching employees. */
export interface DatePage {
  skills: PerformanceSkillColumn[];
  rows: PerformanceRow[];
  total: number;
}

export interface GridDocument {
  /** Whether the rows were read from a current grid. */
  current: boolean;
  skills: PerformanceSkillColumn[];
  rows: DayRow[];
  /** performanceCode, skillCode, points of the rows' scored cells; only for a page. */
  scores?: [string, string, number][];
}

/** Pure: a document's scores as listScores answers them. */
export const documentScores = (doc: GridDocument): ScoreRow[] =>
  (doc.scores ?? []).map(([performanceCode, skillCode, points]) => ({ performanceCode, skillCode, points }));

/**
 * A date's rows sorted by an average, read from the grid as one JSON document: a page, its
 * scores and the skill columns cost a single round trip, whose price on this kind of machine is
 * mostly the trip itself. The index on (date, average) gives the order, and ties (rare
 * once rounded to two decimals) are put in name order by an incremental sort; names and ids are
 * joined live. The marker is read in the same snapshot as the rows, so `current` says whether
 * these rows were current. Without a page the scores are left to `scoresOf`, which reads them
 * over several connections.
 */
async function readGrid(db: Executor, q: DateGridQuery & { sortField: AverageField }): Promise<GridDocument> {
  const average = sql.raw(q.sortField);
  const order = (row: SQL, person: SQL) =>
    sql`${row}.${average} ${dir(q.sortValue)} nulls last, ${person}.name asc, ${person}.id asc`;
  const filter = employeeWhere(q.filter);
  const paging = q.page ? sql`limit ${q.page.limit} offset ${q.page.offset}` : sql``;
  const [doc] = await rowsOf<{ doc: GridDocument }>(
    db,
    sql`
    with page as (
      select g.performance_code, e.employee_code, e.employee_id, e.name, e.id, g.daily, g.monthly, g.yearly
      from performance_grid g
      join employees e on e.employee_code = g.employee_code
      where g.date = ${q.date}::date and ${filter}
      order by ${order(sql`g`, sql`e`)}
      ${paging}
    )
    select json_build_object(
      'current', exists (select 1 from performance_grid_dates where date = ${q.date}::date),
      'skills', coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title) order by lower(k.title), k.id)
        from skills k), '[]'),
      'rows', coalesce((
        select json_agg(json_build_object('performanceCode', p.performance_code, 'employeeCode', p.employee_code,
            'employeeId', p.employee_id, 'employeeName', p.name, 'date', ${q.date}::text,
            'daily', p.daily, 'monthly', p.monthly, 'yearly', p.yearly)
          order by ${order(sql`p`, sql`p`)})
        from page p), '[]')
      ${
        q.page
          ? sql`, 'scores', coalesce((
        select json_agg(json_build_array(ps.performance_code, ps.skill_code, ps.points))
        from page p join performance_scores ps on ps.performance_code = p.performance_code
        where ps.points is not null), '[]')`
          : sql``
      }
    ) as doc`,
  );
  return doc.doc;
}

/** Counts the employees a filter matches: a caller may keep the answer while `employees` is unchanged. */
export type EmployeeCounter = (filter: EmployeeFilter) => Promise<number>;

/** Read from the grid, filling it first if it is not current. */
async function gridPage(
  db: Executor,
  q: DateGridQuery & { sortField: AverageField },
  count: EmployeeCounter,
): Promise<DatePage> {
  let doc = await readGrid(db, q);
  if (!doc.current) {
    await ensureGrid(db, q.date);
    // Whatever this read finds was complete and current when it was filled, even if a write has
    // invalidated it since: the answer is then the one just before that write.
    doc = await readGrid(db, q);
  }
  const scores = q.page
    ? documentScores(doc)
    : await scoresOf(
        db,
        doc.rows.flatMap((r) => (r.performanceCode ? [r.performanceCode] : [])),
      );
  // Counting the matching employees costs as much as the rest of a page: it is asked for apart,
  // so that it can be kept.
  const total = q.page ? await count(q.filter) : doc.rows.length;
  return { skills: doc.skills, rows: assembleRows(doc.rows, doc.skills, scores), total };
}

/** Computed from the rollups: pages the employees first, so only a page's averages are computed. */
async function personPage(db: Executor, q: DateGridQuery): Promise<DatePage> {
  const skills = await listSkills(db);
  const base = await gridRows(db, q);
  const rows = await withSkills(db, base, skills);
  // Past the last page the window count has no row to ride on; ask for it alone.
  const total = base[0]?.total ?? (await countEmployees(db, q.filter));
  return { skills, rows, total };
}

/** A page (or, without `page`, all) of a date's rows in the asked order: what every grid read uses. */
export function datePage(
  db: Executor,
  q: DateGridQuery,
  count: EmployeeCounter = (filter) => countEmployees(db, filter),
): Promise<DatePage> {
  const { sortField } = q;
  return isAverage(sortField) ? gridPage(db, { ...q, sortField }, count) : personPage(db, q);
}

export interface StaleRange {
  from: string;
  to: string;
}

/**
 * Pure: the dates whose averages a change of these days moves. A day feeds its own daily
 * average, its month's monthly averages from that day on and its year's yearly averages from that
 * day on; nothing crosses 31 December. One range per year, from its earliest changed day.
 */
export function staleRanges(days: readonly { date: string }[]): StaleRange[] {
  const earliest = new Map<string, string>();
  for (const { date } of days) {
    const year = yearStart(date);
    const known = earliest.get(year);
    if (!known || date < known) earliest.set(year, date);
  }
  return [...earliest]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([year, from]) => ({ from, to: `${year.slice(0, 4)}-12-31` }));
}

/** In the writer's transaction, after its changes: the grids of these dates are no longer current. */
export async function invalidateGrid(tx: Executor, ranges: readonly StaleRange[]): Promise<void> {
  if (!ranges.length) return;
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${GRID_LOCK})`);
  await tx.execute(sql`
    delete from performance_grid_dates d
    using jsonb_to_recordset(${jsonParam(ranges)}) as r("from" date, "to" date)
    where d.date between r."from" and r."to"`);
}

/** In the writer's transaction: no date's grid is current any more (a new employee, a rebuild). */
export async function invalidateEveryGrid(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${GRID_LOCK})`);
  await tx.execute(sql`delete from performance_grid_dates`);
}
