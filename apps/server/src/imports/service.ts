import {
  type CheckImportInput,
  IMPORT_ENDED,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  IMPORT_MODULES,
  type ImportError,
  type ImportField,
  type ImportListItem,
  type ImportModule,
  type ImportRecord,
  type ImportStatus,
  importPermissions,
  RESOURCE_BY_KEY,
  type StartImportInput,
} from '@wfc/contract';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/recorder.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import type { Database, Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { importFiles, imports } from '../db/schema/index.ts';
import { ApiError, notFound } from '../http/envelope.ts';
import type { UploadedFile } from '../http/multipart.ts';
import { PERFORMANCE_COLLECTION } from '../performance/save/save.ts';
import { SERVER_RESOURCE_BY_KEY } from '../resources/index.ts';
import type { Services } from '../services.ts';
import { registryImporter } from './engine/registry-importer.ts';
import { openSheet } from './files/open.ts';
import { ImportCancelled, type ImportRun, type ModuleImporter } from './importer.ts';
import { resolveMapping } from './mapping.ts';
import { principalOf, sessionOf } from './principal.ts';
import { scoreImporter } from './scores/importer.ts';

/*
 * The life of an import (docs/product.md, "Import and export"): StartImport stores the file and
 * checks it, CommitImport writes it in one transaction, CancelImport stops it before that commits.
 * A pass (check or commit) runs within the request for a small file, and as a job on the queue
 * for a large one (jobs.ts); its state is in the `imports` row either way, so a pass a stop cut
 * short is run again from that row.
 */

const importers = new Map<ImportModule, ModuleImporter>();

/** The importer of a module: the scores', or the registry's engine over the module's definition. */
export function importerOf(module: ImportModule): ModuleImporter {
  let importer = importers.get(module);
  if (!importer) {
    if (module === 'performance') importer = scoreImporter;
    else {
      const res = SERVER_RESOURCE_BY_KEY.get(module);
      if (!res) throw new Error(`No server definition of ${module}`);
      importer = registryImporter(res, SERVER_RESOURCE_BY_KEY);
    }
    importers.set(module, importer);
  }
  return importer;
}

/** The audit log's module of an import: the registry module's list, or the scores'. */
export const collectionOf = (module: ImportModule) =>
  module === 'performance' ? PERFORMANCE_COLLECTION : RESOURCE_BY_KEY[module].listSegment;

/**
 * The queue each database's instance hands large passes to, once its jobs run (jobs.ts); without
 * one (jobs off, a test without them) every pass runs within its request.
 */
const dispatchers = new WeakMap<Database, (importCode: string) => Promise<void>>();
export function setImportDispatch(db: Database, send: ((importCode: string) => Promise<void>) | undefined) {
  if (send) dispatchers.set(db, send);
  else dispatchers.delete(db);
}

/** A pass runs as a job when the file is larger than this and a queue is running. */
export const INLINE_BYTES = 256 * 1024;

/** Progress of the commits under way on this instance, which the embedded database cannot be told mid-transaction. */
const live = new Map<string, { written: number; startedAt: number }>();

/** Refuses (403) an import the caller may not make: the module's create permission, and update unless only creating. */
export function assertMayImport(
  session: ActiveSession,
  module: ImportModule,
  mode: StartImportInput['mode'],
) {
  if (!importPermissions(module, mode).every((p) => session.permissions.has(p))) {
    throw new ApiError(403, IMPORT_MESSAGES.moduleForbidden);
  }
}

/** The modules whose imports a caller sees: those they may import into. */
export const visibleModules = (session: ActiveSession) =>
  IMPORT_MODULES.filter((m) => importPermissions(m, 'create').every((p) => session.permissions.has(p)));

type ImportRow = typeof imports.$inferSelect;

/**
 * The columns an answer shows: not the plan, which names every record a file writes (a megabyte
 * for 50,000 rows) and which a progress poll would otherwise read and parse each time.
 */
const { plan: _plan, ...shownColumns } = getTableColumns(imports);
/** The columns a list shows: not the errors and sample of the previews either. */
const { errors: _errors, sample: _sample, ...listedColumns } = shownColumns;
type ShownImport = Omit<ImportRow, 'plan'>;

/** An import as the Imports screen lists it: without its preview. */
export function importListItem(row: Omit<ShownImport, 'errors' | 'sample'>): ImportListItem {
  const {
    fields: _fields,
    errors: _errors,
    sample: _sample,
    ...item
  } = importRecord({ ...row, errors: [], sample: [] }, false);
  return item;
}

/** An import as the API answers it. */
export function importRecord(row: ShownImport, full = true): ImportRecord {
  const now = live.get(row.importCode);
  const written = Math.max(row.writtenRows, now?.written ?? 0);
  const fields = full ? (cachedFields.get(row.module) ?? []) : [];
  return {
    importCode: row.importCode,
    module: row.module,
    mode: row.mode,
    fileName: row.fileName,
    format: row.format,
    sheet: row.sheet,
    sheets: row.sheets,
    layout: row.layout,
    status: row.status,
    columns: row.columns,
    mapping: row.mapping,
    fields: fields.map((f) => ({ ...f, aliases: [...f.aliases] })),
    counts: row.counts,
    errors: full ? row.errors.slice(0, IMPORT_LIMITS.listedErrors) : [],
    errorCount: row.errorCount,
    sample: full ? row.sample : [],
    progress: {
      checked: row.checkedRows,
      written,
      rowsPerSecond: now ? rate(written, now.startedAt) : row.rowsPerSecond,
    },
    skipErrors: row.skipErrors,
    message: row.message,
    createdBy: { userCode: row.createdByCode, username: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    committedAt: row.committedAt?.toISOString() ?? null,
  };
}

/** The fields of each module as last read (the scores' follow the skills). */
const cachedFields = new Map<ImportModule, readonly ImportField[]>();

const rate = (rows: number, startedAt: number) => {
  const seconds = (performance.now() - startedAt) / 1000;
  return seconds > 0 ? Math.round(rows / seconds) : 0;
};

async function fieldsOf(db: Executor, module: ImportModule) {
  const fields = await importerOf(module).fields(db);
  cachedFields.set(module, fields);
  return fields;
}

/** An import the caller may see: their own, or any of a module they may import into. */
async function visibleImport(services: Services, session: ActiveSession, importCode: string) {
  const [row] = await services.db
    .select(shownColumns)
    .from(imports)
    .where(eq(imports.importCode, importCode));
  if (!row) throw notFound(IMPORT_MESSAGES.notFound);
  const mayImport = importPermissions(row.module, 'create').every((p) => session.permissions.has(p));
  if (row.createdByCode !== session.userCode && !mayImport) throw notFound(IMPORT_MESSAGES.notFound);
  if (!cachedFields.has(row.module)) await fieldsOf(services.db, row.module);
  return row;
}

/** `StartImport`: stores the file, maps its columns and checks it (now, or as a job). */
export async function startImport(
  services: Services,
  session: ActiveSession,
  input: StartImportInput,
  file: UploadedFile | undefined,
): Promise<ImportRecord> {
  assertMayImport(session, input.module, input.mode);
  if (!file)
    throw new ApiError(400, IMPORT_MESSAGES.fileRequired, [
      { field: 'file', message: IMPORT_MESSAGES.fileRequired },
    ]);
  const fileName = file.filename || 'import';
  const sheet = await openSheet({ data: file.data, fileName }, input.sheet);
  const fields = await fieldsOf(services.db, input.module);
  const mapping = resolveMapping(sheet.headers, fields, input.mapping);
  const importCode = newCode('IMPORT-');
  await services.db.transaction(async (tx) => {
    await tx.insert(imports).values({
      importCode,
      module: input.module,
      mode: input.mode,
      fileName,
      format: sheet.format,
      sheet: sheet.sheet,
      sheets: sheet.sheets,
      status: 'checking',
      columns: sheet.headers,
      askedMapping: input.mapping ?? null,
      mapping,
      principal: principalOf(session),
      createdByCode: session.userCode,
      createdByName: session.username,
    });
    await tx.insert(importFiles).values({ importCode, data: file.data });
  });
  return runOrDispatch(services, importCode, file.data.length);
}

/** `CheckImport`: the stored file checked again, with another mapping, mode or sheet. */
export async function checkImport(services: Services, session: ActiveSession, input: CheckImportInput) {
  const row = await visibleImport(services, session, input.importCode);
  if (row.status !== 'ready' && row.status !== 'failed') {
    throw new ApiError(
      409,
      `This import is ${row.status}: it can be checked again only once ready or failed`,
    );
  }
  const mode = input.mode ?? row.mode;
  assertMayImport(session, row.module, mode);
  const data = await fileOf(services.db, row.importCode);
  const sheet = await openSheet({ data, fileName: row.fileName }, input.sheet ?? row.sheet ?? undefined);
  const fields = await fieldsOf(services.db, row.module);
  const columnsChanged = sheet.headers.join('\u0000') !== row.columns.join('\u0000');
  const mapping = resolveMapping(
    sheet.headers,
    fields,
    input.mapping ?? (columnsChanged ? undefined : row.mapping),
  );
  await services.db
    .update(imports)
    .set({
      mode,
      sheet: sheet.sheet,
      columns: sheet.headers,
      mapping,
      status: 'checking',
      message: null,
      cancelRequested: false,
      principal: principalOf(session),
      updatedAt: new Date(),
    })
    .where(eq(imports.importCode, row.importCode));
  return runOrDispatch(services, row.importCode, data.length);
}

/** `CommitImport`: writes a checked import, all or nothing (now, or as a job). */
export async function commitImport(
  services: Services,
  session: ActiveSession,
  importCode: string,
  skipErrors: boolean,
): Promise<ImportRecord> {
  const row = await visibleImport(services, session, importCode);
  assertMayImport(session, row.module, row.mode);
  if (row.status !== 'ready') throw new ApiError(409, IMPORT_MESSAGES.notReady);
  if (row.counts.errors > 0 && !skipErrors) {
    throw new ApiError(400, IMPORT_MESSAGES.hasErrors, [
      { field: 'skipErrors', message: IMPORT_MESSAGES.hasErrors },
    ]);
  }
  const [claimed] = await services.db
    .update(imports)
    .set({
      status: 'committing',
      skipErrors,
      principal: principalOf(session),
      message: null,
      updatedAt: new Date(),
    })
    .where(and(eq(imports.importCode, importCode), eq(imports.status, 'ready')))
    .returning({ importCode: imports.importCode });
  if (!claimed) throw new ApiError(409, IMPORT_MESSAGES.notReady);
  const [size] = await services.db
    .select({ bytes: sql<number>`octet_length(${importFiles.data})::int` })
    .from(importFiles)
    .where(eq(importFiles.importCode, importCode));
  return runOrDispatch(services, importCode, size?.bytes ?? 0);
}

/** `CancelImport`: stops an import before it commits; nothing of it is written. */
export async function cancelImport(services: Services, session: ActiveSession, importCode: string) {
  const row = await visibleImport(services, session, importCode);
  if (IMPORT_ENDED.includes(row.status)) throw new ApiError(409, IMPORT_MESSAGES.notCancellable);
  if (row.status === 'committing') {
    // The pass sees it at its next step and rolls back; the row says cancelled once it has.
    await services.db
      .update(imports)
      .set({ cancelRequested: true, updatedAt: new Date() })
      .where(eq(imports.importCode, importCode));
  } else {
    await endImport(services.db, importCode, { status: 'cancelled', message: IMPORT_MESSAGES.cancelled });
  }
  return getImport(services, session, importCode);
}

export async function getImport(services: Services, session: ActiveSession, importCode: string) {
  return importRecord(await visibleImport(services, session, importCode));
}

/** `GetImports`: the imports the caller sees, newest first. */
export async function listImports(
  services: Services,
  session: ActiveSession,
  query: { module?: ImportModule; pageNumber: number; pageSize: number },
) {
  const modules = visibleModules(session);
  const where = and(
    sql`(${imports.createdByCode} = ${session.userCode} or ${modules.length ? inArray(imports.module, modules) : sql`false`})`,
    query.module ? eq(imports.module, query.module) : undefined,
  );
  const rows = await services.db
    .select(listedColumns)
    .from(imports)
    .where(where)
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(query.pageSize)
    .offset((query.pageNumber - 1) * query.pageSize);
  const [total] = await services.db.select({ n: sql<number>`count(*)::int` }).from(imports).where(where);
  return { rows: rows.map(importListItem), total: total?.n ?? 0 };
}

/** Every error of an import, for its report. */
export async function importErrors(services: Services, session: ActiveSession, importCode: string) {
  const row = await visibleImport(services, session, importCode);
  return { fileName: row.fileName, errors: row.errors };
}

async function fileOf(db: Executor, importCode: string): Promise<Buffer> {
  const [file] = await db.select().from(importFiles).where(eq(importFiles.importCode, importCode));
  if (!file) throw new ApiError(409, 'The file of this import is no longer kept: upload it again');
  return file.data;
}

async function runOrDispatch(services: Services, importCode: string, bytes: number): Promise<ImportRecord> {
  const dispatch = dispatchers.get(services.db);
  if (dispatch && bytes > INLINE_BYTES) await dispatch(importCode);
  else await runPass(services, importCode, { rethrow: true });
  const [row] = await services.db
    .select(shownColumns)
    .from(imports)
    .where(eq(imports.importCode, importCode));
  if (!row) throw notFound(IMPORT_MESSAGES.notFound);
  return importRecord(row);
}

/** An ended import keeps its outcome; its file goes. */
async function endImport(
  db: Executor,
  importCode: string,
  set: Partial<typeof imports.$inferInsert> & { status: ImportStatus },
) {
  await db
    .update(imports)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(imports.importCode, importCode));
  if (IMPORT_ENDED.includes(set.status))
    await db.delete(importFiles).where(eq(importFiles.importCode, importCode));
}

/**
 * Marks an import failed, with why (a refusal's errors too), while it is still in one of `during`:
 * a cancel that came meanwhile stays a cancel. Its file stays, so that it can be checked again.
 */
async function failImport(db: Executor, importCode: string, during: ImportStatus[], why: ApiError | string) {
  const refusal =
    typeof why === 'string'
      ? { message: why }
      : { message: why.message, errors: errorsOf(why), errorCount: why.errors?.length ?? 1 };
  await db
    .update(imports)
    .set({ status: 'failed', ...refusal, updatedAt: new Date() })
    .where(and(eq(imports.importCode, importCode), inArray(imports.status, during)));
}

/** Pure: an ApiError's field errors as an import's row errors (`row 12` names the row). */
export function errorsOf(err: ApiError): ImportError[] {
  return (err.errors ?? [{ field: '', message: err.message }]).map((e) => {
    const row = /^row (\d+)$/.exec(e.field ?? '');
    return { row: row ? Number(row[1]) : 1, column: null, message: e.message };
  });
}

/**
 * Runs what an import waits for: its check while `checking`, its commit while `committing`;
 * nothing in any other state, so a pass run twice (a job retried, a sweep after a restart) does
 * no harm. `rethrow`: a commit's refusal is the request's answer too.
 */
export async function runPass(services: Services, importCode: string, opts: { rethrow?: boolean } = {}) {
  const [row] = await services.db.select().from(imports).where(eq(imports.importCode, importCode));
  if (!row?.principal) return;
  try {
    if (row.status === 'checking') await checkPass(services, row);
    else if (row.status === 'committing') await commitPass(services, row, opts.rethrow ?? false);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // Nothing was written (a commit's transaction rolled back); the import must not wait forever
    // on a pass that will not come. Its file stays: it can be checked again.
    await failImport(services.db, importCode, ['checking', 'committing'], UNEXPECTED_FAILURE);
    throw err;
  }
}

/** Why an import failed on something other than its file or its rows (a lost database connection). */
export const UNEXPECTED_FAILURE =
  'The import stopped on an unexpected error; nothing was written. Check it again';

async function openRun(services: Services, db: Executor, row: ImportRow, progress: ImportRun['progress']) {
  if (!row.principal) throw new Error('An import without its principal');
  const session = sessionOf(row.principal);
  const data = await fileOf(db, row.importCode);
  const sheet = await openSheet({ data, fileName: row.fileName }, row.sheet ?? undefined);
  const run: ImportRun = {
    services,
    session,
    actor: { userCode: session.userCode, username: session.username },
    importCode: row.importCode,
    module: row.module,
    mode: row.mode,
    sheet,
    mapping: row.mapping,
    fields: await fieldsOf(db, row.module),
    skipErrors: row.skipErrors,
    progress,
  };
  return run;
}

/** Progress is stored at most this often. */
const PROGRESS_MS = 1000;

async function checkPass(services: Services, row: ImportRow) {
  const db = services.db;
  const startedAt = performance.now();
  let stored = 0;
  const progress: ImportRun['progress'] = async ({ checked }) => {
    if (checked === undefined || performance.now() - stored < PROGRESS_MS) return;
    stored = performance.now();
    const [now] = await db
      .update(imports)
      .set({ checkedRows: checked, rowsPerSecond: rate(checked, startedAt) })
      .where(eq(imports.importCode, row.importCode))
      .returning({ status: imports.status, cancel: imports.cancelRequested });
    if (now?.status !== 'checking' || now.cancel) throw new ImportCancelled();
  };
  try {
    const run = await openRun(services, db, row, progress);
    const outcome = await importerOf(row.module).check(run);
    await db
      .update(imports)
      .set({
        status: 'ready',
        counts: outcome.counts,
        errors: outcome.errors,
        errorCount: outcome.errorCount,
        sample: outcome.sample,
        plan: outcome.plan,
        layout: outcome.layout ?? null,
        checkedRows: outcome.counts.rows,
        rowsPerSecond: rate(outcome.counts.rows, startedAt),
        updatedAt: new Date(),
      })
      .where(and(eq(imports.importCode, row.importCode), eq(imports.status, 'checking')));
  } catch (err) {
    if (err instanceof ImportCancelled) return;
    if (!(err instanceof ApiError)) throw err;
    await failImport(db, row.importCode, ['checking'], err);
  }
}

async function commitPass(services: Services, row: ImportRow, rethrow: boolean) {
  const { db } = services;
  const embedded = !services.config.DATABASE_URL;
  const state = { written: 0, startedAt: performance.now() };
  live.set(row.importCode, state);
  let lastCheck = 0;
  try {
    await db.transaction(async (tx) => {
      // One commit of an import at a time: a second pass of it waits here until the first ends,
      // then finds it done. An advisory lock, not the row's: progress is written to the row meanwhile.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import:${row.importCode}`}))`);
      const [locked] = await tx.select().from(imports).where(eq(imports.importCode, row.importCode));
      if (locked?.status !== 'committing') return;
      const progress: ImportRun['progress'] = async ({ written }) => {
        if (written !== undefined) state.written = written;
        if (performance.now() - lastCheck < PROGRESS_MS) return;
        lastCheck = performance.now();
        // Read through the transaction, which sees a cancel committed by any instance since.
        const [now] = await tx
          .select({ cancel: imports.cancelRequested })
          .from(imports)
          .where(eq(imports.importCode, row.importCode));
        if (now?.cancel) throw new ImportCancelled();
        // Other instances see the progress on PostgreSQL; the embedded database has one connection.
        if (!embedded && written !== undefined) {
          await db
            .update(imports)
            .set({ writtenRows: written })
            .where(eq(imports.importCode, row.importCode));
        }
      };
      const run = await openRun(services, tx, locked, progress);
      const outcome = await importerOf(locked.module).commit(
        run,
        tx,
        locked.plan ?? { updates: {}, creates: [] },
      );
      await recordAudit(tx, {
        action: 'IMPORT',
        collection: collectionOf(locked.module),
        recordCode: locked.importCode,
        after: {
          fileName: locked.fileName,
          module: locked.module,
          mode: locked.mode,
          skipErrors: locked.skipErrors,
          ...outcome.counts,
        },
        actor: run.actor,
      });
      await endImport(tx, locked.importCode, {
        status: 'committed',
        counts: outcome.counts,
        writtenRows: outcome.counts.create + outcome.counts.update,
        rowsPerSecond: rate(outcome.counts.rows, state.startedAt),
        committedAt: new Date(),
        message: null,
      });
    });
  } catch (err) {
    if (err instanceof ImportCancelled) {
      await endImport(db, row.importCode, { status: 'cancelled', message: IMPORT_MESSAGES.cancelled });
      return;
    }
    if (!(err instanceof ApiError)) throw err;
    await failImport(db, row.importCode, ['committing'], err);
    if (rethrow) throw err;
  } finally {
    live.delete(row.importCode);
  }
}
