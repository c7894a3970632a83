import { HIDDEN_FILTER_MESSAGE, isDetailPath, type ListFilterDef, type ListQuery } from '@wfc/contract';
import { and, asc, desc, eq, getTableColumns, getTableName, inArray, is, SQL, sql } from 'drizzle-orm';
import { getTableConfig, IndexedColumn, PgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
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

/** One alternative of the keyword (its OR). */
export interface KeywordPart {
  condition: SQL;
  /** An equality on a column of few values (`fewValues`): countable from its btree index alone. */
  fewValues: boolean;
  /** A pattern match (ILIKE), which reads each candidate row to recheck it. */
  pattern: boolean;
  /** A name of a referenced record, reached through the reference column. */
  reference: boolean;
}

/**
 * A list's matches are counted (and, when few, listed) before its page is read when the keyword
 * reaches a referenced table or matches values of a few-values column, or when filters are given:
 * the total then comes from one index per alternative (a UNION) rather than from testing every
 * row against an OR, and a few matches are read by id rather than met by walking the sort order.
 * The planner would walk it when it expects matches to be common: it multiplies the estimates of
 * a filter and a keyword as if they were independent (a user who never did what the filters name),
 * and cannot estimate an alternative through a reference at all; for a keyword that matches
 * nothing, the walk reads the whole table. A keyword on the listed table's own columns alone
 * reads the page first: its plan is well estimated, and a partial page tells the total by itself
 * (one statement, not two).
 */
export const matchesFirst = (parts: readonly KeywordPart[] | undefined, filtered: boolean) =>
  filtered || (parts?.some((p) => p.reference || p.fewValues) ?? false);

export interface PreparedList {
  orderBy: SQL[];
  /** The keyword as one condition; `false` when nothing can match. */
  keyword?: SQL;
  /** The keyword's alternatives; empty when nothing can match, undefined without a keyword. */
  parts?: KeywordPart[];
  /** The keyword names columns of the listed table only, so counting needs no join. */
  keywordOnTable: boolean;
  /** A btree index of the listed table gives rows in the sort order, so a page can walk it. */
  sortWalks: boolean;
}

/**
 * Pure: a btree index of the table leads with this column of its own (or it is the id, the
 * primary key): a page in its order can be read by walking the index until it is full.
 */
export function indexedOrder(res: ServerResource, col: unknown): boolean {
  if (col === res.idColumn) return true;
  if (!is(col, PgColumn) || col.table !== res.table) return false;
  return getTableConfig(res.table).indexes.some((i) => {
    const [first] = i.config.columns;
    return (i.config.method ?? 'btree') === 'btree' && is(first, IndexedColumn) && first.name === col.name;
  });
}

/** A search path into a referenced record: the listed table's reference column, the code it holds, the name searched. */
export interface ReferencePath {
  path: string;
  own: PgColumn;
  code: PgColumn;
  name: PgColumn;
}

/**
 * Pure: the search path as a reference, when the listed table has a reference column of the same
 * name as the group's code (`state.name` through `cities.state_code`); undefined otherwise.
 */
export function referencePath(res: ServerResource, path: string): ReferencePath | undefined {
  const [head = '', tail] = path.split('.', 2);
  const group = res.shape[head];
  if (tail === undefined || !group || !isNested(group)) return undefined;
  const name = group[tail];
  const columns = getTableColumns(res.table);
  const key = Object.keys(group).find((k) => isCodeKey(k) && columns[k]);
  const code = key ? group[key] : undefined;
  const own = key ? columns[key] : undefined;
  if (!is(name, PgColumn) || !is(code, PgColumn) || !is(own, PgColumn)) return undefined;
  if (name.table !== code.table || code.table === res.table) return undefined;
  return { path, own, code, name };
}

/** Up to this many codes of referenced records a keyword matches are written into the statements. */
export const FEW_CODES = 200;

/**
 * One statement: for each reference, the codes of the referenced records whose name the pattern
 * matches, as `r0`, `r1`, ...; null where more than FEW_CODES match (read no further than that).
 */
export function referencedCodesStatement(refs: readonly ReferencePath[], pattern: string): SQL {
  const limit = sql.raw(String(FEW_CODES));
  const columns = refs.map(
    (r, i) =>
      sql`(select case when count(*) <= ${limit} then coalesce(array_agg(x.c), '{}') end from (select ${r.code} as c from ${r.code.table} where ${r.name} ilike ${pattern} limit ${sql.raw(String(FEW_CODES + 1))}) x) as ${sql.identifier(`r${i}`)}`,
  );
  return sql`select ${sql.join(columns, sql`, `)}`;
}

/**
 * `referenced.name ILIKE p` as a condition on the listed table's own reference column. With the
 * matching codes known (`codes`), an equality on those values: the planner then estimates it from
 * the column's statistics and uses the reference index when they are few, where an array it
 * cannot see (`= any(array(select ...))`, the previous formulation) made it scan the table. With
 * more codes than FEW_CODES, or none looked up, a semi-join.
 */
function keywordThroughReference(
  ref: ReferencePath,
  pattern: string,
  codes: readonly string[] | null | undefined,
): KeywordPart[] {
  const part = (condition: SQL) => [{ condition, fewValues: false, pattern: false, reference: true }];
  if (codes) return codes.length ? part(inArray(ref.own, [...codes])) : [];
  return part(
    sql`${ref.own} in (select ${ref.code} from ${ref.code.table} where ${ref.name} ilike ${pattern})`,
  );
}

export interface PrepareOptions {
  /**
   * For each of the resource's `fewValues` paths, the stored values the keyword matches: the
   * path's condition becomes an equality on them (and nothing when there are none).
   */
  matching?: ReadonlyMap<string, readonly string[]>;
  /**
   * For each reference path, the codes the keyword matches (`referencedCodesStatement`), or null
   * when there are too many to write out.
   */
  codes?: ReadonlyMap<string, readonly string[] | null>;
  /**
   * The selector view (codes and names only): the keyword and the sort reach the name alone, so
   * that nothing the caller may not see can be probed by filtering or ordering on it.
   */
  lookup?: boolean;
  /**
   * The caller does not see the module's detail fields (need-to-know): the keyword and the sort
   * leave them out, for the same reason.
   */
  withoutDetails?: boolean;
}

const own = (condition: SQL, fewValues: boolean): KeywordPart => ({
  condition,
  fewValues,
  pattern: !fewValues,
  reference: false,
});

/** Turns a normalised list query into an order and a keyword filter; unknown sort fields are a 400. */
export function prepareList(res: ServerResource, query: ListQuery, opts: PrepareOptions = {}): PreparedList {
  const open = (path: string) => !opts.withoutDetails || !isDetailPath(res.def, path);
  const sortFields = opts.lookup ? [res.def.nameField] : res.def.sortFields.filter(open);
  const searchPaths = opts.lookup ? [res.def.nameField] : res.search.filter(open);
  const dir = query.sortValue === 'asc' ? asc : desc;
  let orderBy: SQL[];
  let sortWalks = true;
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
    sortWalks = indexedOrder(res, col);
  }
  if (!query.keyword) return { orderBy, keywordOnTable: true, sortWalks };
  const pattern = `%${escapeLike(query.keyword)}%`;
  let keywordOnTable = true;
  const parts = searchPaths.flatMap((p): KeywordPart[] => {
    const col = shapeColumn(res.shape, p);
    if (!col) throw new Error(`Unknown search path ${p}`);
    const values = opts.matching?.get(p);
    if (values) return values.length ? [own(inArray(col as PgColumn, [...values]), true)] : [];
    if (is(col, PgColumn) && col.table === res.table) return [own(sql`${col} ilike ${pattern}`, false)];
    const ref = referencePath(res, p);
    if (ref) return keywordThroughReference(ref, pattern, opts.codes?.get(p));
    keywordOnTable = false;
    return [own(sql`${col} ilike ${pattern}`, false)];
  });
  const keyword = parts.length
    ? sql`(${sql.join(
        parts.map((p) => p.condition),
        sql` or `,
      )})`
    : sql`false`;
  return { orderBy, keyword, parts, keywordOnTable, sortWalks };
}

/** Up to this many matches, their ids come with the total and the page reads those rows alone. */
export const FEW_MATCHES = 500;

export interface MatchesInput {
  /** Everything but the keyword: the parent, flags and filters. */
  where?: SQL;
  /** The keyword's alternatives (undefined without a keyword). */
  parts?: readonly KeywordPart[];
  /** The filters match a pattern (a `contains` filter). */
  filterPattern: boolean;
}

/**
 * The statement that counts a list's matches (`n`) and, when every branch reads its rows anyway
 * (a pattern must be rechecked) and there are at most FEW_MATCHES, lists their ids (`ids`) from
 * the same pass. Every alternative of the keyword is its own branch, so each uses its own index;
 * a row matching two is counted once (UNION). Equalities on few values (an audit's action) are
 * counted apart, from their index alone, and the other branches count only rows they miss; a
 * count from an index alone gives no ids (reading them would read the rows).
 */
export function matchesStatement(res: ServerResource, input: MatchesInput): SQL {
  const { where, parts } = input;
  const few = parts?.filter((p) => p.fewValues) ?? [];
  const rest = parts?.filter((p) => !p.fewValues) ?? [];
  if (few.length === 0 && (input.filterPattern || rest.some((p) => p.pattern))) {
    const limit = sql.raw(String(FEW_MATCHES));
    return sql`select count(*)::int as n, case when count(*) <= ${limit} then array_agg(m.id) end as ids from (${matchingIds(res, input)}) m`;
  }
  const count = (condition: SQL | undefined) =>
    sql`(select count(*) from ${res.table} where ${and(where, condition) ?? sql`true`})`;
  if (parts === undefined) return sql`select ${count(undefined)}::int as n`;
  if (parts.length === 0) return sql`select 0 as n`;
  const fewCondition = sql`(${sql.join(
    few.map((p) => p.condition),
    sql` or `,
  )})`;
  const fewCount = few.length ? count(fewCondition) : sql`0`;
  const restCount = rest.length
    ? sql`(select count(*) from (${union(
        res,
        where,
        rest.map((p) => (few.length ? sql`${p.condition} and ${fewCondition} is not true` : p.condition)),
      )}) r)`
    : sql`0`;
  return sql`select (${fewCount} + ${restCount})::int as n`;
}

/** One `select id` per condition, each under `where`, as a UNION (a row matching two comes once). */
function union(res: ServerResource, where: SQL | undefined, conditions: readonly (SQL | undefined)[]): SQL {
  const branch = (condition?: SQL) =>
    sql`select ${res.idColumn} from ${res.table} where ${and(where, condition) ?? sql`true`}`;
  return conditions.length === 1 ? branch(conditions[0]) : sql.join(conditions.map(branch), sql` union `);
}

/** The ids of every match, each alternative of the keyword through its own index. */
function matchingIds(res: ServerResource, input: MatchesInput): SQL {
  const { where, parts } = input;
  return union(res, where, parts === undefined ? [undefined] : parts.map((p) => p.condition));
}

export interface PageInput extends MatchesInput {
  /** The keyword as one condition. */
  keyword?: SQL;
  sortWalks: boolean;
}

/**
 * The page's condition for many matches, once they are counted. They are either met by walking the
 * sort order's index (each row tested, and matches are then common enough to fill a page early), or,
 * when no index gives that order, read by id from the matches, each alternative through its own
 * index, and then sorted: scanning the table and testing every row would read all of it.
 */
export function pageWhere(res: ServerResource, input: PageInput): SQL | undefined {
  if (input.sortWalks) return and(input.where, input.keyword);
  return sql`${res.idColumn} = any(array(${matchingIds(res, input)}))`;
}

/**
 * The rows of a page of few matches as a subquery standing for the table under its own name: by
 * their ids when the count listed them, otherwise by their condition. Its LIMIT drops nothing (the
 * number of ids, or no bound at all) but keeps it a subquery of its own, so the planner finds the
 * rows first, through the condition's own indexes, and sorts them after: it cannot walk the sort
 * order's index in the hope of meeting them early, which it would estimate as if they were spread
 * evenly through the table (and conditions independent of each other), reading the whole table
 * for a combination that matches nothing.
 */
export function pageRows(res: ServerResource, rows: { ids: readonly number[] } | { where: SQL | undefined }) {
  const [where, limit] =
    'ids' in rows
      ? [inArray(res.idColumn, [...rows.ids]), rows.ids.length]
      : [rows.where, Number.MAX_SAFE_INTEGER];
  return new QueryBuilder().select().from(res.table).where(where).limit(limit).as(getTableName(res.table));
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

/** Some filter given a value matches a pattern (`contains`): its rows are read to recheck it. */
export const filtersMatchPattern = (
  filters: readonly ListFilterDef[],
  values: Readonly<Record<string, string>>,
) => filters.some((f) => f.match === 'contains' && Boolean(values[f.param]));

/**
 * A reference's code (`department.departmentCode`) is compared on the record's own reference
 * column: the count and page queries read the record's table alone, through its index.
 */
function ownReferenceColumn(res: ServerResource, path: string): PgColumn | undefined {
  const [head, leaf] = path.split('.', 2);
  if (!head || !leaf || !isCodeKey(leaf)) return undefined;
  return getTableColumns(res.table)[leaf];
}

/** The list's filters given a value, as one condition (undefined when none is given). */
export function filterCondition(
  res: ServerResource,
  filters: readonly ListFilterDef[],
  values: Readonly<Record<string, string>>,
  withoutDetails = false,
): SQL | undefined {
  const given = new Map(Object.entries(values));
  const parts = filters.flatMap((f) => {
    const value = given.get(f.param);
    if (value === undefined || value === '') return [];
    if (withoutDetails && isDetailPath(res.def, f.path)) {
      throw new ApiError(400, 'Invalid input', [{ field: f.param, message: HIDDEN_FILTER_MESSAGE }]);
    }
    const col = ownReferenceColumn(res, f.path) ?? shapeColumn(res.shape, f.path);
    if (!is(col, PgColumn))
      throw new Error(`${res.def.label}: filter ${f.param} names no column (${f.path})`);
    return [filterClause(col, f.match, value)];
  });
  return parts.length ? and(...parts) : undefined;
}
