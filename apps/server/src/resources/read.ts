import { type ParsedListQuery, seesAllDetails } from '@wfc/contract';
import { and, count, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type ScopedCaller, scopeCondition, widestScope } from '../auth/scopes.ts';
import type { Executor } from '../db/client.ts';
import { escapeLike } from '../db/like.ts';
import type { CacheKey, QueryCache } from '../db/query-cache.ts';
import { firstRow, rowsOf } from '../db/rows.ts';
import type { SessionContext } from '../http/routes.ts';
import {
  FEW_MATCHES,
  filterCondition,
  filtersMatchPattern,
  isNested,
  lookupShape,
  type MatchesInput,
  matchesFirst,
  matchesStatement,
  pageRows,
  pageWhere,
  prepareList,
  type ReferencePath,
  referencedCodesStatement,
  referencePath,
  shapeColumn,
  unpopulated,
} from './list-query.ts';
import type { ParentFilter, Row, ServerResource, Shape } from './server-resource.ts';

const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * Dates leave as ISO strings; a joined reference whose fields are all null (an empty left join)
 * becomes null. Only the shape's nested groups are touched: JSON columns (an audit's before and
 * after) are returned exactly as stored.
 */
export function toRecord(row: Row, shape: Shape): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    const column = shape[k];
    if (column && isNested(column) && v && typeof v === 'object') {
      const nested = Object.fromEntries(Object.entries(v).map(([nk, nv]) => [nk, plain(nv)]));
      out[k] = Object.values(nested).every((x) => x === null) ? null : nested;
    } else out[k] = plain(v);
  }
  return out;
}

interface FetchOptions {
  shape?: Shape;
  where?: SQL;
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
  /** false for the lookup view, whose two fields need no reshaping. */
  present?: boolean;
  /** The listed rows, when not the whole table: a subquery named as the table (`pageRows`). */
  rows?: ReturnType<typeof pageRows>;
}

/** A page of records. */
export async function fetchRecords(db: Executor, res: ServerResource, opts: FetchOptions) {
  const shape = opts.shape ?? res.shape;
  let q = db
    .select(shape)
    .from(opts.rows ?? res.table)
    .$dynamic();
  for (const j of res.joins) q = j.optional ? q.leftJoin(j.table, j.on) : q.innerJoin(j.table, j.on);
  if (opts.where) q = q.where(opts.where);
  if (opts.orderBy) q = q.orderBy(...opts.orderBy);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset) q = q.offset(opts.offset);
  const rows = (await q) as Row[];
  const records = rows.map((r) => {
    const record = toRecord(r, shape);
    return res.present && opts.present !== false ? res.present(record) : record;
  });
  return { records };
}

/** One record by code, or undefined; `scoped` narrows it to what the caller reaches. */
export async function fetchOne(db: Executor, res: ServerResource, code: string, scoped?: SQL) {
  const { records } = await fetchRecords(db, res, { where: and(eq(res.codeColumn, code), scoped), limit: 1 });
  if (records[0] && res.attach) await res.attach(db, records, { populate: true });
  return records[0];
}

/** Every table a list of `res` may read: a cached page or total is reused while none changes. */
function listTables(res: ServerResource, filter?: ParentFilter): string[] {
  const tables: PgTable[] = [res.table, ...res.joins.map((j) => j.table), ...(res.reads ?? [])];
  const names = [...tables, ...(filter?.reads ?? [])].map((t) => getTableName(t));
  // A scoped caller's lists read the scope's tables too; a cached page of anyone's may as well
  // depend on them, since they change rarely.
  return [...new Set([...names, ...(res.scope?.reads ?? [])])];
}

/** Definitions never change, so each list's tables are worked out once (every request asks). */
const tablesOfList = new WeakMap<ServerResource | ParentFilter, string[]>();
function cachedListTables(res: ServerResource, filter?: ParentFilter): string[] {
  const key = filter ?? res;
  let tables = tablesOfList.get(key);
  if (!tables) {
    tables = listTables(res, filter);
    tablesOfList.set(key, tables);
  }
  return tables;
}

/**
 * How many records match. Required references are foreign keys, so their inner joins never drop
 * a row: when the filter names the listed table only, the count reads that table alone.
 */
async function countTotal(db: Executor, res: ServerResource, where: SQL | undefined, withJoins: boolean) {
  let q = db.select({ n: count() }).from(res.table).$dynamic();
  if (withJoins) {
    for (const j of res.joins) q = j.optional ? q.leftJoin(j.table, j.on) : q.innerJoin(j.table, j.on);
  }
  if (where) q = q.where(where);
  const [r] = await q;
  return Number(r?.n ?? 0);
}

/** A keyword's or filter's matches: how many, and their ids when they are few (FEW_MATCHES). */
interface Matches {
  total: number;
  ids?: number[];
}

async function countMatches(db: Executor, res: ServerResource, input: MatchesInput): Promise<Matches> {
  const row = await firstRow<{ n: number | string; ids: readonly (number | string)[] | null }>(
    db,
    matchesStatement(res, input),
  );
  const total = Number(row?.n ?? 0);
  return row?.ids ? { total, ids: row.ids.map(Number) } : { total };
}

/** What every resource's reference search paths are, worked out once (every keyword asks). */
const referencesOfSearch = new WeakMap<ServerResource, ReferencePath[]>();

/**
 * For each search path through a reference, the codes of the referenced records the keyword
 * matches (null when more than FEW_CODES): one statement, on the small referenced tables' trigram
 * indexes, before the list's own. Undefined when the list searches no reference.
 */
export async function referencedCodes(db: Executor, res: ServerResource, keyword: string) {
  let refs = referencesOfSearch.get(res);
  if (!refs) {
    refs = res.search.flatMap((p) => referencePath(res, p) ?? []);
    referencesOfSearch.set(res, refs);
  }
  if (refs.length === 0) return undefined;
  const row =
    (await firstRow<Record<string, readonly string[] | null>>(
      db,
      referencedCodesStatement(refs, `%${escapeLike(keyword)}%`),
    )) ?? {};
  return new Map(refs.map((r, i) => [r.path, row[`r${i}`] ?? null]));
}

/**
 * The stored values of each `fewValues` column that the keyword matches. A recursive skip scan
 * of the column's btree index finds its distinct values in one probe each.
 */
export async function matchingValues(db: Executor, res: ServerResource, keyword: string) {
  const matching = new Map<string, string[]>();
  for (const path of res.fewValues ?? []) {
    const col = shapeColumn(res.shape, path) as PgColumn;
    const rows = await rowsOf<{ value: string }>(
      db,
      sql`
      with recursive v(value) as (
        select min(${col}) from ${res.table}
        union all
        select (select min(${col}) from ${res.table} where ${col} > v.value) from v where v.value is not null
      )
      select value from v where value ilike ${`%${escapeLike(keyword)}%`}`,
    );
    matching.set(
      path,
      rows.map((r) => r.value),
    );
  }
  return matching;
}

/**
 * The flags a list request turned on, their condition for this caller, and what names them in
 * cache keys: the caller's permissions, since two callers holding different ones see different
 * pages.
 */
function listFlags(res: ServerResource, on: ReadonlySet<string>, caller: ScopedCaller) {
  const flags = (res.listFlags ?? []).filter((f) => on.has(f.param));
  if (!flags.length) return { key: '', where: undefined };
  const held = caller.permissions;
  const scoped = [...caller.scopes].map(([name, scope]) => `${name}:${scope}`);
  const key = `${flags.map((f) => f.param).join(',')}:${[...held, ...scoped].sort().join(',')}`;
  return { key, where: and(...flags.map((f) => f.where(held, caller.scopes))) };
}

/**
 * What a caller reaches of a module through `permissions` (the widest of those they hold): the
 * condition on its records, and what names it in cache keys (null for all records, else the
 * scope and the caller, whose team or own records they are).
 */
export function reach(
  res: ServerResource,
  caller: ScopedCaller,
  permissions: readonly (string | undefined)[],
) {
  const scope = widestScope(
    caller,
    permissions.flatMap((p) => p ?? []),
  );
  return {
    scope,
    where: scopeCondition(res.scope, scope, caller.userCode),
    key: scope === 'all' ? null : `${scope}:${caller.userCode}`,
  };
}

interface ListFilter {
  where: SQL;
  /** Names the filter in cache keys: the sub-list and its parent's code. */
  key: { endpoint: string; code: string };
  sub: ParentFilter;
}

/** The first part of the cache keys of a list's kept reads: its pages, matches and totals. */
export const LIST_READS: ReadonlySet<string> = new Set(['list', 'matches', 'count']);

/**
 * List, with paging, sort, keyword, an optional parent filter and the lookup view for selectors.
 * A page is computed once and reused until a table it reads changes (`services.cache`).
 */
export async function listRecords(
  res: ServerResource,
  ctx: SessionContext<unknown, ParsedListQuery>,
  filter?: ListFilter,
) {
  const fullView = ctx.session.permissions.has(res.def.permissions.view);
  const { flags: on, ...asked } = ctx.query;
  const flags = listFlags(res, on, ctx.session);
  // A selector's view (names only, granted by a form's permissions) reaches every record; the
  // full view only what the caller's VIEW permission reaches (docs/product.md section 6).
  const scoped = fullView
    ? reach(res, ctx.session, [res.def.permissions.view])
    : { where: undefined, key: null };
  // Without the detail fields, the keyword and the sort reach fewer fields: a page of its own.
  const withoutDetails = !seesAllDetails(ctx.session, res.def);
  const request: PageRequest = {
    res,
    db: ctx.services.db,
    cache: ctx.services.cache,
    tables: cachedListTables(res, filter?.sub),
    // What is listed, for whom and how filtered: a page's key adds the query, a total's the keyword.
    scope: [
      res.def.key,
      fullView ? 'full' : 'lookup',
      filter?.key ?? null,
      flags.key || null,
      scoped.key,
      withoutDetails ? 'without-details' : null,
    ],
    fullView,
    withoutDetails,
    parentWhere: and(filter?.where, scoped.where),
    flagsWhere: flags.where,
  };
  const page = await request.cache.get(['list', ...request.scope, asked], request.tables, () =>
    readPage(request, asked),
  );
  return { message: res.def.messages.listed, data: page.records, total: page.total };
}

/** A list request as its page is read: what is listed, for whom, and where its reads are kept. */
interface PageRequest {
  res: ServerResource;
  db: Executor;
  cache: QueryCache;
  /** Every table the list reads: its kept reads are reused while none changes. */
  tables: string[];
  /** The start of the cache keys of its kept reads. */
  scope: CacheKey;
  /** Whether the caller may VIEW the module; without it, the lookup view. */
  fullView: boolean;
  /** The caller does not see the module's detail fields: they neither search nor sort. */
  withoutDetails: boolean;
  parentWhere: SQL | undefined;
  flagsWhere: SQL | undefined;
}

/** One page of the list and the total of its matches, read from the database. */
async function readPage(request: PageRequest, query: Omit<ParsedListQuery, 'flags'>) {
  const { res, db, cache, tables, fullView } = request;
  const lookup = !fullView;
  const matching = query.keyword && !lookup ? await matchingValues(db, res, query.keyword) : undefined;
  const codes = query.keyword && !lookup ? await referencedCodes(db, res, query.keyword) : undefined;
  // Without VIEW, a form's selector may still read codes and names (docs/product.md section 3).
  const { orderBy, keyword, parts, keywordOnTable, sortWalks } = prepareList(res, query, {
    lookup,
    matching,
    codes,
    withoutDetails: request.withoutDetails,
  });
  const shape = lookup ? lookupShape(res) : query.populate ? res.shape : unpopulated(res.shape);
  // The selector view reaches names alone: its filters could probe fields it may not read.
  const filtered = lookup
    ? undefined
    : filterCondition(res, res.def.filters, query.filters, request.withoutDetails);
  const offset = (query.page - 1) * query.limit;
  const read = async (where: SQL | undefined, rows?: ReturnType<typeof pageRows>) => {
    const { records } = await fetchRecords(db, res, {
      shape,
      where,
      rows,
      orderBy,
      limit: query.limit,
      offset,
      present: fullView,
    });
    if (fullView && res.attach) await res.attach(db, records, { populate: query.populate });
    return records;
  };
  const scoped = and(request.parentWhere, request.flagsWhere, filtered);
  const countKey = [...request.scope, query.keyword, query.filters];
  if (matchesFirst(parts, filtered !== undefined) && keywordOnTable) {
    // The matches first (see `matchesFirst`). Their total is exact whichever page is asked, and
    // when they are few the page reads just those rows by id, instead of walking the sort order
    // in the hope of meeting them (the whole table, for a keyword that matches nothing).
    const input = {
      where: scoped,
      parts,
      filterPattern: !lookup && filtersMatchPattern(res.def.filters, query.filters),
      keyword,
      sortWalks,
    };
    const matches = await cache.get(['matches', ...countKey], tables, () => countMatches(db, res, input));
    if (matches.total <= offset) return { records: [], total: matches.total };
    const records = matches.ids
      ? await read(undefined, pageRows(res, { ids: matches.ids }))
      : matches.total <= FEW_MATCHES
        ? await read(undefined, pageRows(res, { where: and(scoped, keyword) }))
        : await read(pageWhere(res, input));
    return { records, total: matches.total };
  }
  const where = and(scoped, keyword);
  const records = await read(where);
  // A window count would make the page wait for every match to be read and joined; a partial
  // page tells the total by itself, and only a full or empty one needs counting. Paging through
  // one filter then counts it once: the total is cached under the filter alone.
  const total =
    records.length > 0 && records.length < query.limit
      ? offset + records.length
      : records.length === 0 && offset === 0
        ? 0
        : await cache.get(['count', ...countKey], tables, () => countTotal(db, res, where, !keywordOnTable));
  return { records, total };
}
