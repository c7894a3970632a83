import { type PerformanceRow, parseScore, TOTAL_POINTS } from '@wfc/contract';

/*
 * The editable grid as plain data: what the user typed per cell, what changed, what a paste
 * writes and where the keyboard moves. The page only wires these to the table.
 */

/** Edited cell texts: employeeCode -> skillCode -> text. Cells never typed in are absent. */
export type Drafts = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * A row as the user saw it when they first typed in it: the version a save names (null when
 * nothing was saved yet) and the scores a merge compares both sides with.
 */
export interface RowBase {
  version: number | null;
  scores: ReadonlyMap<string, number | null>;
}

/** The base of each row the user typed in, by employeeCode. */
export type Bases = ReadonlyMap<string, RowBase>;

export const rowBase = (row: PerformanceRow): RowBase => ({
  version: row.version,
  scores: new Map(row.skills.map((s) => [s.skillCode, s.score])),
});

/** A cell's key in the maps of marks: `employeeCode|skillCode`. */
export const cellKey = (employeeCode: string, skillCode: string) => `${employeeCode}|${skillCode}`;

export interface CellPos {
  row: number;
  col: number;
}

const scoreText = (score: number | null) => (score === null ? '' : String(score));

/** The text a cell shows: the user's draft, else the saved score. */
export function cellText(drafts: Drafts, row: PerformanceRow, col: number): string {
  const skill = row.skills[col];
  if (!skill) return '';
  return drafts.get(row.employeeCode)?.get(skill.skillCode) ?? scoreText(skill.score);
}

/**
 * The typed text as it will be kept, trimmed; null when it is no score. A score is empty or a
 * whole number from 0 to 10.
 */
export function acceptCellInput(text: string): string | null {
  const parsed = parseScore(text);
  return parsed === undefined ? null : scoreText(parsed);
}

export function withCell(drafts: Drafts, employeeCode: string, skillCode: string, text: string): Drafts {
  const next = new Map(drafts);
  const row = new Map(next.get(employeeCode) ?? []);
  row.set(skillCode, text);
  next.set(employeeCode, row);
  return next;
}

/** A cell counts as changed only when its value differs from the saved one ('07' is 7). */
export function isCellChanged(drafts: Drafts, row: PerformanceRow, col: number): boolean {
  const skill = row.skills[col];
  if (!skill) return false;
  const draft = drafts.get(row.employeeCode)?.get(skill.skillCode);
  return draft !== undefined && parseScore(draft) !== skill.score;
}

export const isRowChanged = (drafts: Drafts, row: PerformanceRow) =>
  row.skills.some((_, col) => isCellChanged(drafts, row, col));

export interface SubmissionRow {
  performanceCode?: string;
  employeeCode: string;
  date: string;
  /** The version the row was read at: the save is refused if it has moved on since (null: unsaved). */
  version: number | null;
  performancePerSkill: { skillCode: string; pointsEarned: string; totalPoints: number }[];
}

/**
 * Only the changed rows, each complete, as CreateUpdatePerformances takes them; empty is sent as
 * ''. Each names the version of its base, the row as the user saw it when they typed in it.
 */
export function changedRows(
  rows: readonly PerformanceRow[],
  drafts: Drafts,
  bases: Bases = new Map(),
): SubmissionRow[] {
  return rows
    .filter((row) => isRowChanged(drafts, row))
    .map((row) => ({
      ...(row.performanceCode ? { performanceCode: row.performanceCode } : {}),
      employeeCode: row.employeeCode,
      date: row.date,
      version: bases.get(row.employeeCode)?.version ?? row.version,
      performancePerSkill: row.skills.map((skill, col) => ({
        skillCode: skill.skillCode,
        pointsEarned: acceptCellInput(cellText(drafts, row, col)) ?? '',
        totalPoints: TOTAL_POINTS,
      })),
    }));
}

/** A block copied from a spreadsheet: rows by line, cells by tab; the trailing line break dropped. */
export function parseBlock(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

/** What a paste will write, worked out before any draft changes. */
export interface PastePlan {
  cells: { employeeCode: string; skillCode: string; text: string }[];
  /** Values that were not valid scores, left as they were. */
  rejected: number;
  /** The rows written to, as they are on screen: the base of those the user had not typed in. */
  bases: Bases;
}

/** A block written from `start` rightwards and downwards; what falls outside the grid is dropped. */
export function planPaste(
  rows: readonly PerformanceRow[],
  start: CellPos,
  block: readonly (readonly string[])[],
): PastePlan {
  const cells: PastePlan['cells'] = [];
  const bases = new Map<string, RowBase>();
  let rejected = 0;
  block.forEach((values, r) => {
    const row = rows[start.row + r];
    if (!row) return;
    values.forEach((value, c) => {
      const skill = row.skills[start.col + c];
      if (!skill) return;
      const accepted = acceptCellInput(value);
      if (accepted === null) rejected += 1;
      else {
        cells.push({ employeeCode: row.employeeCode, skillCode: skill.skillCode, text: accepted });
        if (!bases.has(row.employeeCode)) bases.set(row.employeeCode, rowBase(row));
      }
    });
  });
  return { cells, rejected, bases };
}

export const applyPaste = (drafts: Drafts, plan: PastePlan): Drafts =>
  plan.cells.reduce((next, cell) => withCell(next, cell.employeeCode, cell.skillCode, cell.text), drafts);

export type MoveKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Enter' | 'ShiftEnter';

/** Spreadsheet movement: arrows one cell, Enter down and Shift+Enter up, stopping at the edges. */
export function moveCell(pos: CellPos, key: MoveKey, rows: number, cols: number): CellPos {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max - 1);
  switch (key) {
    case 'ArrowUp':
    case 'ShiftEnter':
      return { row: clamp(pos.row - 1, rows), col: pos.col };
    case 'ArrowDown':
    case 'Enter':
      return { row: clamp(pos.row + 1, rows), col: pos.col };
    case 'ArrowLeft':
      return { row: pos.row, col: clamp(pos.col - 1, cols) };
    case 'ArrowRight':
      return { row: pos.row, col: clamp(pos.col + 1, cols) };
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a paste did, for the screen reader and, when values were refused, a toast. */
export const pasteSummary = (written: number, rejected: number) =>
  `Pasted ${plural(written, 'cell', 'cells')}` +
  (rejected
    ? `; ${plural(rejected, 'value was', 'values were')} not a score from 0 to 10 and left as before.`
    : '.');

/**
 * A row's daily average as its cells now read, drafts included, rounded as the server rounds
 * (two decimals, half away from zero); null when nothing is scored. Shown while editing, before
 * the save that makes it the saved one.
 */
export function draftDaily(drafts: Drafts, row: PerformanceRow): number | null {
  let sum = 0;
  let scored = 0;
  row.skills.forEach((_, col) => {
    const score = parseScore(cellText(drafts, row, col));
    if (score === null || score === undefined) return;
    sum += score;
    scored += 1;
  });
  // Whole numbers: sum * 100 / scored is exact whenever it lies on a half, so Math.round is exact.
  return scored ? Math.round((sum * 100) / scored) / 100 : null;
}

/**
 * Sequential light-to-dark blues (ColorBrewer Blues): told apart by lightness, so by everyone.
 * The eighth is a shade lighter than ColorBrewer's (#2f7ebc): neither white nor near-black text
 * reached 4.5:1 on that one.
 */
const HEAT_SCALE = [
  '#f7fbff',
  '#e3eef9',
  '#cfe1f2',
  '#b5d4e9',
  '#93c3df',
  '#6daed5',
  '#4b97c9',
  '#3d8ac6',
  '#1864aa',
  '#0a4a90',
  '#08306b',
] as const;

/**
 * The same blues for the dark scheme, running the other way (dark to light, so a higher score
 * stands out more from the dark page) and stopping short of white, which would glare there.
 * Still one hue told apart by lightness; the text turns dark where the cells turn light.
 */
const HEAT_SCALE_DARK = [
  '#142639',
  '#19334e',
  '#1e4062',
  '#224c77',
  '#27598b',
  '#2c66a0',
  '#4b90cb',
  '#64a1d5',
  '#7eb2de',
  '#97c3e8',
  '#b0d4f1',
] as const;

/**
 * A score's heat-map colours in a scheme: its background on the scale, and text that stays
 * readable on it (4.5:1 at least, test/shell/themeContrast.test.ts).
 */
export function heatColours(score: number, scheme: 'light' | 'dark' = 'light'): { bg: string; fg: string } {
  const step = Math.max(0, Math.min(TOTAL_POINTS, Math.round(score)));
  if (scheme === 'dark') {
    return { bg: HEAT_SCALE_DARK[step] ?? HEAT_SCALE_DARK[0], fg: step >= 6 ? '#0b1826' : '#e6ebe8' };
  }
  return { bg: HEAT_SCALE[step] ?? HEAT_SCALE[0], fg: step >= 8 ? '#ffffff' : '#1a1a1a' };
}
