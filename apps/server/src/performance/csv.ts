import { Readable } from 'node:stream';
import {
  formatAverage,
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceRow,
  type PerformanceSkillColumn,
} from '@wfc/contract';
import { stringify } from 'csv-stringify';

/** The grid's columns, in its order (SPEC.md section 2). */
export function csvHeader(skills: readonly PerformanceSkillColumn[]): string[] {
  const t = PERFORMANCE_COLUMN_TITLES;
  return [t.employeeId, t.employeeName, ...skills.map((s) => s.title), t.daily, t.monthly, t.yearly];
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula;
 * a leading apostrophe keeps free text such as a name inert. Scores and averages never start so.
 */
export const inertText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export function csvRecord(row: PerformanceRow): string[] {
  return [
    inertText(row.employeeId),
    inertText(row.employeeName),
    ...row.skills.map((s) => (s.score === null ? '' : String(s.score))),
    formatAverage(row.total.daily),
    formatAverage(row.total.monthly),
    formatAverage(row.total.yearly),
  ];
}

/** UTF-8 with a byte-order mark, comma separated, every field quoted (DECISIONS.md section 5). */
export function csvStream(
  skills: readonly PerformanceSkillColumn[],
  rows: readonly PerformanceRow[],
): Readable {
  const stringifier = stringify({
    bom: true,
    delimiter: ',',
    quoted: true,
    quoted_empty: true,
    record_delimiter: '\r\n',
  });
  function* records() {
    yield csvHeader(skills);
    for (const row of rows) yield csvRecord(row);
  }
  return Readable.from(records()).pipe(stringifier);
}
