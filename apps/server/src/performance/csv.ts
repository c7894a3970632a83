import { Readable } from 'node:stream';
import {
  formatAverage,
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceRow,
  type PerformanceSkillColumn,
} from '@wfc/contract';

/** The grid's columns, in its order (docs/product.md section 14). */
export function csvHeader(skills: readonly PerformanceSkillColumn[]): string[] {
  const t = PERFORMANCE_COLUMN_TITLES;
  return [t.employeeId, t.employeeName, ...skills.map((s) => s.title), t.daily, t.monthly, t.yearly];
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula;
 * a leading apostrophe keeps such text inert. Scores and averages never start so.
 */
export const inertText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

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

/**
 * Every field made inert, quoted, its quotes doubled: nothing inside a field can end it or run.
 * Done here, where every field of every line passes, so that no column (a skill title in the
 * header, a name in a row) can be forgotten.
 */
export const csvLine = (fields: readonly string[]): string =>
  `${fields.map((f) => `"${inertText(f).replaceAll('"', '""')}"`).join(',')}\r\n`;

/** About what a socket write takes at once. */
const CHUNK_CHARS = 64 * 1024;

/**
 * UTF-8 with a byte-order mark, comma separated, every field quoted (docs/product.md section 14),
 * CRLF line ends. Written as text a chunk of lines at a time: a general CSV library costs more
 * than the quoting these fields need.
 */
export function csvStream(
  skills: readonly PerformanceSkillColumn[],
  rows: readonly PerformanceRow[],
): Readable {
  function* chunks() {
    let chunk = `\ufeff${csvLine(csvHeader(skills))}`;
    for (const row of rows) {
      chunk += csvLine(csvRecord(row));
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(chunks());
}
