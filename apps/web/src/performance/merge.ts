import { type PerformanceRow, parseScore } from '@wfc/contract';
import { type Bases, type CellPos, cellKey, type Drafts, type RowBase, rowBase } from './grid';

/*
 * When a save is refused because someone else saved some of its rows since the user saw them
 * (409), the server answers those rows as they now stand. Each cell the user typed in is then
 * merged three ways: the base (what the user saw), theirs (the server's) and mine (the draft).
 */

/** A cell both sides changed, to different values: the user chooses. `mine` is still the draft. */
export interface CellConflict {
  theirs: number | null;
  mine: number | null;
}

/** Conflicts by cell key (`employeeCode|skillCode`). */
export type Conflicts = ReadonlyMap<string, CellConflict>;

export interface MergeState {
  drafts: Drafts;
  bases: Bases;
  conflicts: Conflicts;
}

/**
 * Pure: the drafts after merging the current rows into them.
 * - only theirs changed (or mine equals the base): the draft goes, the cell shows theirs;
 * - only mine changed: the draft stays;
 * - both changed to the same value: the draft goes, there is nothing left to save;
 * - both changed to different values: the draft stays and the cell is a conflict.
 * Every merged row takes theirs as its new base, so the next save names the current version.
 * Nothing typed is lost: a draft is only dropped when the grid already shows its value or the
 * user had not really changed the cell.
 */
export function mergeCurrentRows(state: MergeState, current: readonly PerformanceRow[]): MergeState {
  const drafts = new Map(state.drafts);
  const bases = new Map(state.bases);
  const conflicts = new Map(state.conflicts);
  for (const row of current) {
    const employee = row.employeeCode;
    const base: RowBase | undefined = state.bases.get(employee);
    const theirs = rowBase(row);
    bases.set(employee, theirs);
    const mine = state.drafts.get(employee);
    if (!mine) continue;
    const kept = new Map<string, string>();
    for (const [skillCode, text] of mine) {
      const key = cellKey(employee, skillCode);
      conflicts.delete(key);
      const m = parseScore(text) ?? null;
      const t = theirs.scores.get(skillCode) ?? null;
      // Without a base (never expected) nothing tells whose change a difference is: ask.
      const b = base ? (base.scores.get(skillCode) ?? null) : undefined;
      if (m === t || m === b) continue;
      kept.set(skillCode, text);
      if (t !== b) conflicts.set(key, { theirs: t, mine: m });
    }
    if (kept.size) drafts.set(employee, kept);
    else drafts.delete(employee);
  }
  return { drafts, bases, conflicts };
}

/**
 * Pure: the rows on screen with the current ones in place of theirs, each keeping the screen's
 * skill columns (a skill added meanwhile waits for the next load, so the columns stay aligned).
 */
export function withCurrentRows(
  rows: readonly PerformanceRow[],
  current: readonly PerformanceRow[],
): PerformanceRow[] {
  const byKey = new Map(current.map((r) => [`${r.employeeCode}|${r.date}`, r]));
  return rows.map((row) => {
    const now = byKey.get(`${row.employeeCode}|${row.date}`);
    if (!now) return row;
    const scores = new Map(now.skills.map((s) => [s.skillCode, s.score]));
    return { ...now, skills: row.skills.map((s) => ({ ...s, score: scores.get(s.skillCode) ?? null })) };
  });
}

/** Pure: the first conflicting cell in page order (row by row, left to right), if any. */
export function firstConflict(rows: readonly PerformanceRow[], conflicts: Conflicts): CellPos | null {
  if (conflicts.size === 0) return null;
  for (const [r, row] of rows.entries()) {
    const c = row.skills.findIndex((s) => conflicts.has(cellKey(row.employeeCode, s.skillCode)));
    if (c >= 0) return { row: r, col: c };
  }
  return null;
}

const scoreWords = (score: number | null) => (score === null ? 'empty' : String(score));

/** What a screen reader says of a conflicting cell, beside its value. */
export const conflictDescription = (c: CellConflict) =>
  `Changed by someone else to ${scoreWords(c.theirs)}; yours is ${scoreWords(c.mine)}.`;

/** The explanation under the server's message, after a merge. */
export function mergeSummary(conflicts: number, dirty: boolean): string {
  const merged = 'Their changes are now in the grid and yours are kept.';
  if (conflicts > 0) {
    const cells = conflicts === 1 ? '1 cell you both changed is' : `${conflicts} cells you both changed are`;
    return `${merged} ${cells} highlighted: choose their value or yours, then save again.`;
  }
  return dirty
    ? `${merged} Check the scores and save again.`
    : `${merged} They already include everything you changed: nothing is left to save.`;
}

/** Why Save does nothing while conflicts remain. */
export const unresolvedMessage = (conflicts: number) =>
  conflicts === 1
    ? 'Choose their value or yours in the highlighted cell before saving.'
    : `Choose their value or yours in each of the ${conflicts} highlighted cells before saving.`;
