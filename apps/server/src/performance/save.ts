import type { PerformanceRowInput } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { type AuditActor, type AuditEntry, recordAudits } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import { badRequest } from '../http/envelope.ts';
import { newCode } from '../resources/codes.ts';
import { batchShapeErrors, referenceErrors, rowChange, scoresByTitle } from './batch.ts';
import { invalidateGrid, staleRanges } from './grid.ts';
import { listScores, listSkills, scoresByRow } from './read.ts';
import { refreshRollups } from './rollups.ts';
import { jsonParam, rowsOf, textSet } from './sql.ts';

export const PERFORMANCE_COLLECTION = 'performances';

export interface SavedRow {
  performanceCode: string;
  employeeCode: string;
  date: string;
}

const unique = (values: Iterable<string>) => [...new Set(values)];

async function checkReferences(tx: Executor, rows: readonly PerformanceRowInput[]) {
  const employeeCodes = unique(rows.map((r) => r.employeeCode)).sort();
  // Locking the employees serialises concurrent saves of one person, whose running sums
  // would otherwise be recomputed from each other's stale snapshots.
  const employees = await rowsOf<{ code: string }>(
    tx,
    sql`select employee_code as code from employees
        where employee_code in (${textSet(employeeCodes)})
        order by employee_code for no key update`,
  );
  const skills = await rowsOf<{ code: string }>(
    tx,
    sql`select skill_code as code from skills
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
}

/** Creates the rows that do not exist yet; answers every row's code and whether it is new. */
function upsertRows(tx: Executor, rows: readonly PerformanceRowInput[]) {
  const values = rows.map((r) => ({ code: newCode('PERF-'), employee_code: r.employeeCode, date: r.date }));
  return rowsOf<SavedRow & { created: boolean }>(
    tx,
    sql`insert into performances as p (performance_code, employee_code, date)
        select x.code, x.employee_code, x.date::date
        from jsonb_to_recordset(${jsonParam(values)}) as x(code text, employee_code text, date text)
        order by x.employee_code, x.date
        on conflict (employee_code, date) do update set employee_code = p.employee_code
        returning p.performance_code as "performanceCode", p.employee_code as "employeeCode",
          p.date::text as date, (p.xmax = 0) as created`,
  );
}

/**
 * Saves a batch in the caller's transaction: every row or none. A few set-based statements
 * whatever the batch size; only rows that really change are rewritten, rolled up and audited.
 */
export async function savePerformances(
  tx: Executor,
  rows: readonly PerformanceRowInput[],
  actor: AuditActor | null,
): Promise<SavedRow[]> {
  const shapeErrors = batchShapeErrors(rows);
  if (shapeErrors.length) throw badRequest('Invalid input', shapeErrors);
  await checkReferences(tx, rows);

  const saved = await upsertRows(tx, rows);
  const byKey = new Map(saved.map((s) => [`${s.employeeCode}|${s.date}`, s]));
  const before = scoresByRow(
    await listScores(
      tx,
      saved.map((s) => s.performanceCode),
    ),
  );
  const skills = await listSkills(tx);

  const upserts: { code: string; skill: string; points: number }[] = [];
  const clears: { code: string; skill: string }[] = [];
  const changed: SavedRow[] = [];
  const audits: AuditEntry[] = [];
  for (const row of rows) {
    const s = byKey.get(`${row.employeeCode}|${row.date}`);
    if (!s) throw new Error('A saved row went missing');
    const old = before.get(s.performanceCode) ?? new Map<string, number>();
    const change = rowChange(old, row.performancePerSkill);
    if (!s.created && !change.upserts.length && !change.clears.length) continue;
    for (const u of change.upserts)
      upserts.push({ code: s.performanceCode, skill: u.skillCode, points: u.points });
    for (const c of change.clears) clears.push({ code: s.performanceCode, skill: c });
    changed.push(s);
    const describe = (scores: ReadonlyMap<string, number>) => ({
      performanceCode: s.performanceCode,
      employeeCode: s.employeeCode,
      date: s.date,
      scores: scoresByTitle(scores, skills),
    });
    audits.push({
      action: s.created ? 'CREATE' : 'UPDATE',
      collection: PERFORMANCE_COLLECTION,
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
  if (upserts.length) {
    await tx.execute(sql`
      insert into performance_scores as ps (performance_code, skill_code, points)
      select x.code, x.skill, x.points
      from jsonb_to_recordset(${jsonParam(upserts)}) as x(code text, skill text, points smallint)
      order by x.code, x.skill
      on conflict (performance_code, skill_code) do update set points = excluded.points`);
  }
  await refreshRollups(tx, changed);
  await recordAudits(tx, audits);
  // Last, so that the shared grid lock is held only until the commit that follows.
  await invalidateGrid(tx, staleRanges(changed));
  return rows.map((row) => {
    const { performanceCode, employeeCode, date } = byKey.get(`${row.employeeCode}|${row.date}`) as SavedRow;
    return { performanceCode, employeeCode, date };
  });
}
