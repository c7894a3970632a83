import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { monthStart } from '../dates.ts';
import { type CellPlace, SKILL_SUMMARIES, type SkillTable } from './declarations.ts';
import type { EmployeeDay } from './running-sums.ts';
import { addToRollup, compareKeys } from './upsert.ts';

/** One cell's change to its department's, date's and skill's sum and count of scores. */
export interface SkillDelta {
  /** Employee code. */
  e: string;
  /** Date. */
  d: string;
  /** Skill code. */
  s: string;
  /** Points added (negative: taken away). */
  p: number;
  /** Scores added: 1 for a new one, -1 for a cleared one, 0 for a changed one. */
  n: number;
}

/**
 * Pure: what a row's upserted and cleared cells add to the skill days, from the cells as they
 * were (`before`, scored cells only). Unchanged cells add nothing.
 */
export function skillDeltas(
  day: EmployeeDay,
  before: ReadonlyMap<string, number>,
  upserts: readonly { skillCode: string; points: number }[],
  clears: readonly string[],
): SkillDelta[] {
  const deltas: SkillDelta[] = [];
  const at = (skill: string, p: number, n: number) => {
    if (p !== 0 || n !== 0) deltas.push({ e: day.employeeCode, d: day.date, s: skill, p, n });
  };
  for (const u of upserts) {
    const old = before.get(u.skillCode);
    at(u.skillCode, u.points - (old ?? 0), old === undefined ? 1 : 0);
  }
  for (const skill of clears) {
    const old = before.get(skill);
    if (old !== undefined) at(skill, -old, -1);
  }
  return deltas;
}

/** One row's change to a rollup: its key values, in the rollup's key order, and what to add. */
export interface RollupChange {
  key: readonly (string | number)[];
  points: number;
  scored: number;
}

/** What the save knows of its (locked) employees and of the skills. */
export interface SkillRollupRefs {
  employees: ReadonlyMap<string, { id: number; departmentCode: string }>;
  skills: ReadonlyMap<string, number>;
}

/**
 * A save's cell deltas summed so far, per rollup and row key. A batch of 1,000 employees x 20
 * skills on one date is 240 rows of the department rollups (12 departments) and 20,000 of the
 * employees' months.
 */
export type SkillRollupSums = Map<SkillTable, Map<string, RollupChange>>;

export const emptySkillSums = (): SkillRollupSums =>
  new Map(SKILL_SUMMARIES.map((r) => [r.table, new Map()]));

/**
 * Adds cell deltas to the sums of each skill rollup's rows. A save adds each chunk's as it goes,
 * so that no one stretch of the event loop sums a large batch's (20 per row).
 */
export function addSkillDeltas(sums: SkillRollupSums, deltas: readonly SkillDelta[], refs: SkillRollupRefs) {
  for (const d of deltas) {
    const employee = refs.employees.get(d.e);
    const skill = refs.skills.get(d.s);
    if (!employee || skill === undefined)
      throw new Error(`A saved cell names an unknown employee or skill: ${d.e} ${d.s}`);
    const place: CellPlace = {
      departmentCode: employee.departmentCode,
      employeeId: employee.id,
      date: d.d,
      month: monthStart(d.d),
      skillCode: d.s,
      skillId: skill,
    };
    for (const summary of SKILL_SUMMARIES) {
      // A million cells make five million of these: the key's values are listed only for a new row.
      let id = '';
      for (const k of summary.from) id += `${k.ofCell(place)}|`;
      const rows = sums.get(summary.table) as Map<string, RollupChange>;
      const known = rows.get(id);
      if (known) {
        known.points += d.p;
        known.scored += d.n;
      } else rows.set(id, { key: summary.from.map((k) => k.ofCell(place)), points: d.p, scored: d.n });
    }
  }
}

/** Pure: a rollup's summed changes in key order, without the rows they leave unchanged. */
export const orderedChanges = (sums: ReadonlyMap<string, RollupChange>): RollupChange[] =>
  [...sums.values()]
    .filter((c) => c.points !== 0 || c.scored !== 0)
    .sort((a, b) => compareKeys(a.key, b.key));

/**
 * Adds a save's summed cell changes to the skill rollups: `performance_skill_days` and
 * `performance_department_skill_months` under each employee's department (the save has locked its
 * employees, so none moves meanwhile), the same over every department
 * (`performance_overall_skill_days` and `_months`), then `performance_skill_months` under the
 * employee: in the order the department moves and deletions of triggers.ts take them.
 */
export async function refreshSkillRollups(db: Executor, sums: SkillRollupSums) {
  // A rollup at a time, each ordered just before its statement: the sorts of a large batch are
  // not one stretch.
  for (const summary of SKILL_SUMMARIES) {
    const changes = orderedChanges(sums.get(summary.table) ?? new Map());
    await addToRollup(
      db,
      summary,
      changes.map((c) => ({ key: c.key, sums: [c.points, c.scored] })),
    );
  }
}

/**
 * Every skill rollup recomputed from the scores alone, into tables the rebuild has emptied: per
 * department and date, per department and month, per date and per month over every department,
 * per employee and month.
 */
export async function rebuildSkillRollups(db: Executor) {
  for (const summary of SKILL_SUMMARIES) {
    const columns = summary.from.map((k) => k.column).join(', ');
    const positions = summary.from.map((_, i) => i + 1).join(', ');
    await db.execute(sql`
      insert into ${sql.raw(summary.table)} (${sql.raw(columns)}, points_sum, scored)
      select ${sql.raw(summary.from.map((k) => k.ofScores).join(', '))}, sum(ps.points)::int, count(ps.points)::int
      from performance_scores ps
      join performances p on p.performance_code = ps.performance_code
      join employees e on e.employee_code = p.employee_code
      join skills k on k.skill_code = ps.skill_code
      where ps.points is not null
      group by ${sql.raw(positions)}
      order by ${sql.raw(positions)}`);
  }
}
