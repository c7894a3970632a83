import { SCORE_MESSAGE } from '@wfc/contract';
import { acceptCellInput, applyPaste, type Drafts, type PastePlan, pasteSummary, withCell } from './grid';

/*
 * The grid's editing state as one reducer: every change a keystroke, a paste, a save or a new
 * query makes to it happens in one place, from the state as it is at that moment, even when
 * several events arrive before React renders again.
 */

export interface GridDraftState {
  editing: boolean;
  drafts: Drafts;
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
  /** Another date, page, sort or filter: drafts belong to the rows they were typed on. */
  | { type: 'queryChanged' }
  | { type: 'input'; employeeCode: string; skillCode: string; text: string }
  | { type: 'paste'; plan: PastePlan }
  | { type: 'refused'; cellErrors: ReadonlyMap<string, string> }
  | { type: 'flashEnd' }
  | { type: 'askCancel' }
  | { type: 'keepEditing' };

const NO_DRAFTS: Drafts = new Map();
const NO_ERRORS: ReadonlyMap<string, string> = new Map();

export const INITIAL_GRID_DRAFT: GridDraftState = {
  editing: false,
  drafts: NO_DRAFTS,
  cellErrors: NO_ERRORS,
  flash: null,
  announcement: '',
  confirmingCancel: false,
};

export const cellKey = (employeeCode: string, skillCode: string) => `${employeeCode}|${skillCode}`;

function without(errors: ReadonlyMap<string, string>, key: string): ReadonlyMap<string, string> {
  if (!errors.has(key)) return errors;
  const next = new Map(errors);
  next.delete(key);
  return next;
}

export function gridDraftReducer(state: GridDraftState, action: GridDraftAction): GridDraftState {
  switch (action.type) {
    case 'edit':
      return { ...state, editing: true, cellErrors: NO_ERRORS };
    case 'stop':
      return { ...state, editing: false, drafts: NO_DRAFTS, cellErrors: NO_ERRORS, confirmingCancel: false };
    case 'queryChanged':
      if (state.drafts.size === 0 && state.cellErrors.size === 0) return state;
      return { ...state, drafts: NO_DRAFTS, cellErrors: NO_ERRORS };
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
        flash: null,
        cellErrors: without(state.cellErrors, key),
      };
    }
    case 'paste':
      return {
        ...state,
        drafts: applyPaste(state.drafts, action.plan),
        flash: null,
        announcement: pasteSummary(action.plan.cells.length, action.plan.rejected),
      };
    case 'refused':
      return { ...state, cellErrors: action.cellErrors };
    case 'flashEnd':
      return { ...state, flash: null };
    case 'askCancel':
      return { ...state, confirmingCancel: true };
    case 'keepEditing':
      return { ...state, confirmingCancel: false };
  }
}
