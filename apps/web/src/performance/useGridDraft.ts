import type { PerformanceRow } from '@wfc/contract';
import { useEffect, useMemo, useReducer } from 'react';
import { changedRows } from './grid';
import { gridDraftReducer, INITIAL_GRID_DRAFT } from './gridDraft';

const FLASH_MS = 1500;

/**
 * The grid's editing state for the rows on screen: what changed (the rows a save sends) and
 * whether anything did. `queryString` identifies those rows; when it changes the drafts go.
 */
export function useGridDraft(rows: readonly PerformanceRow[], queryString: string) {
  const [state, dispatch] = useReducer(gridDraftReducer, INITIAL_GRID_DRAFT);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the trigger.
  useEffect(() => dispatch({ type: 'queryChanged' }), [queryString]);

  useEffect(() => {
    if (!state.flash) return;
    const timer = setTimeout(() => dispatch({ type: 'flashEnd' }), FLASH_MS);
    return () => clearTimeout(timer);
  }, [state.flash]);

  const pending = useMemo(
    () => changedRows(rows, state.drafts, state.bases),
    [rows, state.drafts, state.bases],
  );
  return { state, dispatch, pending, dirty: pending.length > 0 };
}
