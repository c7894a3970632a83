import {
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  type ImportCounts,
  type ImportError,
  type ImportField,
  type ImportRowAction,
  type ImportSampleRow,
  importFieldsOf,
  type ResourceKey,
} from '@wfc/contract';
import { and, getTableColumns } from 'drizzle-orm';
import type { z } from 'zod';
import { anyOf } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import type { ImportPlan } from '../../db/schema/index.ts';
import { ApiError, zodFieldErrors } from '../../http/envelope.ts';
import { toApiError } from '../../http/errors.ts';
import { fetchRecords } from '../../resources/read.ts';
import type { Row, ServerResource } from '../../resources/server-resource.ts';
import {
  createIn,
  createManyIn,
  createsInSets,
  outOfReach,
  type Reached,
  updateBodyOf,
  updateIn,
  type WriterContext,
  writeContext,
  writeReach,
} from '../../resources/write.ts';
import type { CheckOutcome, CommitOutcome, ImportRun, ModuleImporter } from '../importer.ts';
import { columnsOf } from '../mapping.ts';
import { type CellValue, canonical, getPath, readCell, rowError, sampleText, setPath } from './cells.ts';
import { findCodes, findCodesByName, type KeyValue, keyOf, nameKey, naturalKey } from './lookup.ts';
import { eachRow } from './turns.ts';

/** Records read back in one statement. */
const FETCH_CHUNK = 500;
/** Creates written in one statement, where the module allows it (`createsInSets`). */
const SET_ROWS = 1000;
/** Rows between two progress reports. */
const PROGRESS_EVERY = 500;

/** A row of the file once read, resolved and checked against the records there are. */
interface PlannedRow {
  row: number;
  action: ImportRowAction;
  errors: ImportError[];
  /** The body as its schema parsed it (create or update). */
  input?: unknown;
  /** The record it updates, as it stands. */
  existing?: Row;
  code?: string;
  version?: number;
  /** The natural key, as `keyOf` writes it. */
  key: string;
  /** What the file names each reference by, for the sample. */
  named: Map<string, string>;
  /** The row's cells as read, which a sample shows of a row that has no body. */
  values: ReadonlyMap<string, CellValue>;
}

interface Prepared {
  rows: PlannedRow[];
  /** Errors of the file as a whole (a natural key column not mapped). */
  fileErrors: ImportError[];
}

/**
 * The importer of a registry module: each row becomes the body the module's form would send, its
 * references found by natural key, and is checked and written by the same schema and hooks as
 * `Create{Label}` and `Update{Label}` (write.ts), inside one transaction.
 */
export function registryImporter(
  res: ServerResource,
  registry: ReadonlyMap<ResourceKey, ServerResource>,
): ModuleImporter {
  const { def } = res;
  const fields = importFieldsOf(def);
  const ownKey = naturalKey(res);
  const keyFields = def.import?.key ?? [];
  const targetOf = (key: ResourceKey) => {
    const target = registry.get(key);
    if (!target) throw new Error(`${def.label}: no server definition of ${key}`);
    return naturalKey(target);
  };

  /** Reads every row of the file and plans it; nothing is written. */
  async function prepare(run: ImportRun, db: Executor, writer: WriterContext): Promise<Prepared> {
    const headers = run.sheet.headers;
    const columns = columnsOf(run.mapping);
    const fileErrors: ImportError[] = keyFields.flatMap((k) => {
      if (columns.has(k)) return [];
      const label = fields.find((f) => f.key === k)?.label ?? k;
      return [{ row: 1, column: null, message: `${IMPORT_MESSAGES.unmappedKey} ${label}` }];
    });
    const mapped = fields.filter((f) => columns.has(f.key));

    // 1. Every row's cells, read as their fields' kinds.
    const read: { row: number; values: Map<string, CellValue>; errors: ImportError[] }[] = [];
    for await (const line of run.sheet.rows()) {
      const values = new Map<string, CellValue>();
      const errors: ImportError[] = [];
      for (const f of mapped) {
        const index = columns.get(f.key) ?? -1;
        const got = readCell(f, line.cells[index] ?? '');
        if ('error' in got)
          errors.push({ row: line.row, column: headers[index] ?? null, message: got.error });
        else values.set(f.key, got.value);
      }
      read.push({ row: line.row, values, errors });
      if (read.length % PROGRESS_EVERY === 0) await run.progress({ checked: read.length });
    }

    // 2. References, by natural key, a field at a time: the ones a field is `within` come first.
    const named = read.map(() => new Map<string, string>());
    for (const f of mapped.filter((m) => m.reference)) await resolve(db, f, read, named, headers, columns);

    // 3. The records the rows name by their own natural key, as far as the importer reaches.
    const keys = read.map((r) => rowKey(r.values));
    const reached = writeReach(res, writer, def.permissions.update);
    const codes = await findCodes(
      db,
      ownKey,
      keys.filter((k): k is KeyValue => k !== null),
    );
    const existing = await recordsOf(db, [...new Set(codes.values())]);
    const reachable = reached.where ? await reachableCodes(db, [...codes.values()], reached) : undefined;

    // 4. Each row: its action, its body as the schema parses it, and what changes.
    const seen = new Map<string, number>();
    const planRow = (r: (typeof read)[number], i: number): PlannedRow => {
      const keyValue = keys[i];
      const key = keyValue ? keyOf(keyValue) : `row:${r.row}`;
      const planned: PlannedRow = {
        row: r.row,
        action: 'error',
        errors: [...r.errors],
        key,
        named: named[i] ?? new Map(),
        values: r.values,
      };
      const lastKey = keyFields.at(-1) ?? '';
      const keyColumn = headers[columns.get(lastKey) ?? -1] ?? null;
      const earlier = seen.get(key);
      if (keyValue && earlier !== undefined) {
        planned.errors.push({
          row: r.row,
          column: keyColumn,
          message: `${IMPORT_MESSAGES.duplicateKey} (row ${earlier})`,
        });
      }
      if (keyValue) seen.set(key, r.row);
      const code = keyValue ? codes.get(key) : undefined;
      const record = code ? existing.get(code) : undefined;
      if (fileErrors.length) return planned;
      const what = `${def.label} ${keyValue?.value ?? ''}`.trim();
      if (record && code) {
        if (run.mode === 'create') {
          planned.errors.push({
            row: r.row,
            column: keyColumn,
            message: `${what} ${IMPORT_MESSAGES.exists}`,
          });
          return planned;
        }
        if (reachable && !reachable.has(code)) {
          planned.errors.push({ row: r.row, column: null, message: outOfReach(res, 'change').message });
          return planned;
        }
        return planUpdate(planned, r.values, record, code, headers, columns);
      }
      if (run.mode === 'update') {
        planned.errors.push({ row: r.row, column: keyColumn, message: `${what} ${IMPORT_MESSAGES.missing}` });
        return planned;
      }
      return planCreate(planned, r.values, headers, columns);
    };
    const rows: PlannedRow[] = [];
    await eachRow(read, (r, i) => rows.push(planRow(r, i)));
    await checkUnique(db, rows, headers, columns);
    // A row's errors in the file's order of columns, the row's own first.
    const place = (e: ImportError) => (e.column === null ? -1 : headers.indexOf(e.column));
    for (const r of rows) r.errors.sort((a, b) => place(a) - place(b));
    return { rows, fileErrors };
  }

  /**
   * The module's unique values besides its natural key (`unique` in its server definition: a user
   * linked to one employee at most), against the records there are and the file's other rows, so
   * that the preview says what the database would refuse at commit.
   */
  async function checkUnique(
    db: Executor,
    rows: PlannedRow[],
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ) {
    const tableColumns = getTableColumns(res.table);
    for (const u of res.unique ?? []) {
      const column = tableColumns[u.field];
      if (!column || !columns.has(u.field) || column === ownKey.column) continue;
      const uniqueValue = (r: PlannedRow) => {
        const v = r.input ? getPath(r.input, u.field) : undefined;
        return typeof v === 'string' && v ? v.toLowerCase() : undefined;
      };
      const writing: { r: PlannedRow; value: string }[] = [];
      await eachRow(rows, (r) => {
        const value = r.action === 'create' || r.action === 'update' ? uniqueValue(r) : undefined;
        if (value) writing.push({ r, value });
      });
      const holders = await findCodes(
        db,
        { res, column },
        writing.map(({ value }) => ({ parent: null, value })),
      );
      const firstRow = new Map<string, number>();
      const at = headers[columns.get(u.field) ?? -1] ?? null;
      await eachRow(writing, ({ r, value }) => {
        const holder = holders.get(keyOf({ parent: null, value }));
        const earlier = firstRow.get(value);
        if ((holder && holder !== r.code) || earlier !== undefined) {
          const message = earlier !== undefined ? `${u.message} (row ${earlier})` : u.message;
          r.errors.push({ row: r.row, column: at, message });
          r.action = 'error';
        } else firstRow.set(value, r.row);
      });
    }
  }

  /** The row's natural key: its parent's code from the row, and the value it names the record by. */
  function rowKey(values: ReadonlyMap<string, CellValue>): KeyValue | null {
    const value = values.get(keyFields.at(-1) ?? '');
    if (typeof value !== 'string' || value === '') return null;
    const parentField = keyFields.length > 1 ? keyFields[0] : undefined;
    const parent = parentField === undefined ? null : values.get(parentField);
    if (parentField !== undefined && (typeof parent !== 'string' || parent === '')) return null;
    return { parent: typeof parent === 'string' ? parent : null, value };
  }

  /** Replaces the names a reference field's cells hold by the codes of the records they name. */
  async function resolve(
    db: Executor,
    field: ImportField,
    read: { row: number; values: Map<string, CellValue>; errors: ImportError[] }[],
    named: Map<string, string>[],
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ) {
    const target = targetOf(field.reference as ResourceKey);
    const parentOf = (values: ReadonlyMap<string, CellValue>) => {
      if (!target.parent || !field.within) return null;
      const p = values.get(field.within);
      return typeof p === 'string' ? p : null;
    };
    const wanted: KeyValue[] = [];
    await eachRow(read, (r) => {
      const v = r.values.get(field.key);
      const parent = parentOf(r.values);
      for (const value of Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : [])
        wanted.push({ parent, value });
    });
    const found = await findCodes(db, target, wanted);
    // A value no record has as its natural key may be the name an export wrote (a state's country).
    const byName = nameKey(target);
    const unnamed = wanted.filter((w) => !found.has(keyOf(w)));
    if (byName && unnamed.length) {
      for (const [k, code] of await findCodesByName(db, byName, unnamed))
        if (!found.has(k)) found.set(k, code);
    }
    const label = target.res.def.label;
    const column = headers[columns.get(field.key) ?? -1] ?? null;
    const parentField = fields.find((f) => f.key === field.within);
    await eachRow(read, (r, i) => {
      const v = r.values.get(field.key);
      const parent = parentOf(r.values);
      const within = target.parent && field.within ? parent : null;
      const parentName = field.within ? named[i]?.get(field.within) : undefined;
      const inParent =
        within !== null && parentField && parentName
          ? { label: parentField.label, name: parentName }
          : undefined;
      const codeOf = (value: string) => {
        const code = found.get(keyOf({ parent: within, value }));
        if (!code) r.errors.push({ row: r.row, column, message: notFoundMessage(label, value, inParent) });
        return code ?? '';
      };
      if (Array.isArray(v)) {
        named[i]?.set(field.key, v.join('; '));
        r.values.set(field.key, v.map(codeOf));
      } else if (typeof v === 'string' && v) {
        named[i]?.set(field.key, v);
        r.values.set(field.key, codeOf(v));
      }
    });
  }

  /** The records with these codes, as an update body is made of them. */
  async function recordsOf(db: Executor, codes: readonly string[]) {
    const out = new Map<string, Row>();
    for (let i = 0; i < codes.length; i += FETCH_CHUNK) {
      const { records } = await fetchRecords(db, res, {
        where: anyOf(res.codeColumn, codes.slice(i, i + FETCH_CHUNK)),
      });
      if (res.attach) await res.attach(db, records, { populate: true });
      for (const r of records) {
        const code = r[def.code];
        if (typeof code === 'string') out.set(code, r);
      }
    }
    return out;
  }

  /** Of these codes, those the importer may update (a scoped role reaches its team's only). */
  async function reachableCodes(db: Executor, codes: readonly string[], reached: Reached) {
    const out = new Set<string>();
    for (let i = 0; i < codes.length; i += FETCH_CHUNK) {
      const { records } = await fetchRecords(db, res, {
        shape: { code: res.codeColumn },
        where: and(anyOf(res.codeColumn, codes.slice(i, i + FETCH_CHUNK)), reached.where),
        present: false,
      });
      for (const r of records) if (typeof r.code === 'string') out.add(r.code);
    }
    return out;
  }

  function parsed(
    schema: z.ZodType | undefined,
    body: unknown,
    planned: PlannedRow,
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ) {
    if (!schema) throw new Error(`${def.label} has no schema for this import`);
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    // A column already in error (a reference that named nothing) is not blamed twice.
    const blamed = new Set(planned.errors.map((e) => e.column));
    for (const e of zodFieldErrors(result.error)) {
      const error = rowError(planned.row, e.field, e.message, headers, columns);
      if (!blamed.has(error.column)) planned.errors.push(error);
    }
    return undefined;
  }

  function planCreate(
    planned: PlannedRow,
    values: ReadonlyMap<string, CellValue>,
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ): PlannedRow {
    const body: Record<string, unknown> = {};
    for (const [key, value] of values) if (value !== undefined) setPath(body, key, value);
    const input = parsed(def.createSchema, body, planned, headers, columns);
    if (planned.errors.length) return planned;
    return { ...planned, action: 'create', input };
  }

  /**
   * The update body a record stands for: the form's fields, and those only an import names (a
   * profile's, whose form is laid out by hand), so that a column left out keeps what is stored.
   */
  function storedBodyOf(record: Row): Record<string, unknown> {
    const body = updateBodyOf(res, record);
    for (const f of def.import?.fields ?? []) {
      const value = getPath(record, f.name);
      if (value !== undefined && value !== null) setPath(body, f.name, value);
    }
    return body;
  }

  function planUpdate(
    planned: PlannedRow,
    values: ReadonlyMap<string, CellValue>,
    record: Row,
    code: string,
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ): PlannedRow {
    const stored = storedBodyOf(record);
    const body = structuredClone(stored);
    for (const [key, value] of values) if (value !== undefined) setPath(body, key, value);
    const input = parsed(def.updateSchema, body, planned, headers, columns);
    const version = typeof record.version === 'number' ? record.version : undefined;
    const base = { ...planned, existing: record, code, version };
    if (planned.errors.length) return base;
    const before = def.updateSchema?.safeParse(stored);
    const same = before?.success && canonical(before.data) === canonical(input);
    return { ...base, action: same ? 'unchanged' : 'update', input };
  }

  /**
   * The module's own rules for each planned row (delegation, what its hooks check), run as a write
   * would run them but writing nothing: what a commit would refuse, the preview shows.
   */
  async function checkHooks(
    db: Executor,
    writer: WriterContext,
    rows: PlannedRow[],
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ) {
    if (!res.authorize && !res.validate) return;
    for (const [action, permission] of [
      ['create', def.permissions.create],
      ['update', def.permissions.update],
    ] as const) {
      const reached = writeReach(res, writer, permission);
      const wctx = writeContext(writer, db, reached.scope);
      for (const r of rows) {
        if (r.action !== action) continue;
        try {
          await res.authorize?.(r.input as never, wctx, r.existing);
          await res.validate?.(r.input as never, wctx, r.existing);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          addRefusal(r, err, headers, columns);
        }
      }
    }
  }

  function addRefusal(
    r: PlannedRow,
    err: ApiError,
    headers: readonly string[],
    columns: ReadonlyMap<string, number>,
  ) {
    const errors = err.errors?.length
      ? err.errors
      : [{ field: refusedField(r, err.message, columns), message: err.message }];
    for (const e of errors) r.errors.push(rowError(r.row, e.field, e.message, headers, columns));
    r.action = 'error';
  }

  /**
   * The field a refusal that names none concerns, so that the row's error stands at its column:
   * the field whose delegation says it in these words (one's own role, disabling oneself), or else
   * the one mapped field the row sets whose choices delegation limits (a role to assign,
   * permissions to grant). None when no single field is it: the refusal is of the row.
   */
  function refusedField(r: PlannedRow, message: string, columns: ReadonlyMap<string, number>) {
    const delegated = def.formFields.filter((f) => f.delegation && columns.has(f.name));
    const said = delegated.find((f) =>
      [f.delegation?.lockedOnSelf, f.delegation?.offOnSelf, f.delegation?.heldOnly].includes(message),
    );
    if (said) return said.name;
    const stored = r.existing ? storedBodyOf(r.existing) : undefined;
    const limited = delegated.filter((f) => {
      if (!f.delegation?.listFlag && !f.delegation?.heldOnly) return false;
      const value = getPath(r.input, f.name);
      return value !== undefined && (!stored || canonical(value) !== canonical(getPath(stored, f.name)));
    });
    return limited.length === 1 ? limited[0]?.name : undefined;
  }

  function outcome(
    prepared: Prepared,
    skipped: number,
  ): { counts: ImportCounts; errors: ImportError[]; errorCount: number } {
    const counts: ImportCounts = {
      rows: prepared.rows.length,
      create: 0,
      update: 0,
      unchanged: 0,
      errors: 0,
      skipped,
    };
    const errors: ImportError[] = [...prepared.fileErrors];
    for (const r of prepared.rows) {
      if (prepared.fileErrors.length || r.action === 'error') counts.errors++;
      else counts[r.action]++;
      for (const e of r.errors) if (errors.length < IMPORT_LIMITS.storedErrors) errors.push(e);
    }
    const errorCount = prepared.fileErrors.length + prepared.rows.reduce((n, r) => n + r.errors.length, 0);
    return { counts, errors, errorCount };
  }

  function sampleOf(prepared: Prepared, mapping: readonly (string | null)[]): ImportSampleRow[] {
    const keys = mapping.filter((k): k is string => k !== null);
    return prepared.rows.slice(0, IMPORT_LIMITS.sampleRows).map((r) => ({
      row: r.row,
      action: r.action,
      values: Object.fromEntries(
        keys.flatMap((k) => {
          const field = fields.find((f) => f.key === k);
          if (!field || field.kind === 'password') return field ? [[k, r.input ? '••••••' : '']] : [];
          const shown = field.reference ? r.named.get(k) : r.input ? getPath(r.input, k) : r.values.get(k);
          return [[k, sampleText(shown)]];
        }),
      ),
    }));
  }

  function planOf(prepared: Prepared): ImportPlan {
    const updates: Record<string, number> = {};
    const creates: string[] = [];
    for (const r of prepared.rows) {
      if (r.code && r.version !== undefined) updates[r.code] = r.version;
      // A create the module's rules refused is planned all the same: a commit that skips it must
      // not take it for a record that came to be since.
      if (!r.code && r.input !== undefined) creates.push(r.key);
    }
    return { updates, creates };
  }

  return {
    async fields() {
      return fields;
    },

    async check(run): Promise<CheckOutcome> {
      const db = run.services.db;
      const writer = writerOf(run);
      const prepared = await prepare(run, db, writer);
      const headers = run.sheet.headers;
      const columns = columnsOf(run.mapping);
      if (!prepared.fileErrors.length) await checkHooks(db, writer, prepared.rows, headers, columns);
      await run.progress({ checked: prepared.rows.length });
      return {
        ...outcome(prepared, 0),
        sample: sampleOf(prepared, run.mapping),
        plan: planOf(prepared),
      };
    },

    async commit(run, tx, plan): Promise<CommitOutcome> {
      const writer = writerOf(run);
      const prepared = await prepare(run, tx, writer);
      const headers = run.sheet.headers;
      const columns = columnsOf(run.mapping);
      if (prepared.fileErrors.length) throw rowsRefused(400, IMPORT_MESSAGES.hasErrors, prepared.fileErrors);
      // What changed since the preview: a record it planned to update that moved on, went, or
      // came to be where it planned to create one.
      const creates = new Set(plan.creates);
      const stale: ImportError[] = [];
      for (const r of prepared.rows) {
        if (r.action === 'error') continue;
        const moved = r.code ? plan.updates[r.code] !== r.version : !creates.has(r.key);
        if (moved)
          stale.push({ row: r.row, column: null, message: `${def.label} changed since the preview` });
      }
      if (stale.length) throw rowsRefused(409, IMPORT_MESSAGES.stale, stale);
      const failing = prepared.rows.filter((r) => r.action === 'error');
      if (failing.length && !run.skipErrors) {
        throw rowsRefused(
          400,
          IMPORT_MESSAGES.hasErrors,
          failing.flatMap((r) => r.errors),
        );
      }
      const reachedCreate = writeReach(res, writer, def.permissions.create);
      const reachedUpdate = writeReach(res, writer, def.permissions.update);
      let written = 0;
      let skipped = failing.length;
      const refused: ImportError[] = [];
      /** One row in a savepoint of its own: a refused row leaves the transaction usable for the others. */
      const writeRow = async (r: PlannedRow) => {
        try {
          await tx.transaction(async (sp) => {
            if (r.action === 'create') await createIn(res, writer, sp, reachedCreate, r.input as never);
            else {
              const target = { code: r.code ?? '', version: r.version };
              await updateIn(res, writer, sp, reachedUpdate, target, async () => r.input as never);
            }
          });
        } catch (err) {
          const refusal = toApiError(err);
          if (refusal.statusCode >= 500) throw err;
          // A version that moved on (the refusal carries the record as it now stands).
          if (refusal.statusCode === 409 && r.action === 'update' && refusal.answer !== undefined) {
            stale.push({ row: r.row, column: null, message: refusal.message });
            return;
          }
          addRefusal(r, refusal, headers, columns);
          refused.push(...r.errors);
          skipped++;
          return;
        }
        written++;
        if (written % PROGRESS_EVERY === 0) await run.progress({ written });
      };
      const toCreate = prepared.rows.filter((r) => r.action === 'create');
      if (createsInSets(res)) {
        // Many to a statement; a chunk a statement refuses (a value another record holds) is
        // written again a row at a time, to name the rows.
        for (let i = 0; i < toCreate.length; i += SET_ROWS) {
          const chunk = toCreate.slice(i, i + SET_ROWS);
          try {
            await tx.transaction((sp) =>
              createManyIn(
                res,
                writer,
                sp,
                reachedCreate,
                chunk.map((r) => r.input as never),
              ),
            );
            written += chunk.length;
            await run.progress({ written });
          } catch (err) {
            if (toApiError(err).statusCode >= 500) throw err;
            for (const r of chunk) await writeRow(r);
          }
        }
      } else for (const r of toCreate) await writeRow(r);
      for (const r of prepared.rows) if (r.action === 'update') await writeRow(r);
      if (stale.length) throw rowsRefused(409, IMPORT_MESSAGES.stale, stale);
      if (refused.length && !run.skipErrors) throw rowsRefused(400, IMPORT_MESSAGES.hasErrors, refused);
      await run.progress({ written });
      return { counts: { ...outcome(prepared, skipped).counts, skipped } };
    },
  };
}

/** What a write needs of the importer: their session as the pass has it, no file. */
const writerOf = (run: ImportRun): WriterContext => ({
  services: run.services,
  session: run.session,
  actor: run.actor,
  files: [],
});

/** A refusal naming the rows (the first IMPORT_LIMITS.listedErrors of them), as an import's answer does. */
export function rowsRefused(status: number, message: string, errors: readonly ImportError[]): ApiError {
  return new ApiError(
    status,
    message,
    errors.slice(0, IMPORT_LIMITS.listedErrors).map((e) => ({
      field: `row ${e.row}`,
      message: e.column ? `${e.column}: ${e.message}` : e.message,
    })),
  );
}

/** Pure: a reference that names no record, within its parent where the key has one. */
export const notFoundMessage = (label: string, value: string, within?: { label: string; name: string }) =>
  `${label} '${value}' not found${within ? ` in ${within.label} '${within.name}'` : ''}`;
