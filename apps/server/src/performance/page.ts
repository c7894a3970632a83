import type { PerformanceRow, PerformanceSkillColumn } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import {
  assembleRows,
  averagesOf,
  type DateGridQuery,
  type DayRow,
  dateOrder,
  employeeWhere,
  gridRows,
  listSkills,
  personOrder,
  type ScoreRow,
  withSkills,
} from './read.ts';
import { rowsOf } from './sql.ts';

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

type PageQuery = DateGridQuery & { page: NonNullable<DateGridQuery['page']> };

/**
 * The employees of a page (id, employee_code, employee_id, name, total), in no particular order.
 * By name or id they are paged by themselves. By an average, that average alone is computed for
 * every matching employee, and SQL orders and pages them; only the page's rows then get all three
 * averages and their scores.
 */
function pageEmployees(q: PageQuery): SQL {
  const paging = sql`limit ${q.page.limit} offset ${q.page.offset}`;
  const matching = sql`select e.id, e.employee_code, e.employee_id, e.name, 0 as total
    from employees e where ${employeeWhere(q.filter)}`;
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

/**
 * A page, its scores, the skill columns and the number of matching employees, as one JSON
 * document: one round trip, whose price on a busy machine is a good part of a page's.
 */
async function pageDocument(db: Executor, q: PageQuery): Promise<PageDocument> {
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
      'scores', coalesce((
        select json_agg(json_build_array(ps.performance_code, ps.skill_code, ps.points))
        from page p join performance_scores ps on ps.performance_code = p."performanceCode"
        where ps.points is not null), '[]'),
      'total', (select count(*) from employees e where ${employeeWhere(q.filter)})
    ) as doc`,
  );
  if (!doc) throw new Error('The page query returned no row');
  return doc.doc;
}

/**
 * A page (or, without `page`, all) of a date's rows in the asked order: what every grid read
 * uses. Nothing is written: any date costs the same computation, and none leaves a trace.
 */
export async function datePage(db: Executor, q: DateGridQuery): Promise<DatePage> {
  const { page } = q;
  if (page) {
    const doc = await pageDocument(db, { ...q, page });
    return {
      skills: doc.skills,
      rows: assembleRows(doc.rows, doc.skills, documentScores(doc)),
      total: doc.total,
    };
  }
  // Every row: the scores are read over several connections (`withSkills`).
  const skills = await listSkills(db);
  const base = await gridRows(db, q);
  return { skills, rows: await withSkills(db, base, skills), total: base.length };
}
