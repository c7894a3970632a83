import type { Readable } from 'node:stream';
import {
  formatAverage,
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceRow,
  type PerformanceSkillColumn,
} from '@wfc/contract';
import { csvFile } from '../../http/csv.ts';

/** The grid's columns, in its order (docs/product.md section 14). */
export function csvHeader(skills: readonly PerformanceSkillColumn[]): string[] {
  const t = PERFORMANCE_COLUMN_TITLES;
  return [t.employeeId, t.employeeName, ...skills.map((s) => s.title), t.daily, t.monthly, t.yearly];
}

export function csvRecord(row: PerformanceRow): string[] {
  return [
    row.employeeId,
    row.employeeName,
    ...row.skills.map((s) => (s.score === null ? '' : String(s.score))),
    formatAverage(row.total.daily),
    formatAverage(row.total.monthly),
    formatAverage(row.total.yearly),
  ];
}

/** The grid's CSV: its header, then a line per row (docs/product.md section 14). */
export const csvStream = (
  skills: readonly PerformanceSkillColumn[],
  rows: readonly PerformanceRow[],
): Readable => csvFile(csvHeader(skills), rows.map(csvRecord));
