import {
  binModuleOf,
  type DeletedRecord,
  type MissingParent,
  type ParsedListQuery,
  RECYCLE_BIN_MESSAGES,
  restoredMessage,
} from '@wfc/contract';
import { and, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../audit/recorder.ts';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { exists, firstRow, rowsOf } from '../../db/rows.ts';
import { deletedRecords } from '../../db/schema/index.ts';
import { ApiError, notFound } from '../../http/envelope.ts';
import { pgError, toApiError } from '../../http/errors.ts';
import type { SessionContext } from '../../http/routes.ts';
import { fetchOne, reach } from '../read.ts';
import type { Row, ServerResource } from '../server-resource.ts';
import { textAt } from '../server-resource.ts';
import { writeContext } from '../write.ts';
import { parentsOf, type StoredRows, storedRows, writeBack } from './rows.ts';

/**
 * Keeps a record about to be deleted, in the delete's transaction: its stored rows (its own and
 * those the delete cascades to) and the record as the API answered it. Called once the delete's
 * checks have passed, before the row goes.
 */
export async function moveToBin(tx: Executor, res: ServerResource, code: string, record: Row) {
  const rows = await storedRows(tx, res.table, sql`t.${sql.identifier(res.codeColumn.name)} = ${code}`);
  const owner = res.def.personal ? (textAt(record, res.def.personal.owner) ?? null) : null;
  const values = {
    collection: res.def.listSegment,
    recordCode: code,
    name: textAt(record, res.def.nameField) ?? code,
    ownerCode: owner,
    record,
    rows,
    deletedAt: new Date(),
  };
  await tx
    .insert(deletedRecords)
    .values(values)
    .onConflictDoUpdate({ target: [deletedRecords.collection, deletedRecords.recordCode], set: values });
}

interface BinEntry {
  id: number;
  name: string;
  record: Row;
  rows: StoredRows;
}

/**
 * How far the caller reaches the module's records with its DELETE permission, as a condition on a
 * bin entry: its stored row is read back as a row of the module's table under the table's own
 * name, so the same condition that narrows the module's lists and deletes narrows the bin.
 */
function binReach(res: ServerResource, ctx: SessionContext): SQL | undefined {
  const { where } = reach(res, ctx.session, [res.def.permissions.delete]);
  if (!where) return undefined;
  const table = getTableName(res.table);
  return sql`exists (select from jsonb_populate_record(null::${res.table},
    ${deletedRecords.rows} -> ${table} -> 0) as ${sql.identifier(table)} where ${where})`;
}

const outOfReach = (res: ServerResource, verb: string) =>
  new ApiError(
    403,
    `You cannot ${verb} this ${res.def.label.toLowerCase()}: it is outside the records your role reaches`,
  );

/** The bin entry of a record, locked until the transaction ends: a restore and a purge take turns. */
async function lockedEntry(tx: Executor, res: ServerResource, code: string, ctx: SessionContext) {
  const [entry] = await tx
    .select({
      id: deletedRecords.id,
      name: deletedRecords.name,
      record: deletedRecords.record,
      rows: deletedRecords.rows,
    })
    .from(deletedRecords)
    .where(and(eq(deletedRecords.collection, res.def.listSegment), eq(deletedRecords.recordCode, code)))
    .for('update');
  if (!entry) throw notFound(RECYCLE_BIN_MESSAGES.notInBin);
  const scoped = binReach(res, ctx);
  if (
    scoped &&
    !(await exists(
      tx,
      sql`select from ${deletedRecords} where ${deletedRecords.id} = ${entry.id} and ${scoped}`,
    ))
  ) {
    throw outOfReach(res, 'restore or delete');
  }
  return entry as BinEntry;
}

const SORTS: Record<string, SQL> = {
  deletedAt: sql`${deletedRecords.deletedAt}`,
  name: sql`lower(${deletedRecords.name})`,
};

/** `GetDeletedRecords`: a module's bin, paged, the most recently deleted first. */
export async function listBin(
  res: ServerResource,
  ctx: SessionContext,
  query: ParsedListQuery,
): Promise<{ message: string; data: DeletedRecord[]; total: number }> {
  const { db } = ctx.services;
  const conditions: SQL[] = [eq(deletedRecords.collection, res.def.listSegment)];
  if (query.keyword) {
    const like = `%${escapeLike(query.keyword)}%`;
    conditions.push(
      sql`(${deletedRecords.name} ilike ${like} or ${deletedRecords.recordCode} ilike ${like})`,
    );
  }
  const scoped = binReach(res, ctx);
  if (scoped) conditions.push(scoped);
  const where = sql.join(conditions, sql` and `);
  const sort = SORTS[query.sortField] ?? SORTS.deletedAt;
  const direction = query.sortValue === 'asc' ? sql`asc` : sql`desc`;
  const rows = await rowsOf<{
    recordCode: string;
    name: string;
    deletedAt: Date | string;
    userCode: string | null;
    username: string | null;
    found: boolean;
  }>(
    db,
    sql`select ${deletedRecords.recordCode} as "recordCode", ${deletedRecords.name} as name,
          ${deletedRecords.deletedAt} as "deletedAt", a.user_code as "userCode", a.username, a.found
        from ${deletedRecords}
        left join lateral (
          select user_code, username, true as found from audits
          where collection = ${deletedRecords.collection} and record_code = ${deletedRecords.recordCode}
            and action = 'DELETE'
          order by id desc limit 1
        ) a on true
        where ${where}
        order by ${sort} ${direction}, ${deletedRecords.id} ${direction}
        limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
  );
  const counted = await firstRow<{ n: number | string }>(
    db,
    sql`select count(*) as n from ${deletedRecords} where ${where}`,
  );
  const module = binModuleOf(res.def);
  return {
    message: RECYCLE_BIN_MESSAGES.listed,
    total: Number(counted?.n ?? 0),
    data: rows.map((r) => ({
      module,
      recordCode: r.recordCode,
      name: r.name,
      deletedAt: new Date(r.deletedAt).toISOString(),
      deletedBy: r.found ? { userCode: r.userCode, username: r.username } : null,
    })),
  };
}

/** The module whose table a foreign key names, among the registry's, if any. */
type ModuleOfTable = (table: PgTable) => ServerResource | undefined;

/**
 * Refuses a restore whose record refers to one that no longer exists (a state whose country was
 * deleted since), naming it, and saying so when it waits in the bin: it can be restored first.
 */
async function assertParentsExist(
  tx: Executor,
  res: ServerResource,
  row: Record<string, unknown>,
  moduleOf: ModuleOfTable,
) {
  for (const { column, parentColumn, foreignTable } of parentsOf(res.table)) {
    const value = row[column.name];
    if (value === null || value === undefined) continue;
    const found = await exists(tx, sql`select from ${foreignTable} where ${eq(parentColumn, value)}`);
    if (found) continue;
    const parent = moduleOf(foreignTable);
    const label = parent ? parent.def.label.toLowerCase() : getTableName(foreignTable);
    const binned = parent
      ? await firstRow<{ name: string }>(
          tx,
          sql`select name from ${deletedRecords}
              where collection = ${parent.def.listSegment} and record_code = ${String(value)}`,
        )
      : undefined;
    const what = `Cannot restore this ${res.def.label.toLowerCase()}`;
    const message = binned
      ? `${what}: its ${label} '${binned.name}' is in the recycle bin. Restore the ${label} first`
      : `${what}: its ${label} no longer exists`;
    const missing: MissingParent | undefined = parent && {
      module: binModuleOf(parent.def),
      recordCode: String(value),
      name: binned?.name ?? null,
      inBin: Boolean(binned),
    };
    throw new ApiError(
      409,
      message,
      undefined,
      undefined,
      missing ? { data: { parent: missing } } : undefined,
    );
  }
}

/**
 * `RestoreRecord`: the record back with its code, its version and the rows that went with it; its
 * audit history, kept by code, is its own again. Refused, with nothing written, when a value of it
 * is now taken (a unique name) or a record it refers to is gone.
 */
export async function restoreFromBin(
  res: ServerResource,
  ctx: SessionContext,
  code: string,
  moduleOf: ModuleOfTable,
) {
  return ctx.services.db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, res, code, ctx);
    const own = entry.rows[getTableName(res.table)]?.[0];
    if (!own) throw new Error(`${res.def.label} ${code}: the bin keeps no row of its own`);
    await assertParentsExist(tx, res, own, moduleOf);
    try {
      await writeBack(tx, entry.rows, res.table);
    } catch (err) {
      if (pgError(err)?.code !== '23505') throw err;
      // The unique index's own message: 'A department with this name already exists'.
      const taken = toApiError(err);
      throw new ApiError(
        409,
        `Cannot restore this ${res.def.label.toLowerCase()}: ${taken.message}`,
        taken.errors,
      );
    }
    await tx.delete(deletedRecords).where(eq(deletedRecords.id, entry.id));
    // Restoring needs what deleting needed: a user's restorer may give the user's role.
    const { scope } = reach(res, ctx.session, [res.def.permissions.delete]);
    const record = await fetchOne(tx, res, code);
    if (!record) throw new Error(`${res.def.label} ${code} was not restored`);
    await res.authorize?.(undefined, writeContext(ctx, tx, scope ?? 'all'), record);
    await recordAudit(tx, {
      action: 'RESTORE',
      collection: res.def.listSegment,
      recordCode: code,
      after: record,
      actor: ctx.actor,
    });
    return { message: restoredMessage(res.def), data: record };
  });
}

/** `PurgeRecord`: the record's bin entry, and with it every row it kept, gone for good. */
export async function purgeFromBin(res: ServerResource, ctx: SessionContext, code: string) {
  return ctx.services.db.transaction(async (tx) => {
    const entry = await lockedEntry(tx, res, code, ctx);
    await tx.delete(deletedRecords).where(eq(deletedRecords.id, entry.id));
    await recordAudit(tx, {
      action: 'PURGE',
      collection: res.def.listSegment,
      recordCode: code,
      before: entry.record,
      actor: ctx.actor,
    });
    return { message: RECYCLE_BIN_MESSAGES.purged };
  });
}
