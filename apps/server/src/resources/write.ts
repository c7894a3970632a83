import { type PermissionScope, withArticle } from '@wfc/contract';
import { and, type Column, count, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { lastChanges } from '../audit/history.ts';
import { recordAudit, recordAudits } from '../audit/recorder.ts';
import { anyOf } from '../db/arrays.ts';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { exists } from '../db/rows.ts';
import { ApiError, badRequest, conflict, notFound, staleWrite, zodFieldErrors } from '../http/envelope.ts';
import type { SessionContext } from '../http/routes.ts';
import { lookupShape, tableColumnNames } from './list-query.ts';
import { fetchOne, fetchRecords, reach } from './read.ts';
import { moveToBin } from './recycle-bin/bin.ts';
import type {
  AnyResourceDef,
  Dependent,
  InputOf,
  Row,
  ServerResource,
  WriteContext,
} from './server-resource.ts';
import { textAt } from './server-resource.ts';

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

/**
 * What a write needs of its caller: who they are, what they hold and the request's file. A route's
 * context is one; an import's pass (imports/) builds one for the importer.
 */
export type WriterContext = Pick<SessionContext, 'services' | 'session' | 'actor' | 'files'>;

/** What the caller reaches with the permission a write needs: its scope and its condition. */
export function writeReach(res: ServerResource, ctx: WriterContext, permission: string | undefined) {
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
const uploadOf = (ctx: Pick<WriterContext, 'files'>) => ctx.files?.find((f) => f.data.length > 0);

/** What a definition's hooks are given about the write under way (the bin's restore too). */
export function writeContext(
  ctx: WriterContext,
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

/**
 * One create inside the caller's transaction: the single create's, and each of an import's rows.
 * Answers the record as stored.
 */
export async function createIn<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: WriterContext,
  tx: Executor,
  reached: Reached,
  input: InputOf<D>,
  prepared?: unknown,
) {
  const wctx = writeContext(ctx, tx, reached.scope, prepared);
  await res.authorize?.(input, wctx);
  await checkRefs(res, tx, input);
  await res.validate?.(input, wctx);
  const code = newCode(res.def.prefix);
  const row = res.toRow ? await res.toRow(input, wctx) : defaultRow(res, input);
  await tx.insert(res.table).values({ ...row, [res.def.code]: code });
  await res.afterWrite?.(code, input, wctx);
  await assertWithinReach(tx, res, code, reached.where, 'create');
  const after = await fetchOne(tx, res, code);
  await recordAudit(tx, {
    action: 'CREATE',
    collection: res.def.listSegment,
    recordCode: code,
    after,
    actor: ctx.actor,
  });
  return after;
}

/**
 * Rows inserted as one JSON document that PostgreSQL reads as the table's rows: building a
 * statement of a parameter per value cost more than the insert itself for a thousand rows. Each
 * value goes as the driver would send it; rows that leave out different columns (so that those
 * take their defaults) are inserted by a statement each.
 */
async function insertRows(tx: Executor, table: ServerResource['table'], rows: readonly Row[]) {
  const columns = getTableColumns(table);
  const byShape = new Map<string, Row[]>();
  for (const row of rows) {
    const shape = Object.keys(row)
      .filter((k) => row[k] !== undefined && columns[k])
      .join(',');
    const group = byShape.get(shape);
    if (group) group.push(row);
    else byShape.set(shape, [row]);
  }
  for (const [shape, group] of byShape) {
    const keys = shape.split(',');
    const names = sql.join(
      keys.map((k) => sql.identifier((columns[k] as Column).name)),
      sql`, `,
    );
    const docs = group.map((row) =>
      Object.fromEntries(
        keys.map((k) => {
          const column = columns[k] as Column;
          const value = row[k];
          // A JSON column's value is part of the document as it is, not as the driver's text.
          const sent = value === null || column.dataType === 'json' ? value : column.mapToDriverValue(value);
          return [column.name, sent];
        }),
      ),
    );
    await tx.execute(
      sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(docs)}::json)`,
    );
  }
}

/**
 * Whether a module's creates can be written many to a statement: it has no per-record hook, so a
 * record is its body's columns and nothing else happens to it.
 */
export const createsInSets = (res: ServerResource) =>
  !res.authorize && !res.validate && !res.toRow && !res.afterWrite && !res.prepare;

/**
 * Many creates inside the caller's transaction, as `createIn` would make each of them, in set-based
 * statements: one insert, one read back, one audit write. Only for a module `createsInSets` allows;
 * the references must have been checked (an import finds them by natural key). A record beyond the
 * caller's reach refuses the whole (403). Answers the records as stored, in the inputs' order.
 */
export async function createManyIn<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: WriterContext,
  tx: Executor,
  reached: Reached,
  inputs: readonly InputOf<D>[],
) {
  if (!createsInSets(res)) throw new Error(`${res.def.label}: creates have hooks, one at a time`);
  if (!inputs.length) return [];
  const codes = inputs.map(() => newCode(res.def.prefix));
  await insertRows(
    tx,
    res.table,
    inputs.map((input, i) => ({ ...defaultRow(res, input), [res.def.code]: codes[i] })),
  );
  if (reached.where) {
    const { records: within } = await fetchRecords(tx, res, {
      shape: { code: res.codeColumn },
      where: and(anyOf(res.codeColumn, codes), reached.where),
      present: false,
    });
    if (within.length !== codes.length) throw outOfReach(res, 'create');
  }
  const { records } = await fetchRecords(tx, res, { where: anyOf(res.codeColumn, codes) });
  if (res.attach) await res.attach(tx, records, { populate: true });
  const byCode = new Map(records.map((r) => [r[res.def.code], r]));
  const after = codes.map((code) => byCode.get(code));
  await recordAudits(
    tx,
    codes.map((code, i) => ({
      action: 'CREATE' as const,
      collection: res.def.listSegment,
      recordCode: code,
      after: after[i],
      actor: ctx.actor,
    })),
  );
  return after;
}

export async function createRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D>>,
) {
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'create');
  const reached = writeReach(res, ctx, res.def.permissions.create);
  return ctx.services.db.transaction(async (tx) => ({
    message: res.def.messages.created,
    data: await createIn(res, ctx, tx, reached, ctx.body, prepared),
  }));
}

/** A write's reach: how far the caller holds its permission, and the condition on the records. */
export type Reached = ReturnType<typeof writeReach>;

/**
 * One update inside the caller's transaction: the single update's, and each of a bulk change's.
 * `inputFor` gives the body once the record is locked (a bulk change builds it from the record).
 */
export async function updateIn<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: WriterContext,
  tx: Executor,
  reached: Reached,
  target: { code: string; version: number | undefined; prepared?: unknown; notes?: Row },
  inputFor: (before: Row) => Promise<InputOf<D>>,
) {
  const { code, version } = target;
  const before = await existingRecord(tx, res, code, version, { where: reached.where, verb: 'change' });
  const input = await inputFor(before);
  const wctx = writeContext(ctx, tx, reached.scope, target.prepared);
  await res.authorize?.(input, wctx, before);
  await assertCurrent(tx, res, code, before, version);
  await checkRefs(res, tx, input);
  await res.validate?.(input, wctx, before);
  const row = res.toRow ? await res.toRow(input, wctx, before) : defaultRow(res, input);
  // Every update makes a new version, even one that changes only related rows (a role's permissions).
  const set = res.versionColumn
    ? { ...row, updatedAt: new Date(), version: sql`${res.versionColumn} + 1` }
    : row;
  if (Object.keys(set).length) await tx.update(res.table).set(set).where(eq(res.codeColumn, code));
  await res.afterWrite?.(code, input, wctx, before);
  // Moving a record out of reach (an employee to another team) is changing it beyond reach.
  await assertWithinReach(tx, res, code, reached.where, 'change');
  const after = await fetchOne(tx, res, code);
  const notes = { ...res.auditNotes?.(input), ...target.notes };
  await recordAudit(tx, {
    action: 'UPDATE',
    collection: res.def.listSegment,
    recordCode: code,
    before,
    after: Object.keys(notes).length ? { ...after, ...notes } : after,
    actor: ctx.actor,
  });
  return after;
}

/**
 * `Update{Label}`, and any write that is an update of the record in every respect (restoring an
 * audited version). `notes` are facts the audit entry adds to its `after` (`auditNotes`).
 */
export async function updateRecord<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<InputOf<D> & Versioned>,
  notes?: Row,
) {
  const code = codeIn(res, ctx.body);
  const prepared = await res.prepare?.(ctx.body, uploadOf(ctx), 'update');
  const reached = writeReach(res, ctx, res.def.permissions.update);
  const asked: Versioned = ctx.body;
  return ctx.services.db.transaction(async (tx) => {
    const target = { code, version: asked.version, prepared, notes };
    const after = await updateIn(res, ctx, tx, reached, target, async () => ctx.body);
    return { message: res.def.messages.updated, data: after };
  });
}

/** One delete inside the caller's transaction: the single delete's, and each of a bulk delete's. */
async function deleteIn(
  res: ServerResource,
  ctx: SessionContext,
  tx: Executor,
  reached: Reached,
  code: string,
  version: number | undefined,
) {
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
  await moveToBin(tx, res, code, before);
  await tx.delete(res.table).where(eq(res.codeColumn, code));
  await recordAudit(tx, {
    action: 'DELETE',
    collection: res.def.listSegment,
    recordCode: code,
    before,
    actor: ctx.actor,
  });
  return before;
}

export async function deleteRecord(res: ServerResource, ctx: SessionContext<{ code: string } & Versioned>) {
  const { code, version } = ctx.body;
  const reached = writeReach(res, ctx, res.def.permissions.delete);
  return ctx.services.db.transaction(async (tx) => ({
    message: res.def.messages.deleted,
    data: await deleteIn(res, ctx, tx, reached, code, version),
  }));
}

/** The records a bulk write names, with the version each was read at (none: not checked). */
export interface BulkTargets {
  codes: string[];
  versions?: (number | undefined)[];
}

/** At most this many refused records are named in a bulk write's message; `errors` holds them all. */
const NAMED_REFUSALS = 3;

/**
 * Writes each record in turn inside one transaction. A refused record does not stop the others
 * from being tried, so that one answer names every record that blocks the write; the whole is
 * then refused, with the first refusal's status, and the transaction undoes what was written.
 */
async function eachRecord<T>(
  tx: Executor,
  res: ServerResource,
  targets: BulkTargets,
  refusal: { scoped: SQL | undefined; nothing: string },
  write: (code: string, version: number | undefined) => Promise<T>,
) {
  // Named before any write: a record the write would move out of reach is still named.
  const names = await namesOf(tx, res, targets.codes, refusal.scoped);
  const done: T[] = [];
  const refused: { index: number; code: string; error: ApiError }[] = [];
  for (const [index, code] of targets.codes.entries()) {
    try {
      done.push(await write(code, targets.versions?.[index]));
    } catch (error) {
      // Anything but a refusal (a lost connection, a constraint) has spoilt the transaction.
      if (!(error instanceof ApiError)) throw error;
      refused.push({ index, code, error });
    }
  }
  const [first] = refused;
  if (!first) return done;
  const named = refused.map((r) => ({ ...r, name: names.get(r.code) ?? r.code }));
  const told = named.slice(0, NAMED_REFUSALS).map((r) => `${r.name}: ${r.error.message}`);
  const more = named.length - told.length;
  throw new ApiError(
    first.error.statusCode,
    `${refusal.nothing}. ${[...told, ...(more > 0 ? [`and ${more} more`] : [])].join('; ')}`,
    named.flatMap((r) =>
      (r.error.errors?.length ? r.error.errors : [r.error]).map((e) => ({
        field: `codes.${r.index}`,
        message: `${r.name}: ${e.message}`,
      })),
    ),
  );
}

/**
 * The names of these records, by code, as far as the caller reaches them: a refusal names a
 * record beyond reach by the code the caller sent, telling nothing more of it.
 */
async function namesOf(tx: Executor, res: ServerResource, codes: string[], scoped: SQL | undefined) {
  const { records } = await fetchRecords(tx, res, {
    shape: lookupShape(res),
    where: and(anyOf(res.codeColumn, codes), scoped),
    present: false,
  });
  return new Map(
    records.flatMap((r) => {
      const code = textAt(r, res.def.code);
      const name = textAt(r, res.def.nameField);
      return code && name ? [[code, name] as const] : [];
    }),
  );
}

/** `Delete{Plural}`: every named record, each as a single delete would, or none of them. */
export async function deleteRecords(res: ServerResource, ctx: SessionContext<BulkTargets>) {
  const reached = writeReach(res, ctx, res.def.permissions.delete);
  const refusal = { scoped: reached.where, nothing: 'Nothing was deleted' };
  return ctx.services.db.transaction(async (tx) => ({
    message: `${res.def.plural} deleted successfully`,
    data: await eachRecord(tx, res, ctx.body, refusal, (code, version) =>
      deleteIn(res, ctx, tx, reached, code, version),
    ),
  }));
}

/** A value at a form field's path in a record (`department.departmentCode`, `managers[].employeeCode`). */
function valueAt(record: unknown, path: string): unknown {
  const [head = '', ...rest] = path.split('.');
  const list = head.endsWith('[]');
  const value = new Map(record !== null && typeof record === 'object' ? Object.entries(record) : []).get(
    list ? head.slice(0, -2) : head,
  );
  if (rest.length === 0) return value;
  if (list) return Array.isArray(value) ? value.map((v) => valueAt(v, rest.join('.'))) : [];
  return valueAt(value, rest.join('.'));
}

/** Sets a dotted body key (`address.countryCode`), making the groups on its way. */
function setPath(body: Record<string, unknown>, keys: readonly string[], value: unknown) {
  const [key = '', ...rest] = keys;
  if (rest.length === 0) {
    body[key] = value;
    return;
  }
  const group = body[key];
  const next: Record<string, unknown> =
    group !== null && typeof group === 'object' && !Array.isArray(group) ? { ...group } : {};
  setPath(next, rest, value);
  body[key] = next;
}

/**
 * The update body that gives a record the values `record` holds: each field of the update form,
 * read where the record holds it (a password is never read back, so it stays unchanged). Of the
 * record as it stands, it changes nothing; of an audit entry's `before`, it restores that version.
 */
export function updateBodyOf(res: ServerResource, record: Row): Record<string, unknown> {
  const body: Record<string, unknown> = { [res.def.code]: record[res.def.code] };
  for (const field of res.def.formFields) {
    if (field.modes && !field.modes.includes('update')) continue;
    const value = valueAt(record, field.valuePath ?? field.name);
    if (value !== undefined && value !== null) setPath(body, field.name.split('.'), value);
  }
  return body;
}

/**
 * `Update{Plural}`: the named references (`bulkChange`) set on every named record, each as a
 * single update of that record would (its version, delegation, reach and audit), or on none.
 */
export async function changeRecords<D extends AnyResourceDef>(
  res: ServerResource<D>,
  ctx: SessionContext<BulkTargets>,
) {
  const schema = res.def.updateSchema;
  if (!schema) throw new Error(`${res.def.label}: a bulk change needs the update schema`);
  const sent = new Map(Object.entries(ctx.body));
  const change = Object.fromEntries(
    res.def.bulkChange.flatMap((f) => (sent.get(f.name) === undefined ? [] : [[f.name, sent.get(f.name)]])),
  );
  const reached = writeReach(res, ctx, res.def.permissions.update);
  const refusal = { scoped: reached.where, nothing: 'Nothing was changed' };
  return ctx.services.db.transaction(async (tx) => {
    // A reference that does not exist is one refusal of the request, not one per record.
    await checkRefs(res, tx, change);
    const data = await eachRecord(tx, res, ctx.body, refusal, (code, version) =>
      updateIn(res, ctx, tx, reached, { code, version }, async (before) => {
        const parsed = schema.safeParse({ ...updateBodyOf(res, before), ...change });
        if (!parsed.success) throw badRequest('Invalid input', zodFieldErrors(parsed.error));
        return parsed.data;
      }),
    );
    return { message: `${res.def.plural} updated successfully`, data };
  });
}
