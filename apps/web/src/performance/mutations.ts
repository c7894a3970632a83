import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, PERFORMANCE_MESSAGES, type PerformanceRow } from '@wfc/contract';
import { useNavigate } from 'react-router';
import { ApiError, type ApiSuccess, api, errorMessage } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { useSessionEnded } from '../auth/auth';
import { notify } from '../ui/notify';
import { downloadPerformanceCsv } from './exportCsv';
import type { SubmissionRow } from './grid';
import { withCurrentRows } from './merge';
import type { GridQuery } from './query';
import { serverCellErrors } from './serverErrors';

interface SaveCallbacks {
  onSaved(): void;
  /** The refused cells, keyed `employeeCode|skillCode`, to be marked beside their values. */
  onRefused(cellErrors: Map<string, string>): void;
  /**
   * The save was refused (409) because someone else saved some of its rows since they were
   * loaded: the server's message and those rows as they now stand, already shown in the grid.
   */
  onStale(message: string, current: PerformanceRow[]): void;
}

/** A 409 whose data is the current rows: a stale save rather than any other conflict. */
function staleRowsOf(err: unknown): PerformanceRow[] | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || !Array.isArray(err.data)) return undefined;
  return err.data as PerformanceRow[];
}

/** Puts the current rows in every cached page of the grid that shows them. */
function showCurrentRows(queryClient: QueryClient, current: readonly PerformanceRow[]) {
  queryClient.setQueriesData<ApiSuccess<PerformanceRow[]>>({ queryKey: queryKeys.performance.all }, (page) =>
    Array.isArray(page?.data) ? { ...page, data: withCurrentRows(page.data, current) } : page,
  );
}

/** Saves the changed rows in one request, then fetches the grid again. */
export function useSavePerformances({ onSaved, onRefused, onStale }: SaveCallbacks) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: SubmissionRow[]) => api.post(PERFORMANCE_ENDPOINTS.save, { performances: rows }),
    onSuccess: async (res) => {
      notify.success(res.message || PERFORMANCE_MESSAGES.saved);
      onSaved();
      await queryClient.invalidateQueries({ queryKey: queryKeys.performance.all });
    },
    onError: (err, rows) => {
      const current = staleRowsOf(err);
      if (current) {
        // The screen explains it beside the grid, where the merged cells are.
        showCurrentRows(queryClient, current);
        onStale(errorMessage(err, PERFORMANCE_MESSAGES.failedSave), current);
        return;
      }
      if (err instanceof ApiError) onRefused(serverCellErrors(err.errors ?? [], rows));
      notify.error(errorMessage(err, PERFORMANCE_MESSAGES.failedSave));
    },
  });
}

/** Downloads the CSV of every employee matching the query, not only the page on screen. */
export function useExportCsv() {
  const sessionEnded = useSessionEnded();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (query: GridQuery) => downloadPerformanceCsv(query),
    onSuccess: (outcome) => {
      if (outcome.ok) return;
      // The download bypasses the API client, so its 401 and 403 rules are applied here: an
      // ended session over unsaved scores asks to sign in again rather than dropping them.
      if (outcome.status === 401) sessionEnded();
      else if (outcome.status === 403) navigate('/access-denied', { replace: true });
      else notify.error(outcome.message);
    },
  });
}
