import { formatAverage, MAX_LIMIT, type PerformanceRow } from '@wfc/contract';
import { fetchHistory } from './useMyPerformance';

export const MY_PERFORMANCE_CSV = 'My_Performance.csv';

/** A CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Pure: the history as CSV, newest date first: ISO dates (a spreadsheet reads them in any locale),
 * then every skill any row scored, in the order the rows name them, then the three averages.
 */
export function historyCsv(rows: readonly PerformanceRow[]): string {
  const skills = new Map<string, string>();
  for (const row of rows)
    for (const s of row.skills) if (!skills.has(s.skillCode)) skills.set(s.skillCode, s.title);
  const head = ['Date', ...skills.values(), 'Daily Average', 'Monthly Average', 'Yearly Average'];
  const lines = rows.map((row) => {
    const scores = new Map(row.skills.map((s) => [s.skillCode, s.score]));
    return [
      row.date,
      ...[...skills.keys()].map((code) => String(scores.get(code) ?? '')),
      formatAverage(row.total.daily),
      formatAverage(row.total.monthly),
      formatAverage(row.total.yearly),
    ];
  });
  return `${[head, ...lines].map((cells) => cells.map(field).join(',')).join('\r\n')}\r\n`;
}

/** Every saved date of the employee, a page of the largest size at a time. */
export async function fetchWholeHistory(employeeCode: string): Promise<PerformanceRow[]> {
  const rows: PerformanceRow[] = [];
  for (let page = 1; ; page++) {
    const res = await fetchHistory(employeeCode, { page, limit: MAX_LIMIT });
    rows.push(...(res.data ?? []));
    if (!res.data?.length || rows.length >= (res.total ?? 0)) return rows;
  }
}

/** Hands the CSV to the browser as a download. */
export function saveCsv(text: string, filename = MY_PERFORMANCE_CSV) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after the click returns; release it once they surely have.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
