import type { PerformanceRow } from '@wfc/contract';
import { type Dispatch, useCallback, useMemo, useRef } from 'react';
import { notify } from '../ui/notify';
import { type CellPos, moveCell, parseBlock, pasteSummary, planPaste, rowBase } from './grid';
import type { GridDraftAction } from './gridDraft';
import type { ScoreCellHandlers } from './ScoreCell';

const cellId = (row: number, col: number) => `${row}:${col}`;

/**
 * The score cells' handlers. They read the rows through a ref, so they never change and the
 * memoised cells do not re-render for them; the cells register their inputs for keyboard moves.
 */
export function useCellHandlers(rows: readonly PerformanceRow[], dispatch: Dispatch<GridDraftAction>) {
  const cells = useRef(new Map<string, HTMLInputElement>());
  const latest = useRef(rows);
  latest.current = rows;

  const handlers = useMemo<ScoreCellHandlers>(
    () => ({
      register(pos, el) {
        if (el) cells.current.set(cellId(pos.row, pos.col), el);
        else cells.current.delete(cellId(pos.row, pos.col));
      },
      onInput(pos, text) {
        const row = latest.current[pos.row];
        const skill = row?.skills[pos.col];
        if (row && skill)
          dispatch({
            type: 'input',
            employeeCode: row.employeeCode,
            skillCode: skill.skillCode,
            text,
            base: rowBase(row),
          });
      },
      onPaste(pos, text) {
        const plan = planPaste(latest.current, pos, parseBlock(text));
        dispatch({ type: 'paste', plan });
        if (plan.rejected) notify.error(pasteSummary(plan.cells.length, plan.rejected));
      },
      onMove(pos, key) {
        const all = latest.current;
        const next = moveCell(pos, key, all.length, all[0]?.skills.length ?? 0);
        cells.current.get(cellId(next.row, next.col))?.focus();
      },
    }),
    [dispatch],
  );

  // Keyboard users land in the first cell, ready to type, once the inputs have rendered.
  const focusFirstCell = useCallback(() => {
    requestAnimationFrame(() => cells.current.get(cellId(0, 0))?.focus());
  }, []);

  /** Focuses a cell and brings it into view, clear of the frozen columns on either side. */
  const focusCell = useCallback((pos: CellPos) => {
    const el = cells.current.get(cellId(pos.row, pos.col));
    el?.focus({ preventScroll: true });
    el?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, []);

  return { handlers, focusFirstCell, focusCell };
}
