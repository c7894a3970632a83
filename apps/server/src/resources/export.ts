import {
  exportFormatQuery,
  type ImportFormat,
  isDetailPath,
  LIST_SEPARATOR,
  naturalKeyOf,
  type ParsedListQuery,
  RESOURCE_BY_KEY,
  type ResourceDef,
  seesAllDetails,
} from '@wfc/contract';
import { and, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { csvFile } from '../http/csv.ts';
import type { SessionContext } from '../http/routes.ts';
import { XLSX_TYPE, xlsxFile } from '../http/xlsx.ts';
import { filterCondition, prepareList, shapeColumn } from './list-query.ts';
import { shown } from './need-to-know.ts';
import { fetchRecords, matchingValues, reach } from './read.ts';
import type { Row, ServerResource } from './server-resource.ts';

/** Records read per step of an export: one bounded page at a time, however many match. */
const EXPORT_BATCH = 1000;

/**
 * Pure: one field of a record as a file writes it. Times in ISO 8601 (UTC); a list of references
 * (a role's permissions) as their names joined by `; `, as an import reads them back, when
 * `itemKey` names the field that names each; other objects as JSON; nothing as empty.
 */
export function exportCell(record: Row, path: string, itemKey?: string): string {
  const value = path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v && typeof v === 'object' ? Object.getOwnPropertyDescriptor(v, key)?.value : undefined),
      record,
    );
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && itemKey) {
    return value
      .map((item: unknown) =>
        item && typeof item === 'object' ? Object.getOwnPropertyDescriptor(item, itemKey)?.value : item,
      )
      .filter((name): name is string | number => typeof name === 'string' || typeof name === 'number')
      .map(String)
      .join(`${LIST_SEPARATOR} `);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Pure: for each column of `def` that holds a list of references (a role's `rolePermissions`),
 * the field of each item that names it as an import does: the target's natural key (a
 * permission's name), or else what the form shows of it.
 */
export function referenceListKeys(def: ResourceDef): Map<string, string> {
  const keys = new Map<string, string>();
  for (const field of def.formFields) {
    if (field.kind !== 'multiselect' || !field.source || !field.valuePath?.includes('[]')) continue;
    const [column = '', valueKey = ''] = field.valuePath.split('[].');
    const target = RESOURCE_BY_KEY[field.source];
    const natural = target.import ? naturalKeyOf(target) : undefined;
    const shownKey = field.labelPath?.split('[].')[1];
    // The natural key where the items carry it (a permission reference holds its name).
    const itemKey = natural && [shownKey, valueKey].includes(natural) ? natural : (shownKey ?? valueKey);
    if (column && itemKey) keys.set(column, itemKey);
  }
  return keys;
}

/**
 * The export route's query: the list's, and the file's format (CSV unless `format=xlsx`).
 * Validated as the list's own schema validates it, its refusals kept.
 */
export function exportQuerySchema<S extends z.ZodPipe<z.ZodObject, z.ZodType<ParsedListQuery>>>(
  listQuery: S,
) {
  return z.object({ ...listQuery.in.shape, format: exportFormatQuery }).transform((raw, ctx): ExportQuery => {
    const { format, ...list } = raw;
    const parsed = listQuery.safeParse(list);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return { ...parsed.data, format };
  });
}

export type ExportQuery = ParsedListQuery & { format?: ImportFormat };

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
 * Every record the list's keyword and filters match, in the list's order, as CSV or XLSX. Read in steps
 * of EXPORT_BATCH after the last row written (a keyset: never an offset, which would reread all
 * that came before), each step only when the client has taken the last, so memory stays bounded
 * however large the list.
 */
export async function exportRecords(res: ServerResource, ctx: SessionContext<unknown, ExportQuery>) {
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
  const listKeys = referenceListKeys(res.def);
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
        yield columns.map((c) => exportCell(presented, c.path, listKeys.get(c.path)));
      }
      const end = records.at(-1);
      if (records.length < EXPORT_BATCH || !end) return;
      const value = end[EXPORT_SORT];
      last = { id: Number(end[EXPORT_ID]), value: typeof value === 'string' ? value : null };
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  const headers = columns.map((c) => c.label);
  const xlsx = query.format === 'xlsx';
  await ctx.reply
    .header('Content-Type', xlsx ? XLSX_TYPE : 'text/csv; charset=utf-8')
    .header(
      'Content-Disposition',
      `attachment; filename="${res.def.listSegment}-${day}.${xlsx ? 'xlsx' : 'csv'}"`,
    )
    .header('Cache-Control', 'no-store')
    .send(xlsx ? xlsxFile(headers, lines(), { sheetName: res.def.plural }) : csvFile(headers, lines()));
  return undefined;
}

/** The id and the sort value ride along in the export's shape, for the next step's bound; no column is named so. */
const EXPORT_ID = '__exportId';
const EXPORT_SORT = '__exportSort';
