import { PERFORMANCE_CSV_FILENAME, PERFORMANCE_ENDPOINTS, PERFORMANCE_MESSAGES } from '@wfc/contract';
import { type DownloadOutcome, downloadFile } from '../api/download';
import type { GridQuery } from './query';

export type ExportOutcome = DownloadOutcome;

/** The server's CSV of every matching employee for the date, not only the page on screen. */
export function downloadPerformanceCsv(query: GridQuery): Promise<ExportOutcome> {
  return downloadFile(
    PERFORMANCE_ENDPOINTS.exportCsv,
    {
      date: query.date,
      departmentCode: query.departmentCode || undefined,
      keyword: query.keyword,
      sortField: query.sortField,
      sortValue: query.sortValue,
    },
    { filename: PERFORMANCE_CSV_FILENAME, failed: PERFORMANCE_MESSAGES.failedExport },
  );
}
