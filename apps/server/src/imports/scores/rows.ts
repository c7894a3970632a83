import {
  dateCell,
  type ImportError,
  type ImportRowAction,
  isoDate,
  PERFORMANCE_MESSAGES,
  type PerformanceRowInput,
  parseScore,
  performanceDateRange,
  SCORE_FIELDS,
  SCORE_MESSAGE,
  scoreDateError,
  skillFieldKey,
} from '@wfc/contract';
import { OUTSIDE_REACH_MESSAGE } from '../../performance/reach.ts';
import { rowChange, type Scores } from '../../performance/save/batch.ts';
import type { SheetRow } from '../files/sheet.ts';
import type { ScoreColumns } from './layout.ts';

/*
 * Reading a score file's rows into the rows the grid's bulk save takes: one per employee and
 * date. Pure: the employees a chunk of rows names are looked up by the caller beforehand.
 */

/** An employee a row names by Employee Id; `reached`: within the importer's reach. */
export interface EmployeeRef {
  employeeCode: string;
  employeeId: string;
  reached: boolean;
}

export interface SkillRef {
  skillCode: string;
  title: string;
}

/** A cell of a group no line or column mentions: the saved score, if any, is kept. */
export const NOT_MENTIONED = -2;
/** A cell left empty: not scored, which clears a saved score. */
export const NOT_SCORED = -1;

/** The scores a file gives one employee on one date: a row of the grid. */
export interface ScoreGroup {
  employeeCode: string;
  employeeId: string;
  date: string;
  /** Per skill, in the order of the reader's skills: NOT_MENTIONED, NOT_SCORED, or 0..10. */
  points: Int8Array;
  /** The spreadsheet rows that give its cells (long: one per skill), in file order. */
  rows: number[];
  /** Long: the row that gave each skill's cell (0: none yet). */
  cellRows?: Int32Array;
}

export const ROW_MESSAGES = {
  employeeRequired: 'Employee Id is required',
  skillRequired: 'Skill is required',
  duplicateRow: 'This row names the same employee and date as an earlier row',
  duplicateSkill: 'This row names the same employee, date and skill as an earlier row',
  /** The grid's refusal, in its words. */
  outsideReach: OUTSIDE_REACH_MESSAGE,
} as const;

/** Pure: how an Employee Id or skill title is matched: trimmed, whatever the case. */
export const matchKey = (text: string) => text.trim().toLowerCase();

const dateSchema = isoDate('Date');

/** Pure: a date cell as a date scores may be saved for on `today`, or why it cannot be one. */
export function scoreDate(cell: string, today: string): { date: string } | { error: string } {
  const parsed = dateSchema.safeParse(dateCell(cell));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Date must be a real date' };
  const problem = scoreDateError(parsed.data, performanceDateRange(today), today);
  return problem ? { error: problem } : { date: parsed.data };
}

/** What one spreadsheet row says: its errors, and its values as they will be stored (by field key). */
export interface ReadRow {
  row: number;
  errors: ImportError[];
  values: Record<string, string>;
  /** The employee and date it adds to, when it adds anything. */
  group: ScoreGroup | null;
}

/** What an employee lookup says of an Employee Id: the employee, or why a row may not name it. */
export type EmployeeLookup = (key: string) => EmployeeRef | null | undefined;

/**
 * Reads a score file's rows one at a time, grouping them by employee and date as it goes: wide,
 * a row is a group, and a later row for the same employee and date is an error; long, a row is
 * a cell, its group's other cells come from other rows (anywhere in the file), and a later row
 * for the same employee, date and skill is an error. An empty score means not scored.
 */
export class ScoreRowReader {
  readonly groups = new Map<string, ScoreGroup>();
  private readonly skillIndex: Map<string, number>;
  private readonly skillByTitle: Map<string, number>;
  private readonly dates = new Map<string, { date: string } | { error: string }>();

  constructor(
    private readonly columns: ScoreColumns,
    private readonly headers: readonly string[],
    private readonly skills: readonly SkillRef[],
    private readonly today: string,
    /** Whether the importer reaches every employee: if not, an unknown one is refused as beyond reach. */
    private readonly reachesAll: boolean,
  ) {
    this.skillIndex = new Map(skills.map((s, i) => [s.skillCode, i]));
    this.skillByTitle = new Map(skills.map((s, i) => [matchKey(s.title), i]));
  }

  /** The key by which `lookup` is asked for a row's employee. */
  employeeKeyOf(cells: readonly string[]): string {
    return matchKey(cells[this.columns.employeeId] ?? '');
  }

  private header(index: number): string {
    return this.headers[index] ?? `Column ${index + 1}`;
  }

  private dateOf(cell: string) {
    let found = this.dates.get(cell);
    if (!found) {
      found = scoreDate(cell, this.today);
      this.dates.set(cell, found);
    }
    return found;
  }

  private groupOf(employee: EmployeeRef, date: string) {
    const key = `${employee.employeeCode}|${date}`;
    const group = this.groups.get(key);
    if (group) return { group, created: false };
    const made: ScoreGroup = {
      employeeCode: employee.employeeCode,
      employeeId: employee.employeeId,
      date,
      points: new Int8Array(this.skills.length).fill(NOT_MENTIONED),
      rows: [],
      ...(this.columns.layout === 'long' ? { cellRows: new Int32Array(this.skills.length) } : {}),
    };
    this.groups.set(key, made);
    return { group: made, created: true };
  }

  /** Reads one row; `lookup` answers its employee (undefined: not asked, null: none). */
  read({ row, cells }: SheetRow, lookup: EmployeeLookup): ReadRow {
    const c = this.columns;
    const errors: ImportError[] = [];
    const fail = (column: number | null, message: string) =>
      errors.push({ row, column: column === null ? null : this.header(column), message });
    const values: Record<string, string> = {};

    const idText = (cells[c.employeeId] ?? '').trim();
    let employee: EmployeeRef | null = null;
    if (!idText) fail(c.employeeId, ROW_MESSAGES.employeeRequired);
    else {
      const found = lookup(matchKey(idText)) ?? null;
      if (found?.reached) employee = found;
      else if (found || !this.reachesAll) fail(c.employeeId, ROW_MESSAGES.outsideReach);
      else fail(c.employeeId, PERFORMANCE_MESSAGES.employeeNotFound);
    }
    values[SCORE_FIELDS.employeeId] = employee?.employeeId ?? idText;

    const dateText = cells[c.date] ?? '';
    const day = this.dateOf(dateText);
    if ('error' in day) fail(c.date, day.error);
    values[SCORE_FIELDS.date] = 'date' in day ? day.date : dateText.trim();

    if (c.layout === 'wide') {
      const points: number[] = [];
      for (const { index, skillCode } of c.skills) {
        const cell = cells[index] ?? '';
        const score = parseScore(cell);
        if (score === undefined) fail(index, SCORE_MESSAGE);
        points.push(score ?? NOT_SCORED);
        values[skillFieldKey(skillCode)] =
          score === undefined ? cell.trim() : score === null ? '' : String(score);
      }
      if (errors.length || !employee || !('date' in day)) return { row, errors, values, group: null };
      const { group, created } = this.groupOf(employee, day.date);
      if (!created) {
        fail(null, `${ROW_MESSAGES.duplicateRow} (row ${group.rows[0]})`);
        return { row, errors, values, group: null };
      }
      c.skills.forEach(({ skillCode }, j) => {
        const at = this.skillIndex.get(skillCode);
        if (at !== undefined) group.points[at] = points[j] ?? NOT_SCORED;
      });
      group.rows.push(row);
      return { row, errors, values, group };
    }

    const titleText = (cells[c.skill] ?? '').trim();
    const at = titleText ? this.skillByTitle.get(matchKey(titleText)) : undefined;
    if (!titleText) fail(c.skill, ROW_MESSAGES.skillRequired);
    else if (at === undefined) fail(c.skill, PERFORMANCE_MESSAGES.skillNotFound);
    values[SCORE_FIELDS.skill] = at === undefined ? titleText : (this.skills[at]?.title ?? titleText);
    const scoreText = cells[c.score] ?? '';
    const score = parseScore(scoreText);
    if (score === undefined) fail(c.score, SCORE_MESSAGE);
    values[SCORE_FIELDS.score] = score === undefined ? scoreText.trim() : score === null ? '' : String(score);
    if (errors.length || !employee || !('date' in day) || at === undefined || score === undefined) {
      return { row, errors, values, group: null };
    }
    const { group } = this.groupOf(employee, day.date);
    if (group.points[at] !== NOT_MENTIONED) {
      fail(c.skill, `${ROW_MESSAGES.duplicateSkill} (row ${group.cellRows?.[at] ?? '?'})`);
      return { row, errors, values, group: null };
    }
    group.points[at] = score ?? NOT_SCORED;
    if (group.cellRows) group.cellRows[at] = row;
    group.rows.push(row);
    return { row, errors, values, group };
  }

  /** A group as the grid's bulk save takes it: the cells it mentions, an empty one as not scored. */
  inputOf(group: ScoreGroup, version?: number | null): PerformanceRowInput {
    const cells: PerformanceRowInput['performancePerSkill'] = [];
    group.points.forEach((p, i) => {
      const skill = this.skills[i];
      if (p !== NOT_MENTIONED && skill)
        cells.push({ skillCode: skill.skillCode, pointsEarned: p === NOT_SCORED ? null : p });
    });
    return {
      employeeCode: group.employeeCode,
      date: group.date,
      ...(version === undefined ? {} : { version }),
      performancePerSkill: cells,
    };
  }
}

/**
 * Pure: what saving a group does to the saved row (`saved` its scores, undefined when there is
 * none): `create` a row that holds a score, `update` one whose scores change, or nothing
 * (`unchanged`) - so that a file of empty cells for dates nobody scored creates nothing, and a
 * file exported from the console imports back as no change.
 */
export function groupAction(
  cells: PerformanceRowInput['performancePerSkill'],
  saved: Scores | undefined,
): Exclude<ImportRowAction, 'error'> {
  if (!saved) return cells.some((c) => c.pointsEarned !== null) ? 'create' : 'unchanged';
  const change = rowChange(saved, cells);
  return change.upserts.length || change.clears.length ? 'update' : 'unchanged';
}
