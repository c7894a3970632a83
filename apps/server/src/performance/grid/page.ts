import type { PerformanceRow, PerformanceSkillColumn } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  assembleRows,
  averagesOf,
  type DateGridQuery,
  type DayRow,
  dateOrder,
  employeeWhere,
  personOrder,
  type ScoreRow,
  scoresOf,
} from './read.ts';

/** A page (or all) of a date's rows: the skill columns, the rows with their scores, and the number of matching employees. */
export interface DatePage {
  skills: PerformanceSkillColumn[];
  rows: PerformanceRow[];
  total: number;
}

/** A page as the database writes it in one document. */
export interface PageDocument {
  skills: PerformanceSkillColumn[];
  rows: DayRow[];
  /** performanceCode, skillCode, points of the rows' scored cells. */
  scores: [string, string, number][];
  total: number;
}

/** Pure: a document's scores as listScores answers them. */
export const documentScores = (doc: PageDocument): ScoreRow[] =>
  doc.scores.map(([performanceCode, skillCode, points]) => ({ performanceCode, skillCode, points }));

/**
 * The employees of a page (id, employee_code, employee_id, name, total), in no particular order.
 * By name or id they are paged by themselves. By an average, that average alone is computed for
 * every matching employee, and SQL orders and pages them; only the page's rows then get all three
 * averages and their scores. Unpaged: every matching employee.
 */
function pageEmployees(q: DateGridQuery): SQL {
  const matching = sql`select e.id, e.employee_code, e.employee_id, e.name, 0 as total
    from employees e where ${employeeWhere(q.filter)}`;
  if (!q.page) return matching;
  const paging = sql`limit ${q.page.limit} offset ${q.page.offset}`;
  if (q.sortField === 'name' || q.sortField === 'employeeId') {
    return sql`${matching} order by ${personOrder(q)} ${paging}`;
  }
  return sql`
    select r.id, r."employeeCode" as employee_code, r."employeeId" as employee_id, r."employeeName" as name,
      0 as total
    from (${averagesOf(q.date, matching, q.sortField)}) r
    order by ${dateOrder(q, sql`r`)}
    ${paging}`;
}

/** The scored cells of a document's rows, or none when `inline` is false (they are read apart). */
const documentScoresSql = (inline: boolean) =>
  inline
    ? sql`coalesce((
        select json_agg(json_build_array(ps.performance_code, ps.skill_code, ps.points))
        from page p join performance_scores ps on ps.performance_code = p."performanceCode"
        where ps.points is not null), '[]')`
    : sql`'[]'::json`;

/**
 * A page (or every row), the skill columns and the number of matching employees, as one JSON
 * document: one round trip, whose price on a busy machine is a good part of a page's. With
 * `inlineScores`, the rows' scores too.
 */
async function pageDocument(db: Executor, q: DateGridQuery, inlineScores: boolean): Promise<PageDocument> {
  const [doc] = await rowsOf<{ doc: PageDocument }>(
    db,
    sql`
    with page as (${averagesOf(q.date, pageEmployees(q))})
    select json_build_object(
      'skills', coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title) order by lower(k.title), k.id)
        from skills k), '[]'),
      'rows', coalesce((
        select json_agg(json_build_object('performanceCode', p."performanceCode", 'version', p.version,
            'employeeCode', p."employeeCode", 'employeeId', p."employeeId",
            'employeeName', p."employeeName", 'date', p.date,
            'daily', p.daily, 'monthly', p.monthly, 'yearly', p.yearly)
          order by ${dateOrder(q, sql`p`)})
        from page p), '[]'),
      'scores', ${documentScoresSql(inlineScores)},
      'total', (select count(*) from employees e where ${employeeWhere(q.filter)})
    ) as doc`,
  );
  if (!doc) throw new Error('The page query returned no row');
  return doc.doc;
}

/**
 * A page (or, without `page`, all) of a date's rows in the asked order: how every read of a
 * date's rows builds them (the grid, the report and its CSV, by code, by employees, a stale
 * batch's answer). Every row of a large report has its scores read over several connections
 * (`scoresOf`) rather than in the document. Nothing is written: any date costs the same
 * computation, and none leaves a trace.
 */
export async function datePage(db: Executor, q: DateGridQuery): Promise<DatePage> {
  const doc = await pageDocument(db, q, !!q.page);
  const codes = doc.rows.flatMap((r) => (r.performanceCode ? [r.performanceCode] : []));
  const scores = q.page ? documentScores(doc) : await scoresOf(db, codes);
  return { skills: doc.skills, rows: assembleRows(doc.rows, doc.skills, scores), total: doc.total };
}

/** The rows of these employees on a date, by name: a form's, a saved row's, a stale batch's. */
export async function employeesDay(db: Executor, date: string, codes: readonly string[]) {
  if (!codes.length) return [];
  const filter = { kind: 'codes', codes } as const;
  return (await datePage(db, { date, filter, sortField: 'name', sortValue: 'asc' })).rows;
}
