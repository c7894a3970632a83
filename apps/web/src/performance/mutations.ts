import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, PERFORMANCE_MESSAGES } from '@wfc/contract';
import { useNavigate } from 'react-router';
import { ApiError, api, errorMessage } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { useAuth } from '../auth/auth';
import { notify } from '../ui/notify';
import { downloadPerformanceCsv } from './exportCsv';
import type { SubmissionRow } from './grid';
import type { GridQuery } from './query';
import { serverCellErrors } from './serverErrors';

interface SaveCallbacks {
  onSaved(): void;
  /** The refused cells, keyed `employeeCode|skillCode`, to be marked beside their values. */
  onRefused(cellErrors: Map<string, string>): void;
}

/** Saves the changed rows in one request, then fetches the grid again. */
export function useSavePerformances({ onSaved, onRefused }: SaveCallbacks) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: SubmissionRow[]) => api.post(PERFORMANCE_ENDPOINTS.save, { performances: rows }),
    onSuccess: async (res) => {
      notify.success(res.message || PERFORMANCE_MESSAGES.saved);
      onSaved();
      await queryClient.invalidateQueries({ queryKey: queryKeys.performance.all });
    },
    onError: (err, rows) => {
      if (err instanceof ApiError) onRefused(serverCellErrors(err.errors ?? [], rows));
      notify.error(errorMessage(err, PERFORMANCE_MESSAGES.failedSave));
    },
  });
}

/** Downloads the CSV of every employee matching the query, not only the page on screen. */
export function useExportCsv() {
  const { clear: signOutLocally } = useAuth();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (query: GridQuery) => downloadPerformanceCsv(query),
    onSuccess: (outcome) => {
      if (outcome.ok) return;
      // The download bypasses the API client, so its 401 and 403 rules are applied here.
      if (outcome.status === 401) signOutLocally();
      else if (outcome.status === 403) navigate('/access-denied', { replace: true });
      else notify.error(outcome.message);
    },
  });
}
