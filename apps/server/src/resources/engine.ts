import {
  codeRef,
  listQuerySchema,
  lookupPermissions,
  lookupSchema,
  type ParsedListQuery,
  RESOURCE_BY_KEY,
  type ResourceKey,
  recordVersion,
  withArticle,
} from '@wfc/contract';
import { and, count, desc, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { lastChanges } from '../audit/history.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { escapeLike } from '../db/like.ts';
import { exists, firstRow, rowsOf } from '../db/rows.ts';
import { csvFile } from '../http/csv.ts';
import { badRequest, conflict, notFound, staleWrite } from '../http/envelope.ts';
import { registerUniqueMessage } from '../http/errors.ts';
import { type ApiRoute, anyOf, defineRoute, type SessionContext } from '../http/routes.ts';
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
  tableColumnNames,
  unpopulated,
} from './list-query.ts';
import type {
  AnyResourceDef,
  Dependent,
  InputOf,
  ParentFilter,
  Row,
  ServerResource,
  Shape,
  WriteContext,
} from './server-resource.ts';

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

export async function fetchOne(db: Executor, res: ServerResource, code: string) {
  const { records } = await fetchRecords(db, res, { where: eq(res.codeColumn, code), limit: 1 });
  if (records[0] && res.attach) await res.attach(db, records, { populate: true });
  return records[0];
}

/**
 * The record as it stands, locked until the transaction ends: a concurrent change waits, so the
 * audit's `before` is what this change really replaced, and a delete's reference check cannot be
 * overtaken by a new reference.
 */
async function lockedRecord(tx: Executor, res: ServerResource, code: string) {
  const [row] = await tx
    .select({ id: res.idColumn })
    .from(res.table)
    .where(eq(res.codeColumn, code))
    .for('update');
  return row ? fetchOne(tx, res, code) : undefined;
}

/** Every table a list of `res` may read: a cached page or total is reused while none changes. */
function listTables(res: ServerResource, filter?: ParentFilter): string[] {
  const tables: PgTable[] = [res.table, ...res.joins.map((j) => j.table), ...(res.reads ?? [])];
  return [...new Set([...tables, ...(filter?.reads ?? [])].map((t) => getTableName(t)))];
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
function listFlags(res: ServerResource, on: ReadonlySet<string>, held: ReadonlySet<string>) {
  const flags = (res.listFlags ?? []).filter((f) => on.has(f.param));
  if (!flags.length) return { key: '', where: undefined };
  const key = `${flags.map((f) => f.param).join(',')}:${[...held].sort().join(',')}`;
  return { key, where: and(...flags.map((f) => f.where(held))) };
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
  const flags = listFlags(res, on, ctx.session.permissions);
  // What is listed, for whom and how filtered: a page's key adds the query, a total's the keyword.
  const scope = [res.def.key, fullView ? 'full' : 'lookup', filter?.key ?? null, flags.key || null];
  const tables = cachedListTables(res, filter?.sub);
  const db = ctx.services.db;
  const cache = ctx.services.cache;
  const page = await cache.get(['list', ...scope, asked], tables, async () => {
    const lookup = !fullView;
    const query = asked;
    const matching = query.keyword && !lookup ? await matchingValues(db, res, query.keyword) : undefined;
    const codes = query.keyword && !lookup ? await referencedCodes(db, res, query.keyword) : undefined;
    // Without VIEW, a form's selector may still read codes and names (docs/product.md section 3).
    const { orderBy, keyword, parts, keywordOnTable, sortWalks } = prepareList(res, query, {
      lookup,
      matching,
      codes,
    });
    const shape = lookup ? lookupShape(res) : query.populate ? res.shape : unpopulated(res.shape);
    // The selector view reaches names alone: its filters could probe fields it may not read.
    const filtered = lookup ? undefined : filterCondition(res, res.def.filters, query.filters);
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
    const scoped = and(filter?.where, flags.where, filtered);
    const countKey = [...scope, query.keyword, query.filters];
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
          : await cache.get(['count', ...countKey], tables, () =>
              countTotal(db, res, where, !keywordOnTable),
            );
    return { records, total };
  });
  return { message: res.def.messages.listed, data: page.records, total: page.total };
}

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
async function exportRecords(res: ServerResource, ctx: SessionContext<unknown, ParsedListQuery>) {
  const { db } = ctx.services;
  const query = ctx.query;
  const matching = query.keyword ? await matchingValues(db, res, query.keyword) : undefined;
  const { keyword } = prepareList(res, { ...query, sortField: '_id' }, { matching });
  const where = and(keyword, filterCondition(res, res.def.filters, query.filters));
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

async function checkRefs(res: ServerResource, tx: Executor, input: object) {
  const errors: { field: string; message: string }[] = [];
  const fields = new Map(Object.entries(input));
  for (const ref of res.refs) {
    const value = fields.get(ref.field);
    if (typeof value !== 'string' || value === '') continue;
    const found = await exists(tx, sql`select from ${ref.column.table} where ${eq(ref.column, value)}`);
    if (!found) errors.push({ field: ref.field, message: `${ref.label} not found` });
  }
  if (errors.length) throw badRequest('Invalid input', errors);
}

function defaultRow(res: ServerResource, input: object): Row {
  const cols = tableColumnNames(res);
  return Object.fromEntries(
    Object.entries(input).filter(([k]) => cols.has(k) && k !== res.def.code && k !== 'version'),
  );
}

/** A browser sends an empty file part when no file was chosen: that is no file. */
const uploadOf = (ctx: SessionContext) => ctx.files?.find((f) => f.data.length > 0);

function writeContext(ctx: SessionContext, tx: Executor, prepared?: unknown): WriteContext {
  return {
    tx,
    services: ctx.services,
    actor: ctx.actor,
    permissions: ctx.session.permissions,
    sessionIdHash: ctx.session.idHash,
    upload: uploadOf(ctx),
    prepared,
  };
}

/** The code a body names; its schema made it a required string. */
function codeIn(res: ServerResource, body: object): string {
  const code = new Map(Object.entries(body)).get(res.def.code);
  if (typeof code !== 'string') throw new Error(`${res.def.label}: the body has no ${res.def.code}`);
  return code;
}

/** 'N noun' for each kind of record that still refers to `code`; empty when nothing does. */
export async function referencesTo(tx: Executor, dependents: readonly Dependent[], code: string) {
  const found: string[] = [];
  for (const dep of dependents) {
    const [r] = await tx.select({ n: count() }).from(dep.column.table).where(eq(dep.column, code));
    const n = Number(r?.n ?? 0);
    if (n > 0) found.push(`${n} ${n === 1 ? dep.one : dep.many}`);
  }
  return found;
}

/**
 * The refusal of a write based on a version that is no longer current: who changed or deleted the
 * record, and when (its latest audit entry), with the record as it now stands (null if deleted).
 */
async function staleVersion(tx: Executor, res: ServerResource, code: string, current: Row | undefined) {
  const last = (await lastChanges(tx, res.def.listSegment, [code])).get(code);
  const what = current ? 'changed' : 'deleted';
  const who = last?.username ?? 'another user';
  const when = last ? ` at ${last.at} UTC` : '';
  return staleWrite(
    `This ${res.def.label.toLowerCase()} was ${what} by ${who}${when} since you opened it`,
    current ?? null,
  );
}

/**
 * The record a write is based on, locked. One that no longer exists is a 404, or stale (with no
 * record) when the caller named the version it read.
 */
async function existingRecord(tx: Executor, res: ServerResource, code: string, version: number | undefined) {
  const before = await lockedRecord(tx, res, code);
  if (before) return before;
  throw version === undefined
    ? notFound(res.def.messages.notFound)
    : await staleVersion(tx, res, code, before);
}

/**
 * Refuses a write based on a version that is not the current one; without a version the write is
 * not checked. Only after `authorize` has let the caller through: the refusal carries the record.
 */
async function assertCurrent(
  tx: Executor,
  res: ServerResource,
  code: string,
  before: Row,
  version: number | undefined,
) {
  if (version !== undefined && before.version !== version) throw await staleVersion(tx, res, code, before);
}

async function createRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D>>,
) {
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'create');
  return ctx.services.db.transaction(async (tx) => {
    const wctx = writeContext(ctx, tx, prepared);
    await res.authorize?.(ctx.body, wctx);
    await checkRefs(res, tx, ctx.body);
    await res.validate?.(ctx.body, wctx);
    const code = newCode(res.def.prefix);
    const row = res.toRow ? await res.toRow(ctx.body, wctx) : defaultRow(res, ctx.body);
    await tx.insert(res.table).values({ ...row, [res.def.code]: code });
    await res.afterWrite?.(code, ctx.body, wctx);
    const after = await fetchOne(tx, res, code);
    await recordAudit(tx, {
      action: 'CREATE',
      collection: res.def.listSegment,
      recordCode: code,
      after,
      actor: ctx.actor,
    });
    return { message: res.def.messages.created, data: after };
  });
}

async function updateRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D> & Versioned>,
) {
  const code = codeIn(res, ctx.body);
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'update');
  return ctx.services.db.transaction(async (tx) => {
    const asked: Versioned = ctx.body;
    const before = await existingRecord(tx, res, code, asked.version);
    const wctx = writeContext(ctx, tx, prepared);
    await res.authorize?.(ctx.body, wctx, before);
    await assertCurrent(tx, res, code, before, asked.version);
    await checkRefs(res, tx, ctx.body);
    await res.validate?.(ctx.body, wctx, before);
    const row = res.toRow ? await res.toRow(ctx.body, wctx, before) : defaultRow(res, ctx.body);
    // Every update makes a new version, even one that changes only related rows (a role's permissions).
    const set = res.versionColumn
      ? { ...row, updatedAt: new Date(), version: sql`${res.versionColumn} + 1` }
      : row;
    if (Object.keys(set).length) await tx.update(res.table).set(set).where(eq(res.codeColumn, code));
    await res.afterWrite?.(code, ctx.body, wctx, before);
    const after = await fetchOne(tx, res, code);
    const notes = res.auditNotes?.(ctx.body);
    await recordAudit(tx, {
      action: 'UPDATE',
      collection: res.def.listSegment,
      recordCode: code,
      before,
      after: notes ? { ...after, ...notes } : after,
      actor: ctx.actor,
    });
    return { message: res.def.messages.updated, data: after };
  });
}

async function deleteRecord(res: ServerResource, ctx: SessionContext<{ code: string } & Versioned>) {
  const { code, version } = ctx.body;
  return ctx.services.db.transaction(async (tx) => {
    const before = await existingRecord(tx, res, code, version);
    const wctx = writeContext(ctx, tx);
    await res.authorize?.(undefined, wctx, before);
    await assertCurrent(tx, res, code, before, version);
    const blockers = await referencesTo(tx, res.dependents ?? [], code);
    if (blockers.length) {
      throw conflict(
        `Cannot delete this ${res.def.label.toLowerCase()}: it is still used by ${blockers.join(', ')}`,
      );
    }
    await res.beforeDelete?.(before, wctx);
    await tx.delete(res.table).where(eq(res.codeColumn, code));
    await recordAudit(tx, {
      action: 'DELETE',
      collection: res.def.listSegment,
      recordCode: code,
      before,
      actor: ctx.actor,
    });
    return { message: res.def.messages.deleted, data: before };
  });
}

/** A body that names one record by a code: the handler is given the code itself. */
const codeBody = (param: string) =>
  z.object({ [param]: codeRef(param) }).transform((body) => String(body[param]));

/** What an update or delete may add: the version of the record as the caller read it. */
interface Versioned {
  version?: number;
}
const versionBody = z.object({ version: recordVersion });

/** A delete's body: the record's code and, optionally, the version it was read at. */
function deleteBody(param: string) {
  const shape: Record<string, z.ZodType> = { [param]: codeRef(param), version: recordVersion };
  // The schema has checked both: the code is a string, the version a number or absent.
  return z.object(shape).transform((body): { code: string } & Versioned => ({
    code: String(body[param]),
    version: body.version === undefined ? undefined : Number(body.version),
  }));
}

/** The parent a sub-list route names, as its own definition stores it. */
function parentOf(list: ParentFilter, registry: ReadonlyMap<ResourceKey, ServerResource>) {
  const parent = registry.get(list.parent);
  if (!parent) throw new Error(`${list.endpoint}: no server definition of ${list.parent}`);
  return { column: parent.codeColumn, notFound: RESOURCE_BY_KEY[list.parent].messages.notFound };
}

/** Every route one resource definition implies; `registry` finds the parents of its sub-lists. */
export function resourceRoutes<D extends AnyResourceDef>(
  res: ServerResource<D>,
  registry: ReadonlyMap<ResourceKey, ServerResource>,
): ApiRoute[] {
  const { def } = res;
  for (const u of res.unique ?? []) registerUniqueMessage(u.constraint, u.field, u.message);
  const tag = def.plural;
  const lookups = lookupPermissions(def.key);
  const listAccess = anyOf(def.permissions.view, ...lookups);
  const lookup = lookups.length ? lookupSchema(def.code, def.nameField) : undefined;
  const listQuery = listQuerySchema({ flags: res.listFlags?.map((f) => f.param), filters: def.filters });
  const routes: ApiRoute[] = [
    defineRoute({
      method: 'GET',
      path: def.endpoints.list,
      summary: `List ${def.plural.toLowerCase()} (paged, sorted, filtered by keyword${
        def.filters.length ? ` and by ${def.filters.map((f) => f.param).join(', ')}` : ''
      })`,
      tag,
      access: listAccess,
      query: listQuery,
      response: def.recordSchema,
      listed: true,
      lookup,
      sortFields: def.sortFields,
      handler: (ctx) => listRecords(res, ctx),
    }),
    defineRoute({
      method: 'POST',
      path: def.endpoints.get,
      summary: `One ${def.label.toLowerCase()} by ${def.code}`,
      tag,
      // An editor loads the record it edits, even without the module's VIEW permission.
      access: anyOf(def.permissions.view, ...(def.permissions.update ? [def.permissions.update] : [])),
      changes: false,
      body: codeBody(def.code),
      response: def.recordSchema,
      async handler(ctx) {
        const record = await fetchOne(ctx.services.db, res, ctx.body);
        if (!record) throw notFound(def.messages.notFound);
        return { message: def.messages.fetched, data: record };
      },
    }),
  ];
  if (def.endpoints.export) {
    routes.push(
      defineRoute({
        method: 'GET',
        path: def.endpoints.export,
        summary: `Every ${def.label.toLowerCase()} the list's keyword and filters match, newest first, as CSV`,
        tag,
        access: anyOf(def.permissions.view),
        query: listQuery,
        produces: 'text/csv',
        handler: (ctx) => exportRecords(res, ctx),
      }),
    );
  }
  for (const sub of res.parentFilters) {
    const parent = parentOf(sub, registry);
    routes.push(
      defineRoute({
        method: 'POST',
        path: sub.endpoint,
        summary: `List ${def.plural.toLowerCase()} of one ${sub.parent}`,
        tag,
        access: listAccess,
        changes: false,
        query: listQuery,
        body: codeBody(sub.param),
        response: def.recordSchema,
        listed: true,
        lookup,
        sortFields: def.sortFields,
        async handler(ctx) {
          const parentCode = ctx.body;
          const found = await exists(
            ctx.services.db,
            sql`select from ${parent.column.table} where ${eq(parent.column, parentCode)}`,
          );
          if (!found) throw notFound(parent.notFound);
          return listRecords(res, ctx, {
            where: sub.where(parentCode),
            key: { endpoint: sub.endpoint, code: parentCode },
            sub,
          });
        },
      }),
    );
  }
  for (const g of res.getters ?? []) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: g.endpoint,
        summary: `One ${def.label.toLowerCase()} by ${g.param}`,
        tag,
        access: anyOf(def.permissions.view),
        changes: false,
        body: codeBody(g.param),
        response: def.recordSchema,
        async handler(ctx) {
          const { records } = await fetchRecords(ctx.services.db, res, {
            where: eq(g.column, ctx.body),
            limit: 1,
          });
          if (!records[0]) throw notFound(def.messages.notFound);
          if (res.attach) await res.attach(ctx.services.db, records, { populate: true });
          return { message: def.messages.fetched, data: records[0] };
        },
      }),
    );
  }
  const { create, update, delete: del } = def.endpoints;
  const perms = def.permissions;
  if (create && perms.create && def.createSchema) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: create,
        summary: `Create ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.create),
        body: def.createSchema,
        response: def.recordSchema,
        multipart: res.multipart,
        handler: (ctx) => createRecord(res, ctx),
      }),
    );
  }
  if (update && perms.update && def.updateSchema) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: update,
        summary: `Update ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.update),
        body: def.updateSchema.and(versionBody),
        response: def.recordSchema,
        multipart: res.multipart,
        handler: (ctx) => updateRecord(res, ctx),
      }),
    );
  }
  if (del && perms.delete) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: del,
        summary: `Delete ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.delete),
        body: deleteBody(def.code),
        response: def.recordSchema,
        handler: (ctx) => deleteRecord(res, ctx),
      }),
    );
  }
  return routes;
}
