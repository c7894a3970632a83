import type { PerformanceRow } from '@wfc/contract';
import { useEffect, useMemo, useReducer } from 'react';
import { changedRows } from './grid';
import { gridDraftReducer, INITIAL_GRID_DRAFT } from './gridDraft';

const FLASH_MS = 1500;

/**
 * The grid's editing state for the rows being edited: what changed (the rows a save sends) and
 * whether anything did. `rowsKey` identifies those rows (the day: date, department and filter,
 * not their order); when it changes the drafts go.
 */
export function useGridDraft(rows: readonly PerformanceRow[], rowsKey: string) {
  const [state, dispatch] = useReducer(gridDraftReducer, INITIAL_GRID_DRAFT);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows' key is the trigger.
  useEffect(() => dispatch({ type: 'queryChanged' }), [rowsKey]);

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
