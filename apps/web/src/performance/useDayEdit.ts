import { PERFORMANCE_MESSAGES, type PerformanceRow } from '@wfc/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import type { GridQuery } from './query';
import { useCellHandlers } from './useCellHandlers';
import { useDayRows } from './useDayRows';
import { useGridDraft } from './useGridDraft';

/**
 * The grid's rows and their editing: the page read, and in edit mode the whole day (every row
 * of the date, department and filter), with the drafts typed into it and the cells' handlers.
 */
export function useDayEdit(query: GridQuery, pageRows: readonly PerformanceRow[]) {
  const [requested, setRequested] = useState(false);
  const day = useDayRows(query, requested);
  const dayRows = day.data?.data;
  const rows = requested && dayRows ? dayRows : pageRows;
  const draft = useGridDraft(rows, [query.date, query.departmentCode, query.keyword].join('|'));
  const { state, dispatch } = draft;
  const revealRow = useRef<((row: number) => void) | null>(null);
  const cells = useCellHandlers(rows, dispatch, {
    drafts: state.drafts,
    revealRow: (row) => revealRow.current?.(row),
  });
  // The inputs appear once the day has arrived; the keyboard starts in its first cell.
  const editing = state.editing && dayRows !== undefined;
  const { focusFirstCell } = cells;
  useEffect(() => {
    if (editing) focusFirstCell();
  }, [editing, focusFirstCell]);
  useEffect(() => {
    if (!state.editing) setRequested(false);
  }, [state.editing]);
  // Without the whole day there is nothing to edit: back to the page, saying why.
  useEffect(() => {
    if (!day.error) return;
    notify.error(errorMessage(day.error, PERFORMANCE_MESSAGES.failedList));
    dispatch({ type: 'stop' });
  }, [day.error, dispatch]);
  const startEditing = useCallback(() => {
    setRequested(true);
    dispatch({ type: 'edit' });
  }, [dispatch]);

  return {
    ...draft,
    ...cells,
    rows,
    /** The day has arrived and its cells are inputs. */
    editing,
    startEditing,
    revealRow,
    loadingDay: requested && day.isFetching,
  };
}
