import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type FieldError,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  type ImportCounts,
  type ImportError,
  type ImportMode,
  type ImportSampleRow,
  localIsoDate,
  MAX_PERFORMANCE_ROWS,
  PERFORMANCE_MESSAGES,
  type PerformanceRowInput,
  type ScoreLayout,
  scoreImportFields,
} from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { ImportPlan } from '../../db/schema/index.ts';
import { ApiError } from '../../http/envelope.ts';
import { listSkills } from '../../performance/grid/read.ts';
import { saveReach } from '../../performance/reach.ts';
import { savePerformances } from '../../performance/save/save.ts';
import { jsonParam } from '../../performance/sql.ts';
import type { SheetRow } from '../files/sheet.ts';
import type { CheckOutcome, CommitOutcome, ImportRun, ModuleImporter } from '../importer.ts';
import { type ScoreColumns, scoreLayout } from './layout.ts';
import { type EmployeeRef, groupAction, type ScoreGroup, ScoreRowReader } from './rows.ts';

/*
 * The score importer (docs/product.md, "Importing scores"): a file's rows read into the grid's
 * rows, one per employee and date, checked by the grid's rules and saved through its bulk save,
 * so that averages, rollups, audit entries and conflicts are the grid's own.
 */

/** Rows read between two lookups of their employees (one statement), and between progress reports. */
const CHUNK_ROWS = 1_000;
/** Groups whose saved rows one statement reads, compared between two turns of the event loop. */
const SAVED_CHUNK = 1_000;
/**
 * Rows given to one bulk save. It computes a part's audit entries and skill rollups in one
 * stretch each, holding the event loop in proportion to the part (about 0.2 s a thousand rows of
 * 20 skills on a busy two-core machine), and keeps them in memory until it returns; smaller parts
 * cost more statements. Well within the grid's own bound on a batch.
 */
const WRITE_ROWS = Math.min(2_000, MAX_PERFORMANCE_ROWS);

type Action = 'create' | 'update' | 'unchanged';

/** A group as the check found it against what is saved. */
interface CheckedGroup {
  group: ScoreGroup;
  action: Action;
  /** The saved row's code and version; absent when none is saved. */
  performanceCode?: string;
  version?: number;
}

interface Analysis {
  layout?: ScoreLayout;
  /** Errors of the file as a whole (its mapping): no row can be read. */
  fileErrors: boolean;
  reader?: ScoreRowReader;
  groups: CheckedGroup[];
  counts: ImportCounts;
  errors: ImportError[];
  errorCount: number;
  sample: ImportSampleRow[];
}

const emptyCounts = (): ImportCounts => ({
  rows: 0,
  create: 0,
  update: 0,
  unchanged: 0,
  errors: 0,
  skipped: 0,
});

/** Employees by Employee Id (as `matchKey` folds it), with whether the importer reaches them. */
async function lookUpEmployees(
  db: Executor,
  keys: readonly string[],
  within: ReturnType<typeof saveReach>['within'],
) {
  if (!keys.length) return [];
  return rowsOf<EmployeeRef & { key: string }>(
    db,
    sql`select x.k as key, e.employee_code as "employeeCode", e.employee_id as "employeeId",
          (${within ?? sql`true`}) as reached
        from (${textSet(keys)}) as x(k)
        join employees e on lower(e.employee_id) = x.k`,
  );
}

/** The saved rows of these groups: code, version and scores (by skill code). */
async function lookUpSaved(db: Executor, groups: readonly ScoreGroup[]) {
  const keys = groups.map((g, i) => ({ i, e: g.employeeCode, d: g.date }));
  return rowsOf<{ i: number; code: string; version: number; scores: Record<string, number> | string }>(
    db,
    sql`select x.i, p.performance_code as code, p.version,
          coalesce((select jsonb_object_agg(ps.skill_code, ps.points) from performance_scores ps
                    where ps.performance_code = p.performance_code and ps.points is not null), '{}'::jsonb) as scores
        from jsonb_to_recordset(${jsonParam(keys)}) as x(i int, e text, d text)
        join performances p on p.employee_code = x.e and p.date = x.d::date`,
  );
}

/**
 * Pure: why the import's mode refuses a row, or null: only creating refuses a row that would
 * change saved scores, only updating one that would create a record. A row that changes nothing
 * is refused by neither, so a file exported from the console imports back in any mode.
 */
function modeRefusal(mode: ImportMode, action: Action): string | null {
  if (mode === 'create' && action === 'update') return IMPORT_MESSAGES.exists;
  if (mode === 'update' && action === 'create') return IMPORT_MESSAGES.missing;
  return null;
}

/** Pure: two lists of errors, each in row order, as one in row order. */
function mergeByRow(a: readonly ImportError[], b: readonly ImportError[]): ImportError[] {
  if (!b.length) return [...a];
  const out: ImportError[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x && (!y || x.row <= y.row)) {
      out.push(x);
      i++;
    } else if (y) {
      out.push(y);
      j++;
    }
  }
  return out;
}

/** A file-level check: every row is in error, as none can be read. */
async function unreadable(run: ImportRun, errors: ImportError[], layout?: ScoreLayout): Promise<Analysis> {
  let rows = 0;
  for await (const _ of run.sheet.rows()) rows++;
  return {
    ...(layout ? { layout } : {}),
    fileErrors: true,
    groups: [],
    counts: { ...emptyCounts(), rows, errors: rows },
    errors,
    errorCount: errors.length,
    sample: [],
  };
}

/**
 * Reads and checks every row, in `db` (the commit's transaction, or the database for a
 * preview): the check and the commit are this same pass, so the commit writes what it checks
 * then, not what was checked before.
 */
async function analyse(run: ImportRun, db: Executor): Promise<Analysis> {
  const found = scoreLayout(run.mapping, run.fields);
  if ('errors' in found) return unreadable(run, found.errors);
  const columns: ScoreColumns = found;
  const skills = await listSkills(db);
  const known = new Set(skills.map((s) => s.skillCode));
  const missing = columns.skills.filter((s) => !known.has(s.skillCode));
  if (missing.length) {
    const errors = missing.map((s) => ({
      row: 1,
      column: run.sheet.headers[s.index] ?? null,
      message: PERFORMANCE_MESSAGES.skillNotFound,
    }));
    return unreadable(run, errors, columns.layout);
  }

  const reach = saveReach(run.session);
  const reader = new ScoreRowReader(
    columns,
    run.sheet.headers,
    skills,
    localIsoDate(new Date()),
    reach.within === undefined,
  );
  const employees = new Map<string, EmployeeRef | null>();
  const errors: ImportError[] = [];
  let errorCount = 0;
  let errorRows = 0;
  let rows = 0;
  const sampled: {
    row: number;
    values: Record<string, string>;
    group: ScoreGroup | null;
    failed: boolean;
  }[] = [];

  const flush = async (chunk: SheetRow[]) => {
    const keys = new Set<string>();
    for (const r of chunk) {
      const key = reader.employeeKeyOf(r.cells);
      if (key && !employees.has(key)) keys.add(key);
    }
    for (const e of await lookUpEmployees(db, [...keys], reach.within)) employees.set(e.key, e);
    for (const key of keys) if (!employees.has(key)) employees.set(key, null);
    for (const r of chunk) {
      const read = reader.read(r, (key) => employees.get(key));
      if (read.errors.length) {
        errorRows++;
        errorCount += read.errors.length;
        for (const e of read.errors) if (errors.length < IMPORT_LIMITS.storedErrors) errors.push(e);
      }
      if (sampled.length < IMPORT_LIMITS.sampleRows) {
        sampled.push({ row: r.row, values: read.values, group: read.group, failed: read.errors.length > 0 });
      }
    }
    rows += chunk.length;
    await run.progress({ checked: rows });
  };

  let chunk: SheetRow[] = [];
  for await (const r of run.sheet.rows()) {
    chunk.push(r);
    if (chunk.length >= CHUNK_ROWS) {
      await flush(chunk);
      chunk = [];
    }
  }
  if (chunk.length) await flush(chunk);

  const all = [...reader.groups.values()];
  const checked: CheckedGroup[] = [];
  const counts = { ...emptyCounts(), rows };
  const modeErrors: ImportError[] = [];
  for (let start = 0; start < all.length; start += SAVED_CHUNK) {
    if (start > 0) await nextTurn();
    const part = all.slice(start, start + SAVED_CHUNK);
    const saved = new Map((await lookUpSaved(db, part)).map((s) => [s.i, s]));
    part.forEach((group, i) => {
      const s = saved.get(i);
      const scores = s
        ? new Map(Object.entries(typeof s.scores === 'string' ? JSON.parse(s.scores) : s.scores))
        : undefined;
      const action = groupAction(
        reader.inputOf(group).performancePerSkill,
        scores as Map<string, number> | undefined,
      );
      const refused = modeRefusal(run.mode, action);
      if (refused) {
        const message = `Performance of ${group.employeeId} on ${group.date} ${refused}`;
        for (const row of group.rows) modeErrors.push({ row, column: null, message });
        return;
      }
      counts[action]++;
      checked.push({ group, action, ...(s ? { performanceCode: s.code, version: s.version } : {}) });
    });
  }
  // What the mode refuses is known only now: those rows join the others' errors in row order.
  modeErrors.sort((x, y) => x.row - y.row);
  const allErrors = mergeByRow(errors, modeErrors).slice(0, IMPORT_LIMITS.storedErrors);
  counts.errors = errorRows + modeErrors.length;
  const actions = new Map(checked.map((c) => [c.group, c.action]));
  const sample: ImportSampleRow[] = sampled.map((s) => ({
    row: s.row,
    action: s.failed || !s.group ? 'error' : (actions.get(s.group) ?? 'error'),
    values: s.values,
  }));
  return {
    layout: columns.layout,
    fileErrors: false,
    reader,
    groups: checked,
    counts,
    errors: allErrors,
    errorCount: errorCount + modeErrors.length,
    sample,
  };
}

/** The plan a commit holds the file to: the version of each saved row it changes, the rows it creates. */
function planOf(groups: readonly CheckedGroup[]): ImportPlan {
  const plan: ImportPlan = { updates: {}, creates: [] };
  for (const g of groups) {
    if (g.action === 'update' && g.performanceCode && g.version !== undefined)
      plan.updates[g.performanceCode] = g.version;
    else if (g.action === 'create') plan.creates.push(`${g.group.employeeCode}|${g.group.date}`);
  }
  return plan;
}

const byEmployeeAndDate = (x: ScoreGroup, y: ScoreGroup) =>
  x.employeeCode < y.employeeCode
    ? -1
    : x.employeeCode > y.employeeCode
      ? 1
      : x.date < y.date
        ? -1
        : x.date > y.date
          ? 1
          : 0;

const rowLabel = (row: number | undefined) => `row ${row ?? '?'}`;

/** Row errors as an answer's field errors: `row 7`, the column's header before the message. */
const fieldErrors = (errors: readonly ImportError[]): FieldError[] =>
  errors.slice(0, IMPORT_LIMITS.listedErrors).map((e) => ({
    field: rowLabel(e.row),
    message: e.column ? `${e.column}: ${e.message}` : e.message,
  }));

/** The refusal of a commit whose rows changed since the preview, naming them. */
function staleImport(groups: readonly ScoreGroup[]) {
  const errors = groups.slice(0, IMPORT_LIMITS.listedErrors).map((g) => ({
    field: rowLabel(g.rows[0]),
    message: `Scores of ${g.employeeId} on ${g.date} changed since the preview`,
  }));
  return new ApiError(409, IMPORT_MESSAGES.stale, errors);
}

/**
 * The groups whose saved rows are not as the preview found them: a row it planned to update at
 * another version now, one it planned to create that now exists, or one it left unchanged (or
 * did not see) that the file would now change.
 */
function staleGroups(groups: readonly CheckedGroup[], plan: ImportPlan): ScoreGroup[] {
  const creates = new Set(plan.creates);
  const updates = new Map(Object.entries(plan.updates));
  return groups
    .filter((g) => {
      const key = `${g.group.employeeCode}|${g.group.date}`;
      if (creates.has(key)) return g.performanceCode !== undefined;
      const planned = g.performanceCode === undefined ? undefined : updates.get(g.performanceCode);
      if (planned !== undefined) return planned !== g.version;
      return g.action !== 'unchanged';
    })
    .map((g) => g.group);
}

export const scoreImporter: ModuleImporter = {
  async fields(db) {
    return scoreImportFields(await listSkills(db));
  },

  async check(run): Promise<CheckOutcome> {
    const a = await analyse(run, run.services.db);
    return {
      counts: a.counts,
      errors: a.errors,
      errorCount: a.errorCount,
      sample: a.sample,
      plan: planOf(a.groups),
      ...(a.layout ? { layout: a.layout } : {}),
    };
  },

  async commit(run, tx, plan): Promise<CommitOutcome> {
    const a = await analyse(run, tx);
    if (a.fileErrors || !a.reader || (a.errorCount > 0 && !run.skipErrors)) {
      throw new ApiError(400, IMPORT_MESSAGES.hasErrors, fieldErrors(a.errors));
    }
    const stale = staleGroups(a.groups, plan);
    if (stale.length) throw staleImport(stale);
    const reader = a.reader;
    // By employee and date: each employee's dates are then saved together, and their monthly and
    // yearly rollups recomputed once rather than once per part.
    const writes = a.groups
      .filter((g) => g.action !== 'unchanged')
      .sort((x, y) => byEmployeeAndDate(x.group, y.group));
    let written = 0;
    for (let start = 0; start < writes.length; start += WRITE_ROWS) {
      const part = writes.slice(start, start + WRITE_ROWS);
      // Each row names the version the preview saw (null: none saved), so the save itself refuses
      // one that changed after this pass read it, under the lock it holds on the employees.
      const rows: PerformanceRowInput[] = part.map((g) => reader.inputOf(g.group, g.version ?? null));
      try {
        await savePerformances(tx, rows, run.actor);
      } catch (err) {
        if (err instanceof ApiError && err.statusCode === 409) {
          const current = (err.answer?.data ?? []) as { employeeCode: string; date: string }[];
          const keys = new Set(current.map((r) => `${r.employeeCode}|${r.date}`));
          throw staleImport(part.map((g) => g.group).filter((g) => keys.has(`${g.employeeCode}|${g.date}`)));
        }
        throw err;
      }
      written += part.length;
      await run.progress({ written });
    }
    return { counts: { ...a.counts, skipped: run.skipErrors ? a.counts.errors : 0 } };
  },
};
