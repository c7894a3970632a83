import { type PerformanceRow, SCORE_MESSAGE } from '@wfc/contract';
import {
  acceptCellInput,
  applyPaste,
  type Bases,
  cellKey,
  type Drafts,
  type PastePlan,
  pasteSummary,
  type RowBase,
  withCell,
} from './grid';
import { type Conflicts, mergeCurrentRows } from './merge';

/*
 * The grid's editing state as one reducer: every change a keystroke, a paste, a save or a new
 * query makes to it happens in one place, from the state as it is at that moment, even when
 * several events arrive before React renders again.
 */

export interface GridDraftState {
  editing: boolean;
  drafts: Drafts;
  /** Each typed-in row as the user saw it first: its version and scores (see `RowBase`). */
  bases: Bases;
  /** Cells someone else changed too, to another value, since the user saw them. */
  conflicts: Conflicts;
  /** The server's message after a save was refused as stale and merged; null otherwise. */
  stale: string | null;
  /** Cells the server refused, keyed `employeeCode|skillCode`, with its reason. */
  cellErrors: ReadonlyMap<string, string>;
  /** The cell (`employeeCode|skillCode`) whose entry was just reverted, marked for a moment. */
  flash: string | null;
  /** What screen readers were last told about the grid. */
  announcement: string;
  /** Cancel was pressed with unsaved changes: the discard question is showing. */
  confirmingCancel: boolean;
}

export type GridDraftAction =
  | { type: 'edit' }
  /** Back to read mode, drafts dropped: after Cancel, Discard or a save. */
  | { type: 'stop' }
  /** Another date, department or filter: drafts belong to the day they were typed on. */
  | { type: 'queryChanged' }
  /** `base`: the row as on screen, kept as the row's base if it is the first cell typed in it. */
  | { type: 'input'; employeeCode: string; skillCode: string; text: string; base: RowBase }
  | { type: 'paste'; plan: PastePlan }
  | { type: 'refused'; cellErrors: ReadonlyMap<string, string> }
  /** A save refused (409) because these rows changed since: merged into the drafts. */
  | { type: 'stale'; message: string; current: readonly PerformanceRow[] }
  /** A conflicting cell settled: their value (the draft goes) or the user's (the draft stays). */
  | { type: 'resolve'; employeeCode: string; skillCode: string; choice: 'theirs' | 'mine' }
  /** These rows were saved by the chunks of a save that a later chunk failed: no longer changes. */
  | { type: 'savedRows'; employeeCodes: readonly string[] }
  | { type: 'flashEnd' }
  | { type: 'askCancel' }
  | { type: 'keepEditing' };

const NO_DRAFTS: Drafts = new Map();
const NO_BASES: Bases = new Map();
const NO_CONFLICTS: Conflicts = new Map();
const NO_ERRORS: ReadonlyMap<string, string> = new Map();

/** Everything that belongs to the rows on screen, dropped when they go. */
const CLEAN = {
  drafts: NO_DRAFTS,
  bases: NO_BASES,
  conflicts: NO_CONFLICTS,
  stale: null,
  cellErrors: NO_ERRORS,
} as const;

export const INITIAL_GRID_DRAFT: GridDraftState = {
  editing: false,
  ...CLEAN,
  flash: null,
  announcement: '',
  confirmingCancel: false,
};

function without<V>(marks: ReadonlyMap<string, V>, key: string): ReadonlyMap<string, V> {
  if (!marks.has(key)) return marks;
  const next = new Map(marks);
  next.delete(key);
  return next;
}

/** The bases with these rows' added, for rows that have none yet (the first cell typed in them). */
function withBases(bases: Bases, added: Bases): Bases {
  let next: Map<string, RowBase> | undefined;
  for (const [employeeCode, base] of added) {
    if (bases.has(employeeCode)) continue;
    next ??= new Map(bases);
    next.set(employeeCode, base);
  }
  return next ?? bases;
}

function withoutDraft(drafts: Drafts, employeeCode: string, skillCode: string): Drafts {
  const row = drafts.get(employeeCode);
  if (!row?.has(skillCode)) return drafts;
  const next = new Map(drafts);
  const cells = new Map(row);
  cells.delete(skillCode);
  if (cells.size) next.set(employeeCode, cells);
  else next.delete(employeeCode);
  return next;
}

export function gridDraftReducer(state: GridDraftState, action: GridDraftAction): GridDraftState {
  switch (action.type) {
    case 'edit':
      return { ...state, editing: true, cellErrors: NO_ERRORS };
    case 'stop':
      return { ...state, editing: false, ...CLEAN, confirmingCancel: false };
    case 'queryChanged':
      if (
        state.drafts.size === 0 &&
        state.bases.size === 0 &&
        state.cellErrors.size === 0 &&
        state.stale === null
      )
        return state;
      return { ...state, ...CLEAN };
    case 'input': {
      const key = cellKey(action.employeeCode, action.skillCode);
      const accepted = acceptCellInput(action.text);
      if (accepted === null) {
        // The input is controlled: not storing the text puts the previous value back.
        return {
          ...state,
          flash: key,
          announcement: `${SCORE_MESSAGE}. "${action.text.trim()}" was reverted.`,
        };
      }
      return {
        ...state,
        drafts: withCell(state.drafts, action.employeeCode, action.skillCode, accepted),
        bases: withBases(state.bases, new Map([[action.employeeCode, action.base]])),
        flash: null,
        cellErrors: without(state.cellErrors, key),
        // Typing a new value in a conflicting cell is a choice of its own.
        conflicts: without(state.conflicts, key),
      };
    }
    case 'paste': {
      let conflicts = state.conflicts;
      for (const c of action.plan.cells) conflicts = without(conflicts, cellKey(c.employeeCode, c.skillCode));
      return {
        ...state,
        drafts: applyPaste(state.drafts, action.plan),
        bases: withBases(state.bases, action.plan.bases),
        conflicts,
        flash: null,
        announcement: pasteSummary(action.plan.cells.length, action.plan.rejected),
      };
    }
    case 'refused':
      return { ...state, cellErrors: action.cellErrors };
    case 'stale': {
      const merged = mergeCurrentRows(state, action.current);
      return { ...state, ...merged, stale: action.message, cellErrors: NO_ERRORS };
    }
    case 'resolve': {
      const key = cellKey(action.employeeCode, action.skillCode);
      if (!state.conflicts.has(key)) return state;
      const conflicts = without(state.conflicts, key);
      const drafts =
        action.choice === 'theirs'
          ? withoutDraft(state.drafts, action.employeeCode, action.skillCode)
          : state.drafts;
      const choice = action.choice === 'theirs' ? 'Their value' : 'Your value';
      const left = conflicts.size === 0 ? 'No conflicts left.' : `${conflicts.size} left.`;
      return { ...state, drafts, conflicts, announcement: `${choice} kept. ${left}` };
    }
    case 'savedRows': {
      const drafts = new Map(state.drafts);
      const bases = new Map(state.bases);
      for (const code of action.employeeCodes) {
        drafts.delete(code);
        bases.delete(code);
      }
      return { ...state, drafts, bases };
    }
    case 'flashEnd':
      return { ...state, flash: null };
    case 'askCancel':
      return { ...state, confirmingCancel: true };
    case 'keepEditing':
      return { ...state, confirmingCancel: false };
  }
}
