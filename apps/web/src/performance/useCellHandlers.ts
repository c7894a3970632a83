import type { PerformanceRow } from '@wfc/contract';
import { type Dispatch, useCallback, useMemo, useRef } from 'react';
import { notify } from '../ui/notify';
import { type CellPos, type Drafts, moveCell, parseBlock, pasteSummary, planPaste, rowBase } from './grid';
import type { GridDraftAction } from './gridDraft';
import { nextUnscored, tabTarget } from './gridNavigation';
import type { ScoreCellHandlers } from './ScoreCell';

const cellId = (row: number, col: number) => `${row}:${col}`;

interface Options {
  /** The drafts as they stand: where the next empty cell is depends on what was typed. */
  drafts?: Drafts;
  /** Scrolls a row into the rendered window: only the rows in view have inputs to focus. */
  revealRow?(row: number): void;
}

/**
 * The score cells' handlers. They read the rows through a ref, so they never change and the
 * memoised cells do not re-render for them; the cells register their inputs for keyboard moves.
 * A move to a row that is not rendered scrolls it in, and the cell takes the focus when it
 * registers.
 */
export function useCellHandlers(
  rows: readonly PerformanceRow[],
  dispatch: Dispatch<GridDraftAction>,
  { drafts = new Map(), revealRow }: Options = {},
) {
  const cells = useRef(new Map<string, HTMLInputElement>());
  const latest = useRef({ rows, drafts, revealRow });
  latest.current = { rows, drafts, revealRow };
  /** A cell to focus once it is rendered. */
  const awaited = useRef<string | null>(null);
  /** The cell last focused: where the Next unscored button starts from. */
  const active = useRef<CellPos>({ row: 0, col: -1 });

  /** Focuses a cell and brings it into view, clear of the frozen columns and the header. */
  const focusCell = useCallback((pos: CellPos) => {
    const el = cells.current.get(cellId(pos.row, pos.col));
    if (!el) {
      awaited.current = cellId(pos.row, pos.col);
      latest.current.revealRow?.(pos.row);
      return;
    }
    el.focus({ preventScroll: true });
    el.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, []);

  const handlers = useMemo<ScoreCellHandlers>(
    () => ({
      register(pos, el) {
        const id = cellId(pos.row, pos.col);
        if (!el) {
          cells.current.delete(id);
          return;
        }
        cells.current.set(id, el);
        if (awaited.current === id) {
          awaited.current = null;
          focusCell(pos);
        }
      },
      onFocus(pos) {
        active.current = pos;
      },
      onInput(pos, text) {
        const row = latest.current.rows[pos.row];
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
        const plan = planPaste(latest.current.rows, pos, parseBlock(text));
        dispatch({ type: 'paste', plan });
        if (plan.rejected) notify.error(pasteSummary(plan.cells.length, plan.rejected));
      },
      onMove(pos, key) {
        const all = latest.current.rows;
        const next =
          key === 'NextUnscored'
            ? nextUnscored(all, latest.current.drafts, pos)
            : moveCell(pos, key, all.length, all[0]?.skills.length ?? 0);
        if (next) focusCell(next);
      },
      onTab(pos, back) {
        const next = tabTarget(latest.current.rows, latest.current.drafts, pos, back);
        if (next) focusCell(next);
        return next !== null;
      },
    }),
    [dispatch, focusCell],
  );

  // Keyboard users land in the first cell, ready to type, once the inputs have rendered.
  const focusFirstCell = useCallback(() => {
    requestAnimationFrame(() => cells.current.get(cellId(0, 0))?.focus());
  }, []);

  /** The Next unscored button: from the cell last focused, or from the start. */
  const focusNextUnscored = useCallback(() => {
    const next = nextUnscored(latest.current.rows, latest.current.drafts, active.current);
    if (next) focusCell(next);
    return next !== null;
  }, [focusCell]);

  return { handlers, focusFirstCell, focusCell, focusNextUnscored, active };
}
