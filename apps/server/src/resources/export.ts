import { isDetailPath, type ParsedListQuery, seesAllDetails } from '@wfc/contract';
import { and, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgColumn } from 'drizzle-orm/pg-core';
import { csvFile } from '../http/csv.ts';
import type { SessionContext } from '../http/routes.ts';
import { filterCondition, prepareList, shapeColumn } from './list-query.ts';
import { shown } from './need-to-know.ts';
import { fetchRecords, matchingValues, reach } from './read.ts';
import type { Row, ServerResource } from './server-resource.ts';

/** Records read per step of an export: one bounded page at a time, however many match. */
const EXPORT_BATCH = 1000;

/** Pure: one CSV field of a record. Times in ISO 8601 (UTC); objects as JSON; nothing as empty. */
export function exportCell(record: Row, path: string): string {
  const value = path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v && typeof v === 'object' ? Object.getOwnPropertyDescriptor(v, key)?.value : undefined),
      record,
    );
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A bound of the keyset walk: the last exported row's sort value (as text, exact) and id. */
interface Bound {
  value: string | null;
  id: number;
}

/**
 * Pure: the rows after `last` in the order `col dir, id dir` (or `id dir` without a column), which
 * PostgreSQL writes with NULLs last ascending and first descending. The value is compared in the
 * column's own type, cast from its text form, so a timestamp keeps its microseconds (a JavaScript
 * date would round them away and export a row twice).
 */
export function afterBound(
  col: PgColumn | null,
  idColumn: AnyPgColumn,
  dir: 'asc' | 'desc',
  last: Bound,
): SQL {
  if (!col) return dir === 'asc' ? sql`${idColumn} > ${last.id}` : sql`${idColumn} < ${last.id}`;
  const type = sql.raw(col.getSQLType());
  const value = sql`cast(${last.value} as ${type})`;
  if (dir === 'asc') {
    return last.value === null
      ? sql`(${col} is null and ${idColumn} > ${last.id})`
      : sql`(${col} > ${value} or (${col} = ${value} and ${idColumn} > ${last.id}) or ${col} is null)`;
  }
  return last.value === null
    ? sql`((${col} is null and ${idColumn} < ${last.id}) or ${col} is not null)`
    : sql`(${col} < ${value} or (${col} = ${value} and ${idColumn} < ${last.id}))`;
}

/** The column a list sorts by (null for creation order); `prepareList` has refused any other. */
function sortColumn(res: ServerResource, sortField: string): PgColumn | null {
  if (sortField === '_id') return null;
  const col = shapeColumn(res.shape, sortField);
  if (!is(col, PgColumn)) throw new Error(`${res.def.label}: cannot export in the order of ${sortField}`);
  return col;
}

/**
 * Every record the list's keyword and filters match, in the list's order, as CSV. Read in steps
 * of EXPORT_BATCH after the last row written (a keyset: never an offset, which would reread all
 * that came before), each step only when the client has taken the last, so memory stays bounded
 * however large the list.
 */
export async function exportRecords(res: ServerResource, ctx: SessionContext<unknown, ParsedListQuery>) {
  const { db } = ctx.services;
  const query = ctx.query;
  const matching = query.keyword ? await matchingValues(db, res, query.keyword) : undefined;
  // Refuses an unknown sort field before anything is sent.
  // Fields hidden from the caller are neither searched, sorted, filtered nor written out.
  const withoutDetails = !seesAllDetails(ctx.session, res.def);
  const { keyword, orderBy } = prepareList(res, query, { matching, withoutDetails });
  const scoped = reach(res, ctx.session, [res.def.permissions.view]).where;
  const filtered = filterCondition(res, res.def.filters, query.filters, withoutDetails);
  const where = and(keyword, filtered, scoped);
  const col = sortColumn(res, query.sortField);
  const shape = {
    ...res.shape,
    [EXPORT_ID]: res.idColumn,
    ...(col ? { [EXPORT_SORT]: sql<string | null>`${col}::text` } : {}),
  };
  const columns = res.def.exportColumns.filter((c) => !withoutDetails || !isDetailPath(res.def, c.path));
  async function* lines() {
    let last: Bound | undefined;
    for (;;) {
      const after = last && afterBound(col, res.idColumn, query.sortValue, last);
      const { records } = await fetchRecords(db, res, {
        shape,
        where: and(where, after),
        orderBy,
        limit: EXPORT_BATCH,
        present: false,
      });
      if (res.attach) await res.attach(db, records, { populate: true });
      for (const record of records) {
        const presented = shown(res, ctx.session, res.present ? res.present(record) : record);
        yield columns.map((c) => exportCell(presented, c.path));
      }
      const end = records.at(-1);
      if (records.length < EXPORT_BATCH || !end) return;
      const value = end[EXPORT_SORT];
      last = { id: Number(end[EXPORT_ID]), value: typeof value === 'string' ? value : null };
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  await ctx.reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${res.def.listSegment}-${day}.csv"`)
    .header('Cache-Control', 'no-store')
    .send(
      csvFile(
        columns.map((c) => c.label),
        lines(),
      ),
    );
  return undefined;
}

/** The id and the sort value ride along in the export's shape, for the next step's bound; no column is named so. */
const EXPORT_ID = '__exportId';
const EXPORT_SORT = '__exportSort';
