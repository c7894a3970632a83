import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PerformanceRow, PerformanceRowInput, PerformanceSkillColumn } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { lastChanges } from '../../audit/history.ts';
import { type AuditActor, type AuditEntry, recordAudits } from '../../audit/recorder.ts';
import { intArray, textArray, textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { newCode } from '../../db/codes.ts';
import { rowsOf } from '../../db/rows.ts';
import { badRequest, staleWrite } from '../../http/envelope.ts';
import { employeesDay } from '../grid/page.ts';
import { listScores, listSkills, scoresByRow } from '../grid/read.ts';
import { jsonParam } from '../sql.ts';
import { type ChangedDay, refreshRollups } from '../summaries/running-sums.ts';
import {
  addSkillDeltas,
  emptySkillSums,
  refreshSkillRollups,
  type SkillDelta,
  type SkillRollupRefs,
  skillDeltas,
} from '../summaries/skills.ts';
import {
  referenceErrors,
  rowChange,
  rowKey,
  scoresByTitle,
  scoreTotals,
  staleMessage,
  staleRows,
} from './batch.ts';

export const PERFORMANCE_COLLECTION = 'performances';

export interface SavedRow {
  performanceCode: string;
  employeeCode: string;
  date: string;
}

const unique = (values: Iterable<string>) => [...new Set(values)];

/**
 * Refuses rows that name an unknown employee, skill or performance; answers the employees' and
 * skills' ids and the employees' departments, which the skill rollups are kept under.
 */
async function checkReferences(tx: Executor, rows: readonly PerformanceRowInput[]): Promise<SkillRollupRefs> {
  const employeeCodes = unique(rows.map((r) => r.employeeCode)).sort();
  // Locking the employees serialises concurrent saves of one person, whose running sums
  // would otherwise be recomputed from each other's stale snapshots, and keeps each in its
  // department until the save's rollups are written.
  const employees = await rowsOf<{ code: string; id: number; departmentCode: string }>(
    tx,
    sql`select employee_code as code, id::int as id, department_code as "departmentCode" from employees
        where employee_code in (${textSet(employeeCodes)})
        order by employee_code for no key update`,
  );
  const skills = await rowsOf<{ code: string; id: number }>(
    tx,
    sql`select skill_code as code, id::int as id from skills
        where skill_code in (${textSet(unique(rows.flatMap((r) => r.performancePerSkill.map((c) => c.skillCode))))})`,
  );
  const named = unique(rows.flatMap((r) => (r.performanceCode ? [r.performanceCode] : [])));
  const saved = named.length
    ? await rowsOf<{ code: string; employeeCode: string; date: string }>(
        tx,
        sql`select performance_code as code, employee_code as "employeeCode", date::text as date
            from performances where performance_code in (${textSet(named)})`,
      )
    : [];
  const errors = referenceErrors(rows, {
    employees: new Set(employees.map((e) => e.code)),
    skills: new Set(skills.map((s) => s.code)),
    performances: new Map(saved.map((p) => [p.code, p])),
  });
  if (errors.length) throw badRequest('Invalid input', errors);
  return {
    employees: new Map(employees.map((e) => [e.code, { id: e.id, departmentCode: e.departmentCode }])),
    skills: new Map(skills.map((k) => [k.code, k.id])),
  };
}

/**
 * The refusal of a batch with stale rows: the message names their employees (and who changed
 * them, when one user did), `data` holds those employees' rows as they now stand, with their
 * versions, in the shape GetPerformances answers, by date and name.
 */
async function staleBatch(tx: Executor, stale: readonly PerformanceRowInput[]) {
  const byDate = new Map<string, string[]>();
  for (const r of stale) byDate.set(r.date, [...(byDate.get(r.date) ?? []), r.employeeCode]);
  const current: PerformanceRow[] = [];
  for (const date of [...byDate.keys()].sort())
    current.push(...(await employeesDay(tx, date, byDate.get(date) ?? [])));
  const saved = current.flatMap((r) => (r.performanceCode ? [r.performanceCode] : []));
  const last = await lastChanges(tx, PERFORMANCE_COLLECTION, saved);
  const changes = current.map((r) => (r.performanceCode ? (last.get(r.performanceCode) ?? null) : null));
  const names = unique(current.map((r) => r.employeeName));
  return staleWrite(staleMessage(names, changes), current);
}

/**
 * Refuses the batch, before anything is written, when a row names a version (optimistic
 * concurrency) that is not its current one: a row changed since the writer read it, or created
 * meanwhile when the writer saw none (null). The employees are locked (`checkReferences`), so no
 * other save can move these rows between this check and the writes.
 */
async function checkVersions(tx: Executor, rows: readonly PerformanceRowInput[]) {
  const checked = rows.filter((r) => r.version !== undefined);
  if (!checked.length) return;
  const keys = checked.map((r) => ({ employee_code: r.employeeCode, date: r.date }));
  const saved = await rowsOf<{ employeeCode: string; date: string; version: number }>(
    tx,
    sql`select p.employee_code as "employeeCode", p.date::text as date, p.version
        from jsonb_to_recordset(${jsonParam(keys)}) as x(employee_code text, date text)
        join performances p on p.employee_code = x.employee_code and p.date = x.date::date`,
  );
  const stale = staleRows(checked, new Map(saved.map((s) => [rowKey(s), s.version])));
  if (stale.length) throw await staleBatch(tx, stale);
}

/**
 * Creates the rows that do not exist yet; answers every row's code and whether it is new. Rows
 * that exist are only read: rewriting them here would cost a second new version of each, and
 * the rollup refresh rewrites those that change anyway. The employees are locked, so no other
 * save can create one of these rows between the insert and the read.
 */
function upsertRows(tx: Executor, rows: readonly PerformanceRowInput[]) {
  const values = rows.map((r) => ({ code: newCode('PERF-'), employee_code: r.employeeCode, date: r.date }));
  return rowsOf<SavedRow & { created: boolean }>(
    tx,
    sql`with x as (
          select x.code, x.employee_code, x.date::date as date
          from jsonb_to_recordset(${jsonParam(values)}) as x(code text, employee_code text, date text)
        ),
        created as (
          insert into performances (performance_code, employee_code, date)
          select code, employee_code, date from x order by employee_code, date
          on conflict (employee_code, date) do nothing
          returning performance_code, employee_code, date
        )
        select performance_code as "performanceCode", employee_code as "employeeCode", date::text as date,
          true as created
        from created
        union all
        -- The statement's snapshot predates the insert: these are the rows that existed.
        select p.performance_code, p.employee_code, p.date::text, false
        from x join performances p on p.employee_code = x.employee_code and p.date = x.date`,
  );
}

interface Cell {
  code: string;
  skill: string;
  points: number;
}

/**
 * Rows at a time whose scores are read and then written: one row's cells may lie on as many
 * pages as it has skills, and a chunk's pages should still be in PostgreSQL's buffers (128 MB by
 * default) when they are written after being read.
 */
const CHUNK_ROWS = 200;

/** Writes what changed in these rows' cells; answers the changed rows and their audit records. */
async function saveCells(
  tx: Executor,
  rows: readonly { row: PerformanceRowInput; saved: SavedRow & { created: boolean } }[],
  skills: readonly PerformanceSkillColumn[],
  actor: AuditActor | null,
) {
  // A row this save created has no cells yet: only the others' are read.
  const before = scoresByRow(
    await listScores(
      tx,
      rows.flatMap((r) => (r.saved.created ? [] : [r.saved.performanceCode])),
    ),
  );
  const fresh: Cell[] = [];
  const inserts: Cell[] = [];
  const updates: Cell[] = [];
  const clears: Omit<Cell, 'points'>[] = [];
  const changed: ChangedDay[] = [];
  const audits: AuditEntry[] = [];
  const deltas: SkillDelta[] = [];
  for (const { row, saved: s } of rows) {
    const old = before.get(s.performanceCode) ?? new Map<string, number>();
    const change = rowChange(old, row.performancePerSkill);
    if (!s.created && !change.upserts.length && !change.clears.length) continue;
    for (const u of change.upserts)
      (s.created ? fresh : old.has(u.skillCode) ? updates : inserts).push({
        code: s.performanceCode,
        skill: u.skillCode,
        points: u.points,
      });
    for (const c of change.clears) clears.push({ code: s.performanceCode, skill: c });
    const { performanceCode, employeeCode, date } = s;
    deltas.push(...skillDeltas({ employeeCode, date }, old, change.upserts, change.clears));
    changed.push({ performanceCode, employeeCode, date, bump: !s.created, ...scoreTotals(change.after) });
    const describe = (scores: ReadonlyMap<string, number>) => ({
      performanceCode,
      employeeCode,
      date,
      scores: scoresByTitle(scores, skills),
    });
    audits.push({
      action: s.created ? 'CREATE' : 'UPDATE',
      collection: PERFORMANCE_COLLECTION,
      recordCode: performanceCode,
      before: s.created ? undefined : describe(old),
      after: describe(change.after),
      actor,
    });
  }
  if (clears.length) {
    await tx.execute(sql`
      delete from performance_scores ps
      using jsonb_to_recordset(${jsonParam(clears)}) as x(code text, skill text)
      where ps.performance_code = x.code and ps.skill_code = x.skill`);
  }
  // Cells known to hold a score are updated in place: an upsert would also lock each row first.
  if (updates.length) {
    await tx.execute(sql`
      update performance_scores ps set points = x.points
      from jsonb_to_recordset(${jsonParam(updates)}) as x(code text, skill text, points smallint)
      where ps.performance_code = x.code and ps.skill_code = x.skill`);
  }
  // The cells of rows created in this save cannot exist yet (the employees are locked): a plain
  // insert, the columns as arrays, which PostgreSQL reads faster than a JSON document of rows.
  if (fresh.length) {
    await tx.execute(sql`
      insert into performance_scores (performance_code, skill_code, points)
      select * from unnest(${textArray(fresh.map((c) => c.code))}, ${textArray(fresh.map((c) => c.skill))},
        ${intArray(fresh.map((c) => c.points))}::smallint[])`);
  }
  // Still an upsert: a bulk loader may have left an unscored cell as a row without points.
  if (inserts.length) {
    await tx.execute(sql`
      insert into performance_scores as ps (performance_code, skill_code, points)
      select x.code, x.skill, x.points
      from jsonb_to_recordset(${jsonParam(inserts)}) as x(code text, skill text, points smallint)
      order by x.code, x.skill
      on conflict (performance_code, skill_code) do update set points = excluded.points`);
  }
  return { changed, audits, deltas };
}

/**
 * Saves a batch in the caller's transaction: every row or none. Cells are read and written a
 * chunk of rows at a time, the rollups and audit records in set-based statements for the whole
 * batch; only rows that really change are rewritten, rolled up and audited. A row that names a
 * stale version refuses the whole batch (409, with the current rows) before anything is written;
 * a changed row that existed gets the next version, a created one starts at 1. `rows` are a
 * valid batch as `readPerformanceBatch` reads one: none names an employee and date twice.
 */
export async function savePerformances(
  tx: Executor,
  rows: readonly PerformanceRowInput[],
  actor: AuditActor | null,
): Promise<SavedRow[]> {
  const refs = await checkReferences(tx, rows);
  await checkVersions(tx, rows);

  const saved = await upsertRows(tx, rows);
  const byKey = new Map(saved.map((s) => [`${s.employeeCode}|${s.date}`, s]));
  const skills = await listSkills(tx);
  const pairs = rows.map((row) => {
    const s = byKey.get(`${row.employeeCode}|${row.date}`);
    if (!s) throw new Error('A saved row went missing');
    return { row, saved: s };
  });
  const changed: ChangedDay[] = [];
  const audits: AuditEntry[] = [];
  const sums = emptySkillSums();
  for (let i = 0; i < pairs.length; i += CHUNK_ROWS) {
    const done = await saveCells(tx, pairs.slice(i, i + CHUNK_ROWS), skills, actor);
    changed.push(...done.changed);
    audits.push(...done.audits);
    // A chunk's changes are worked out in one stretch, their rollup sums in the next.
    await nextTurn();
    addSkillDeltas(sums, done.deltas, refs);
  }
  await nextTurn();
  await refreshRollups(tx, changed);
  await refreshSkillRollups(tx, sums);
  await recordAudits(tx, audits);
  return rows.map((row) => {
    const { performanceCode, employeeCode, date } = byKey.get(`${row.employeeCode}|${row.date}`) as SavedRow;
    return { performanceCode, employeeCode, date };
  });
}
