import type { ListFilterDef, ListQuery } from '@wfc/contract';
import { and, asc, desc, eq, getTableColumns, inArray, is, SQL, sql } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import { escapeLike } from '../db/like.ts';
import { ApiError } from '../http/envelope.ts';
import type { ServerResource, Shape, ShapeValue } from './server-resource.ts';

/** Resolves a dotted path ('country.name') in a shape to its column. */
export function shapeColumn(shape: Shape, path: string): ShapeValue | undefined {
  const [head = '', tail] = path.split('.', 2);
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
  orderBy: SQL[];
  keyword?: SQL;
  /** The keyword names columns of the listed table only, so counting needs no join. */
  keywordOnTable: boolean;
}

/**
 * `joined.col ILIKE p` for a path into a joined record, written as a condition on the listed
 * table's own reference column: `ref = any(array(select code from joined where col ilike p))`.
 * The small joined table is searched once, and the listed table can combine its trigram index
 * and its reference indexes (a BitmapOr) instead of joining every row before filtering.
 * Undefined when the path has no reference column of the same name on the listed table.
 */
function keywordThroughReference(res: ServerResource, path: string, pattern: string): SQL | undefined {
  const [head = '', tail] = path.split('.', 2);
  const group = res.shape[head];
  if (tail === undefined || !group || !isNested(group)) return undefined;
  const searched = group[tail];
  const own = getTableColumns(res.table);
  const key = Object.keys(group).find((k) => isCodeKey(k) && own[k]);
  const code = key ? group[key] : undefined;
  if (!key || !is(searched, PgColumn) || !is(code, PgColumn)) return undefined;
  if (searched.table !== code.table || code.table === res.table) return undefined;
  return sql`${own[key]} = any(array(select ${code} from ${code.table} where ${searched} ilike ${pattern}))`;
}

export interface PrepareOptions {
  /**
   * For each of the resource's `fewValues` paths, the stored values the keyword matches: the
   * path's condition becomes an equality on them (and nothing when there are none).
   */
  matching?: ReadonlyMap<string, readonly string[]>;
  /**
   * The selector view (codes and names only): the keyword and the sort reach the name alone, so
   * that nothing the caller may not see can be probed by filtering or ordering on it.
   */
  lookup?: boolean;
}

/** Turns a normalised list query into an order and a keyword filter; unknown sort fields are a 400. */
export function prepareList(res: ServerResource, query: ListQuery, opts: PrepareOptions = {}): PreparedList {
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
  let keywordOnTable = true;
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword)}%`;
    const parts = searchPaths.flatMap((p) => {
      const col = shapeColumn(res.shape, p);
      if (!col) throw new Error(`Unknown search path ${p}`);
      const values = opts.matching?.get(p);
      if (values) return values.length ? [inArray(col as PgColumn, [...values])] : [];
      if (is(col, PgColumn) && col.table === res.table) return sql`${col} ilike ${pattern}`;
      const through = keywordThroughReference(res, p, pattern);
      if (through) return through;
      keywordOnTable = false;
      return sql`${col} ilike ${pattern}`;
    });
    keyword = parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
  }
  return { orderBy, keyword, keywordOnTable };
}

export const tableColumnNames = (res: ServerResource) => new Set(Object.keys(getTableColumns(res.table)));

/** One filter's condition on its column. Dates are whole days in UTC. */
function filterClause(col: PgColumn, match: ListFilterDef['match'], value: string): SQL {
  if (match === 'contains') return sql`${col} ilike ${`%${escapeLike(value)}%`}`;
  if (match === 'equals') return eq(col, value);
  // `from` takes the day from its first instant, `to` up to its last.
  const day = match === 'from' ? sql`${value}::date` : sql`${value}::date + 1`;
  const bound = sql`(${day})::timestamp at time zone 'UTC'`;
  return match === 'from' ? sql`${col} >= ${bound}` : sql`${col} < ${bound}`;
}

/** The list's filters given a value, as one condition (undefined when none is given). */
export function filterCondition(
  res: ServerResource,
  filters: readonly ListFilterDef[],
  values: Readonly<Record<string, string>>,
): SQL | undefined {
  const given = new Map(Object.entries(values));
  const parts = filters.flatMap((f) => {
    const value = given.get(f.param);
    if (value === undefined || value === '') return [];
    const col = shapeColumn(res.shape, f.path);
    if (!is(col, PgColumn))
      throw new Error(`${res.def.label}: filter ${f.param} names no column (${f.path})`);
    return [filterClause(col, f.match, value)];
  });
  return parts.length ? and(...parts) : undefined;
}
