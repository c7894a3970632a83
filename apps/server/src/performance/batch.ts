import {
  type FieldError,
  PERFORMANCE_MESSAGES,
  type PerformanceRowInput,
  type PerformanceSkillColumn,
} from '@wfc/contract';

const rowField = (i: number, field: string) => `performances.${i}.${field}`;
const cellField = (i: number, j: number, field: string) =>
  `performances.${i}.performancePerSkill.${j}.${field}`;

/** Pure: what a batch cannot mean, whatever the database holds (repeated rows or cells). */
export function batchShapeErrors(rows: readonly PerformanceRowInput[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const key = `${row.employeeCode}|${row.date}`;
    if (seen.has(key)) {
      errors.push({ field: rowField(i, 'date'), message: 'This employee and date appear twice in the list' });
    }
    seen.add(key);
    const skills = new Set<string>();
    row.performancePerSkill.forEach((cell, j) => {
      if (skills.has(cell.skillCode)) {
        errors.push({ field: cellField(i, j, 'skillCode'), message: 'This skill appears twice in the row' });
      }
      skills.add(cell.skillCode);
    });
  });
  return errors;
}

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
