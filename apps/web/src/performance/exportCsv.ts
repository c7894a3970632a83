import {
  type ApiEnvelope,
  PERFORMANCE_CSV_FILENAME,
  PERFORMANCE_ENDPOINTS,
  PERFORMANCE_MESSAGES,
} from '@wfc/contract';
import { apiUrl } from '../api/client';
import type { GridQuery } from './query';

export type ExportOutcome = { ok: true } | { ok: false; status: number; message: string };

/**
 * Fetches the server's CSV (every matching employee, not only the page on screen) and hands it
 * to the browser as a download. A fetch rather than a plain link, so a refusal can be told to the
 * user instead of replacing the page, and so it also works when the API lives on another host.
 */
export async function downloadPerformanceCsv(query: GridQuery): Promise<ExportOutcome> {
  const url = apiUrl(PERFORMANCE_ENDPOINTS.exportCsv, {
    date: query.date,
    keyword: query.keyword,
    sortField: query.sortField,
    sortValue: query.sortValue,
  });
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'include' });
  } catch {
    return { ok: false, status: 0, message: 'Network error: the server could not be reached' };
  }
  if (!res.ok) {
    const env = (await res.json().catch(() => null)) as ApiEnvelope | null;
    return { ok: false, status: res.status, message: env?.message || PERFORMANCE_MESSAGES.failedExport };
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = PERFORMANCE_CSV_FILENAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after the click returns; release it once they surely have.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
  return { ok: true };
}
