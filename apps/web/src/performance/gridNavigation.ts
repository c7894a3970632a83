import type { PerformanceRow } from '@wfc/contract';
import { type CellPos, cellText, type Drafts } from './grid';

/*
 * Where the keyboard goes when a day is being scored from top to bottom: to the cells that still
 * need a score, skipping those already filled. Pure, over every row of the day (not only the rows
 * rendered), so a move may land on a row that is scrolled out of view.
 */

const isEmpty = (drafts: Drafts, row: PerformanceRow, col: number) => cellText(drafts, row, col) === '';

/** The first empty cell of a row from `from` on (or, backwards, the last up to `from`); -1 if none. */
function emptyIn(drafts: Drafts, row: PerformanceRow, from: number, back: boolean): number {
  const step = back ? -1 : 1;
  for (let col = from; col >= 0 && col < row.skills.length; col += step) {
    if (isEmpty(drafts, row, col)) return col;
  }
  return -1;
}

/**
 * The next unscored cell after `pos`, row by row, wrapping past the last row to the first; null
 * when every cell of the day is scored.
 */
export function nextUnscored(rows: readonly PerformanceRow[], drafts: Drafts, pos: CellPos): CellPos | null {
  for (let i = 0; i <= rows.length; i += 1) {
    const r = (pos.row + i) % rows.length;
    const row = rows[r];
    if (!row) continue;
    const from = i === 0 ? pos.col + 1 : 0;
    const col = emptyIn(drafts, row, from, false);
    // Back on the starting row after wrapping: only the cells before the start are left.
    if (col !== -1 && (i < rows.length || col <= pos.col)) return { row: r, col };
  }
  return null;
}

/**
 * Tab from a cell with nothing left to fill after it in its row goes to the first empty cell of
 * the next row that has one, instead of through the filled cells; Shift+Tab from a cell with
 * nothing to fill before it goes to the last empty cell of the previous such row. Null: Tab keeps
 * the page order (the next cell of the row, or out of the grid when no later row has an empty cell).
 */
export function tabTarget(
  rows: readonly PerformanceRow[],
  drafts: Drafts,
  pos: CellPos,
  back: boolean,
): CellPos | null {
  const row = rows[pos.row];
  if (!row) return null;
  const rest = back ? emptyIn(drafts, row, pos.col - 1, true) : emptyIn(drafts, row, pos.col + 1, false);
  if (rest !== -1) return null;
  const step = back ? -1 : 1;
  for (let r = pos.row + step; r >= 0 && r < rows.length; r += step) {
    const next = rows[r];
    if (!next) continue;
    const col = emptyIn(drafts, next, back ? next.skills.length - 1 : 0, back);
    if (col !== -1) return { row: r, col };
  }
  return null;
}
