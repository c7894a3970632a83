import { type ClipboardEvent, type KeyboardEvent, memo, useRef } from 'react';
import type { CellPos, MoveKey } from './grid';
import { SCORE_INPUT_CLASS } from './tableStyles';

export interface ScoreCellHandlers {
  onInput(pos: CellPos, text: string): void;
  onPaste(pos: CellPos, text: string): void;
  /** 'NextUnscored' (Ctrl+Enter): the next empty cell of the day, wherever it is. */
  onMove(pos: CellPos, key: MoveKey | 'NextUnscored'): void;
  /** Tab or Shift+Tab: true when the grid moved the focus itself, false to leave it to the page order. */
  onTab(pos: CellPos, back: boolean): boolean;
  onFocus(pos: CellPos): void;
  register(pos: CellPos, el: HTMLInputElement | null): void;
}

interface Props {
  row: number;
  col: number;
  value: string;
  label: string;
  changed: boolean;
  invalid: boolean;
  /** Someone else changed the cell too, to another value: highlighted until the user chooses. */
  conflict: boolean;
  /** The id of what describes the cell (a conflict's two values). */
  describedBy?: string;
  disabled: boolean;
  /** Compact rows: less padding inside the input. */
  dense: boolean;
  handlers: ScoreCellHandlers;
}

/** Left and Right leave the cell only from its edge, so they still move the caret inside "10". */
function leavesCell(el: HTMLInputElement, key: string): boolean {
  const start = el.selectionStart ?? 0;
  const end = el.selectionEnd ?? 0;
  const all = start === 0 && end === el.value.length;
  if (all) return true;
  return key === 'ArrowLeft' ? start === 0 && end === 0 : start === el.value.length;
}

/**
 * What a keystroke does to a cell that was just selected (focused, clicked or pasted into) and not
 * typed in since, as in a spreadsheet: a character replaces the whole value, Backspace and Delete
 * clear it. Undefined: the keystroke is the browser's (editing within the value, or a move).
 */
export function freshCellKeystroke(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>) {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  if (e.key === 'Backspace' || e.key === 'Delete') return '';
  return e.key.length === 1 ? e.key : undefined;
}

/** One score input; memoised because a grid holds hundreds of them and a keystroke changes one. */
export const ScoreCell = memo(function ScoreCell({
  row,
  col,
  value,
  label,
  changed,
  invalid,
  conflict,
  describedBy,
  disabled,
  dense,
  handlers,
}: Props) {
  const pos: CellPos = { row, col };
  // Whether the next character replaces the value. A click on a focused cell puts the caret in the
  // middle of the value, where a typed score would be appended and refused (9 then 7 gives 97).
  const fresh = useRef(true);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const key = e.key;
    const replacement = fresh.current ? freshCellKeystroke(e) : undefined;
    if (replacement !== undefined) {
      e.preventDefault();
      fresh.current = false;
      handlers.onInput(pos, replacement);
      return;
    }
    if (key.length === 1 || key === 'Backspace' || key === 'Delete') fresh.current = false;
    if (key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      handlers.onMove(pos, 'NextUnscored');
    } else if (key === 'Tab') {
      if (handlers.onTab(pos, e.shiftKey)) e.preventDefault();
    } else if (key === 'Enter') {
      e.preventDefault();
      handlers.onMove(pos, e.shiftKey ? 'ShiftEnter' : 'Enter');
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      e.preventDefault();
      handlers.onMove(pos, key);
    } else if ((key === 'ArrowLeft' || key === 'ArrowRight') && leavesCell(e.currentTarget, key)) {
      e.preventDefault();
      handlers.onMove(pos, key);
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    fresh.current = true;
    handlers.onPaste(pos, e.clipboardData.getData('text/plain'));
  };
  return (
    <input
      ref={(el) => handlers.register(pos, el)}
      className={SCORE_INPUT_CLASS}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      data-row={row}
      data-col={col}
      data-changed={changed || undefined}
      data-conflict={conflict || undefined}
      data-dense={dense || undefined}
      value={value}
      disabled={disabled}
      onChange={(e) => handlers.onInput(pos, e.currentTarget.value)}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      onFocus={(e) => {
        fresh.current = true;
        handlers.onFocus(pos);
        e.currentTarget.select();
      }}
      onMouseDown={() => {
        fresh.current = true;
      }}
    />
  );
});
