import type { ParsedListQuery } from '@wfc/contract';
import { and, desc, sql } from 'drizzle-orm';
import { csvFile } from '../http/csv.ts';
import type { SessionContext } from '../http/routes.ts';
import { filterCondition, prepareList } from './list-query.ts';
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

/**
 * Every record the list's keyword and filters match, newest first, as CSV. Read in steps of
 * EXPORT_BATCH by id (never an offset, which would reread all that came before), each step only
 * when the client has taken the last, so memory stays bounded however large the log.
 */
export async function exportRecords(res: ServerResource, ctx: SessionContext<unknown, ParsedListQuery>) {
  const { db } = ctx.services;
  const query = ctx.query;
  const matching = query.keyword ? await matchingValues(db, res, query.keyword) : undefined;
  const { keyword } = prepareList(res, { ...query, sortField: '_id' }, { matching });
  const scoped = reach(res, ctx.session, [res.def.permissions.view]).where;
  const where = and(keyword, filterCondition(res, res.def.filters, query.filters), scoped);
  const shape = { ...res.shape, [EXPORT_ID]: res.idColumn };
  const columns = res.def.exportColumns;
  async function* lines() {
    let after: number | undefined;
    for (;;) {
      const { records } = await fetchRecords(db, res, {
        shape,
        where: and(where, after === undefined ? undefined : sql`${res.idColumn} < ${after}`),
        orderBy: [desc(res.idColumn)],
        limit: EXPORT_BATCH,
        present: false,
      });
      for (const record of records) yield columns.map((c) => exportCell(record, c.path));
      if (records.length < EXPORT_BATCH) return;
      after = Number(records.at(-1)?.[EXPORT_ID]);
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

/** The id rides along in the export's shape, for the next step's bound; no column is named so. */
const EXPORT_ID = '__exportId';
