import { type ListQuery, normaliseListQuery } from '@wfc/contract';
import { asc, desc, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import { ApiError } from '../http/envelope.ts';
import type { ServerResource, Shape, ShapeValue } from './server-resource.ts';

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Resolves a dotted path ('country.name') in a shape to its column. */
export function shapeColumn(shape: Shape, path: string): ShapeValue | undefined {
  const [head, tail] = path.split('.', 2);
  const v = shape[head];
  if (!v) return undefined;
  if (tail === undefined) return isNested(v) ? undefined : v;
  return isNested(v) ? v[tail] : undefined;
}

export function isNested(v: Shape[string]): v is Record<string, ShapeValue> {
  return !is(v, PgColumn) && !is(v, SQL.Aliased) && !is(v, SQL);
}

const isCodeKey = (key: string) => key.endsWith('Code');

/**
 * `populate=false`: references are given as their codes only. A nested group without a code (a
 * profile's picture) is no reference and stays whole.
 */
export function unpopulated(shape: Shape): Shape {
  const out: Shape = {};
  for (const [k, v] of Object.entries(shape)) {
    out[k] =
      isNested(v) && Object.keys(v).some(isCodeKey)
        ? Object.fromEntries(Object.entries(v).filter(([key]) => isCodeKey(key)))
        : v;
  }
  return out;
}

export function lookupShape(res: ServerResource): Shape {
  const name = shapeColumn(res.shape, res.def.nameField);
  return { [res.def.code]: res.codeColumn, ...(name ? { [res.def.nameField]: name } : {}) };
}

export interface PreparedList {
  query: ListQuery;
  orderBy: SQL[];
  keyword?: SQL;
}

export interface PrepareOptions {
  defaults?: Partial<ListQuery>;
  /**
   * The selector view (codes and names only): the keyword and the sort reach the name alone, so
   * that nothing the caller may not see can be probed by filtering or ordering on it.
   */
  lookup?: boolean;
}

/** Turns raw query parameters into an order and a keyword filter; unknown sort fields are a 400. */
export function prepareList(
  res: ServerResource,
  raw: Record<string, unknown>,
  opts: PrepareOptions = {},
): PreparedList {
  const query = normaliseListQuery(raw, opts.defaults);
  const sortFields = opts.lookup ? [res.def.nameField] : res.def.sortFields;
  const searchPaths = opts.lookup ? [res.def.nameField] : res.search;
  const dir = query.sortValue === 'asc' ? asc : desc;
  let orderBy: SQL[];
  if (query.sortField === '_id') {
    orderBy = [dir(res.idColumn)];
  } else {
    const col = sortFields.includes(query.sortField) ? shapeColumn(res.shape, query.sortField) : undefined;
    if (!col) {
      throw new ApiError(400, 'Invalid input', [
        { field: 'sortField', message: `Cannot sort by '${query.sortField.slice(0, 50)}'` },
      ]);
    }
    // The id breaks ties so that pages never overlap or skip rows.
    orderBy = [dir(col as PgColumn), dir(res.idColumn)];
  }
  let keyword: SQL | undefined;
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword)}%`;
    const parts = searchPaths.map((p) => {
      const col = shapeColumn(res.shape, p);
      if (!col) throw new Error(`Unknown search path ${p}`);
      return sql`${col} ilike ${pattern}`;
    });
    keyword = sql`(${sql.join(parts, sql` or `)})`;
  }
  return { query, orderBy, keyword };
}

export const tableColumnNames = (res: ServerResource) => new Set(Object.keys(getTableColumns(res.table)));
