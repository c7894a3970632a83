import { type PermissionScope, withArticle } from '@wfc/contract';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { lastChanges } from '../audit/history.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { exists } from '../db/rows.ts';
import { ApiError, badRequest, conflict, notFound, staleWrite } from '../http/envelope.ts';
import type { SessionContext } from '../http/routes.ts';
import { tableColumnNames } from './list-query.ts';
import { fetchOne, reach } from './read.ts';
import type {
  AnyResourceDef,
  Dependent,
  InputOf,
  Row,
  ServerResource,
  WriteContext,
} from './server-resource.ts';

/** What an update or delete may add: the version of the record as the caller read it. */
export interface Versioned {
  version?: number;
}

/**
 * The record as it stands, locked until the transaction ends: a concurrent change waits, so the
 * audit's `before` is what this change really replaced, and a delete's reference check cannot be
 * overtaken by a new reference.
 */
async function lockedRecord(tx: Executor, res: ServerResource, code: string, scoped: SQL | undefined) {
  const [row] = await tx
    .select({ id: res.idColumn })
    .from(res.table)
    .where(and(eq(res.codeColumn, code), scoped))
    .for('update');
  return row ? fetchOne(tx, res, code) : undefined;
}

type Verb = 'create' | 'change' | 'delete';

/**
 * The refusal of a write beyond the caller's reach. It names the module only, and a caller gets
 * it for a record that does not exist too, so it tells nothing of any record they cannot see.
 */
export const outOfReach = (res: ServerResource, verb: Verb) =>
  new ApiError(
    403,
    verb === 'create'
      ? `You cannot create ${withArticle(res.def.label.toLowerCase())} outside the records your role reaches`
      : `You cannot ${verb} this ${res.def.label.toLowerCase()}: it is outside the records your role reaches`,
  );

/** What the caller reaches with the permission a write needs: its scope and its condition. */
function writeReach(res: ServerResource, ctx: SessionContext, permission: string | undefined) {
  const { scope, where } = reach(res, ctx.session, [permission]);
  return { scope: scope ?? 'all', where };
}

/** Refuses, inside the transaction, a write whose result lies outside what the caller reaches. */
async function assertWithinReach(
  tx: Executor,
  res: ServerResource,
  code: string,
  scoped: SQL | undefined,
  verb: Verb,
) {
  if (!scoped) return;
  const found = await exists(
    tx,
    sql`select from ${res.table} where ${and(eq(res.codeColumn, code), scoped)}`,
  );
  if (!found) throw outOfReach(res, verb);
}

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

function writeContext(
  ctx: SessionContext,
  tx: Executor,
  scope: PermissionScope,
  prepared?: unknown,
): WriteContext {
  return {
    tx,
    services: ctx.services,
    actor: ctx.actor,
    permissions: ctx.session.permissions,
    scopes: ctx.session.scopes,
    scope,
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
async function existingRecord(
  tx: Executor,
  res: ServerResource,
  code: string,
  version: number | undefined,
  scoped: { where: SQL | undefined; verb: Verb },
) {
  const before = await lockedRecord(tx, res, code, scoped.where);
  if (before) return before;
  if (scoped.where) throw outOfReach(res, scoped.verb);
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

export async function createRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D>>,
) {
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'create');
  const reached = writeReach(res, ctx, res.def.permissions.create);
  return ctx.services.db.transaction(async (tx) => {
    const wctx = writeContext(ctx, tx, reached.scope, prepared);
    await res.authorize?.(ctx.body, wctx);
    await checkRefs(res, tx, ctx.body);
    await res.validate?.(ctx.body, wctx);
    const code = newCode(res.def.prefix);
    const row = res.toRow ? await res.toRow(ctx.body, wctx) : defaultRow(res, ctx.body);
    await tx.insert(res.table).values({ ...row, [res.def.code]: code });
    await res.afterWrite?.(code, ctx.body, wctx);
    await assertWithinReach(tx, res, code, reached.where, 'create');
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

export async function updateRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D> & Versioned>,
) {
  const code = codeIn(res, ctx.body);
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'update');
  const reached = writeReach(res, ctx, res.def.permissions.update);
  return ctx.services.db.transaction(async (tx) => {
    const asked: Versioned = ctx.body;
    const before = await existingRecord(tx, res, code, asked.version, {
      where: reached.where,
      verb: 'change',
    });
    const wctx = writeContext(ctx, tx, reached.scope, prepared);
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
    // Moving a record out of reach (an employee to another team) is changing it beyond reach.
    await assertWithinReach(tx, res, code, reached.where, 'change');
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

export async function deleteRecord(res: ServerResource, ctx: SessionContext<{ code: string } & Versioned>) {
  const { code, version } = ctx.body;
  const reached = writeReach(res, ctx, res.def.permissions.delete);
  return ctx.services.db.transaction(async (tx) => {
    const before = await existingRecord(tx, res, code, version, { where: reached.where, verb: 'delete' });
    const wctx = writeContext(ctx, tx, reached.scope);
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
