import { PERFORMANCE_MESSAGES } from '@wfc/contract';
import { type Dispatch, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import type { Drafts, SubmissionRow } from './grid';
import type { GridDraftAction, GridDraftState } from './gridDraft';
import { unresolvedMessage } from './merge';
import { saveFailureReason, useSavePerformances } from './mutations';
import { ChunkRefused } from './saveChunks';

interface Failure {
  message: string;
  /** Rows saved by the chunks before the refused one. */
  saved: number;
  /**
   * The drafts left once the failure was taken in (the chunks saved before it leave the drafts):
   * the failure is said while they are unchanged. Null until the render that takes it in.
   */
  drafts: Drafts | null;
}

/** Save: the changed rows of the day, unless a conflict is open, and what became of them. */
export function useGridSave(
  state: GridDraftState,
  dispatch: Dispatch<GridDraftAction>,
  pending: SubmissionRow[],
) {
  const save = useSavePerformances({
    onSaved: () => dispatch({ type: 'stop' }),
    onRefused: (cellErrors) => dispatch({ type: 'refused', cellErrors }),
    onStale: (message, current) => dispatch({ type: 'stale', message, current }),
    onPartlySaved: (saved) =>
      dispatch({ type: 'savedRows', employeeCodes: saved.map((r) => r.employeeCode) }),
  });
  const [failure, setFailure] = useState<Failure | null>(null);

  const start = () => {
    if (pending.length === 0 || save.isPending) return;
    // Someone else's value would be overwritten without the user having chosen it.
    if (state.conflicts.size > 0) {
      notify.error(unresolvedMessage(state.conflicts.size));
      return;
    }
    setFailure(null);
    save.mutate(pending, {
      onError: (failed) => {
        const err = saveFailureReason(failed);
        // A stale save is explained above the grid (StaleAlert).
        if (err instanceof ApiError && err.status === 409 && Array.isArray(err.data)) return;
        const saved = failed instanceof ChunkRefused ? failed.saved.length : 0;
        setFailure({ message: errorMessage(err, PERFORMANCE_MESSAGES.failedSave), saved, drafts: null });
      },
    });
  };
  useEffect(() => {
    if (failure && failure.drafts === null) setFailure({ ...failure, drafts: state.drafts });
  }, [failure, state.drafts]);
  const shown = failure && (failure.drafts === null || failure.drafts === state.drafts) ? failure : null;
  return { start, saving: save.isPending, failure: shown, dismiss: () => setFailure(null) };
}
