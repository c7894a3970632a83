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
import { ChunkRefused, saveChunks } from './saveChunks';
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
  /** A later chunk was refused after these rows were saved: they are no longer changes. */
  onPartlySaved?(saved: readonly SubmissionRow[]): void;
}

/** Why a save failed, whether or not it was sent in chunks. */
export const saveFailureReason = (err: unknown) => (err instanceof ChunkRefused ? err.reason : err);

/** Sends the rows chunk after chunk (see saveChunks.ts); the last chunk's answer is the save's. */
async function saveInChunks(rows: readonly SubmissionRow[]) {
  const saved: SubmissionRow[] = [];
  let answer: ApiSuccess<unknown> | undefined;
  for (const chunk of saveChunks(rows)) {
    try {
      answer = await api.post(PERFORMANCE_ENDPOINTS.save, { performances: chunk });
    } catch (err) {
      throw new ChunkRefused(err, saved, chunk);
    }
    saved.push(...chunk);
  }
  return answer ?? { message: PERFORMANCE_MESSAGES.saved };
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

/** Saves the changed rows (in chunks when they are many), then fetches the grid again. */
export function useSavePerformances({ onSaved, onRefused, onStale, onPartlySaved }: SaveCallbacks) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveInChunks,
    onSuccess: async (res) => {
      notify.success(res.message || PERFORMANCE_MESSAGES.saved);
      onSaved();
      await queryClient.invalidateQueries({ queryKey: queryKeys.performance.all });
    },
    onError: (failure) => {
      const err = saveFailureReason(failure);
      const rows = failure instanceof ChunkRefused ? failure.chunk : [];
      if (failure instanceof ChunkRefused && failure.saved.length > 0) {
        onPartlySaved?.(failure.saved);
        void queryClient.invalidateQueries({ queryKey: queryKeys.performance.all });
      }
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
