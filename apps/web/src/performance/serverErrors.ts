import type { FieldError } from '@wfc/contract';
import type { SubmissionRow } from './grid';

const CELL_FIELD = /^performances\.(\d+)\.performancePerSkill\.(\d+)\.(pointsEarned|skillCode)$/;

/**
 * The server names a refused cell by its place in the submitted list
 * (`performances.3.performancePerSkill.1.pointsEarned`); this finds the cell on screen, keyed
 * `employeeCode|skillCode`, so it can be marked beside its value.
 */
export function serverCellErrors(
  errors: readonly FieldError[],
  sent: readonly SubmissionRow[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of errors) {
    const m = CELL_FIELD.exec(e.field);
    const row = m ? sent[Number(m[1])] : undefined;
    const cell = m ? row?.performancePerSkill[Number(m[2])] : undefined;
    if (row && cell) out.set(`${row.employeeCode}|${cell.skillCode}`, e.message);
  }
  return out;
}
