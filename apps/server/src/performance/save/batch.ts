import {
  type FieldError,
  PERFORMANCE_MESSAGES,
  type PerformanceRowInput,
  type PerformanceSkillColumn,
} from '@wfc/contract';
import type { LastChange } from '../../audit/history.ts';
import { MAX_FIELD_ERRORS } from '../../http/errors.ts';

/**
 * Bytes of a bulk save's body. The largest batch the console is sized for is 5,000 employees x
 * 20 skills in one JSON body, each row written as the web client writes it (its performanceCode,
 * every cell's skillCode, pointsEarned as text and totalPoints 10), every score '10', codes as
 * `newCode` makes them (PERF-, EMP-, SKILL- and 16 characters): a cell is 75 bytes, a row
 * 126 + 20 x 75 + 19 commas = 1,645, the body 17 + 5,000 x 1,645 + 4,999 commas + 2 =
 * 8,230,018 bytes (7.85 MiB). 10 MiB leaves 27 % for longer codes and some whitespace.
 */
export const SAVE_BODY_LIMIT = 10 * 1024 * 1024;

const rowField = (i: number, field: string) => `performances.${i}.${field}`;
const cellField = (i: number, j: number, field: string) =>
  `performances.${i}.performancePerSkill.${j}.${field}`;

export interface KnownRecords {
  employees: ReadonlySet<string>;
  skills: ReadonlySet<string>;
  /** Saved rows named by a performanceCode in the batch. */
  performances: ReadonlyMap<string, { employeeCode: string; date: string }>;
}

/** Pure: every row and cell that names a record that does not exist, or a row that is not its own. */
export function referenceErrors(rows: readonly PerformanceRowInput[], known: KnownRecords): FieldError[] {
  const errors: FieldError[] = [];
  rows.forEach((row, i) => {
    // No answer lists more: finding more would only hold the event loop.
    if (errors.length >= MAX_FIELD_ERRORS) return;
    if (!known.employees.has(row.employeeCode)) {
      errors.push({ field: rowField(i, 'employeeCode'), message: PERFORMANCE_MESSAGES.employeeNotFound });
    }
    if (row.performanceCode) {
      const saved = known.performances.get(row.performanceCode);
      if (!saved) {
        errors.push({ field: rowField(i, 'performanceCode'), message: PERFORMANCE_MESSAGES.notFound });
      } else if (saved.employeeCode !== row.employeeCode || saved.date !== row.date) {
        errors.push({
          field: rowField(i, 'performanceCode'),
          message: 'This performance belongs to another employee or date',
        });
      }
    }
    row.performancePerSkill.forEach((cell, j) => {
      if (!known.skills.has(cell.skillCode)) {
        errors.push({ field: cellField(i, j, 'skillCode'), message: PERFORMANCE_MESSAGES.skillNotFound });
      }
    });
  });
  return errors;
}

export type Scores = ReadonlyMap<string, number>;

export interface RowChange {
  /** Cells to write (new or different score). */
  upserts: { skillCode: string; points: number }[];
  /** Cells cleared back to "not scored". */
  clears: string[];
  /** Scores after the change, for the audit record. */
  after: Map<string, number>;
}

/**
 * Pure: what a submitted row changes in a saved one. Cells the row does not mention keep their
 * score, so a client may send only the skills it shows.
 */
export function rowChange(before: Scores, cells: PerformanceRowInput['performancePerSkill']): RowChange {
  const after = new Map(before);
  const upserts: RowChange['upserts'] = [];
  const clears: string[] = [];
  for (const cell of cells) {
    const old = before.get(cell.skillCode);
    if (cell.pointsEarned === null) {
      if (old !== undefined) {
        clears.push(cell.skillCode);
        after.delete(cell.skillCode);
      }
    } else if (old !== cell.pointsEarned) {
      upserts.push({ skillCode: cell.skillCode, points: cell.pointsEarned });
      after.set(cell.skillCode, cell.pointsEarned);
    }
  }
  return { upserts, clears, after };
}

/** Pure: what a row's daily average is made of, the sum and the number of its scores. */
export function scoreTotals(scores: Scores): { scoreSum: number; scored: number } {
  let scoreSum = 0;
  for (const points of scores.values()) scoreSum += points;
  return { scoreSum, scored: scores.size };
}

/** An audit view of a row's scores: by skill title, which is what a reader of the log knows. */
export function scoresByTitle(
  scores: Scores,
  skills: readonly PerformanceSkillColumn[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of skills) {
    const v = scores.get(s.skillCode);
    if (v !== undefined) out[s.title] = v;
  }
  return out;
}

/** The key of a row in a batch: one performance per employee and date. */
export const rowKey = (row: { employeeCode: string; date: string }) => `${row.employeeCode}|${row.date}`;

/**
 * Pure: the rows of a batch that name a version (optimistic concurrency) which is not the current
 * one. `current` holds the version of every saved row the batch names by employee and date; a row
 * not in it is not saved, so its version is null. Rows without a version are not checked.
 */
export function staleRows<R extends Pick<PerformanceRowInput, 'employeeCode' | 'date' | 'version'>>(
  rows: readonly R[],
  current: ReadonlyMap<string, number>,
): R[] {
  return rows.filter((r) => r.version !== undefined && (current.get(rowKey(r)) ?? null) !== r.version);
}

/** Employees a conflict's message names before it counts the rest. */
const NAMED_EMPLOYEES = 3;

function listOf(names: readonly string[]): string {
  if (names.length > NAMED_EMPLOYEES) {
    const rest = names.length - NAMED_EMPLOYEES;
    return `${names.slice(0, NAMED_EMPLOYEES).join(', ')} and ${rest} other employee${rest === 1 ? '' : 's'}`;
  }
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Pure: why a save was refused as stale, naming the employees. `changes` holds the latest audit
 * entry of each stale row (null when it has none): when one user made them all they are named,
 * with the time when it was one row; otherwise "someone else".
 */
export function staleMessage(
  employeeNames: readonly string[],
  changes: readonly (LastChange | null)[],
): string {
  const users = new Set(changes.map((c) => c?.username ?? null));
  const [only] = users;
  const one = users.size === 1 && only ? only : null;
  const [first] = changes;
  const when = one && changes.length === 1 && first ? ` at ${first.at} UTC` : '';
  return `Scores of ${listOf(employeeNames)} were changed by ${one ?? 'someone else'}${when} since you opened this date`;
}
