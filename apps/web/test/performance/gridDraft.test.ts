import { type PerformanceRow, SCORE_MESSAGE } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { changedRows, parseBlock, planPaste, rowBase } from '../../src/performance/grid';
import {
  type GridDraftAction,
  type GridDraftState,
  gridDraftReducer,
  INITIAL_GRID_DRAFT,
} from '../../src/performance/gridDraft';

const row = (employeeCode: string, scores: (number | null)[]): PerformanceRow => ({
  performanceCode: null,
  version: null,
  employeeCode,
  employeeId: employeeCode,
  employeeName: employeeCode,
  date: '2024-03-05',
  skills: scores.map((score, i) => ({ skillCode: `SKILL-${i}`, title: `Skill ${i}`, score })),
  total: { daily: null, monthly: null, yearly: null },
});
const ROWS = [row('EMP-1', [7, null]), row('EMP-2', [null, null])];

const run = (...actions: GridDraftAction[]): GridDraftState =>
  actions.reduce(gridDraftReducer, INITIAL_GRID_DRAFT);
const input = (employeeCode: string, skillCode: string, text: string): GridDraftAction => ({
  type: 'input',
  employeeCode,
  skillCode,
  text,
  base: rowBase(ROWS.find((r) => r.employeeCode === employeeCode) ?? row(employeeCode, [])),
});
const draftOf = (state: GridDraftState, employeeCode: string, skillCode: string) =>
  state.drafts.get(employeeCode)?.get(skillCode);

describe('grid draft reducer', () => {
  it('starts in read mode with nothing drafted', () => {
    expect(INITIAL_GRID_DRAFT).toMatchObject({ editing: false, flash: null, announcement: '' });
    expect(INITIAL_GRID_DRAFT.drafts.size).toBe(0);
  });

  it('keeps a valid entry, trimmed, and clears the mark of that cell', () => {
    const state = run(input('EMP-1', 'SKILL-0', '9'), input('EMP-1', 'SKILL-0', ' 10 '));
    expect(draftOf(state, 'EMP-1', 'SKILL-0')).toBe('10');
    expect(changedRows(ROWS, state.drafts)).toHaveLength(1);
  });

  it('reverts an invalid entry: the draft stays, the cell flashes and the reason is announced', () => {
    const state = run(input('EMP-1', 'SKILL-1', '4'), input('EMP-1', 'SKILL-1', ' 42 '));
    expect(draftOf(state, 'EMP-1', 'SKILL-1')).toBe('4');
    expect(state.flash).toBe('EMP-1|SKILL-1');
    expect(state.announcement).toBe(`${SCORE_MESSAGE}. "42" was reverted.`);
    expect(gridDraftReducer(state, { type: 'flashEnd' }).flash).toBeNull();
    expect(gridDraftReducer(state, input('EMP-1', 'SKILL-1', '5')).flash).toBeNull();
  });

  it('applies each action to the state left by the one before, as events arrive faster than renders', () => {
    const state = run(
      input('EMP-1', 'SKILL-0', '1'),
      input('EMP-2', 'SKILL-0', '2'),
      input('EMP-2', 'SKILL-1', '3'),
    );
    expect(changedRows(ROWS, state.drafts).map((r) => r.employeeCode)).toEqual(['EMP-1', 'EMP-2']);
  });

  it('pastes a planned block and announces what it did', () => {
    const plan = planPaste(ROWS, { row: 0, col: 0 }, parseBlock('1\t2\n3\t11\n'));
    const state = run({ type: 'paste', plan });
    expect(draftOf(state, 'EMP-1', 'SKILL-1')).toBe('2');
    expect(draftOf(state, 'EMP-2', 'SKILL-0')).toBe('3');
    expect(draftOf(state, 'EMP-2', 'SKILL-1')).toBeUndefined();
    expect(state.announcement).toBe(
      'Pasted 3 cells; 1 value was not a score from 0 to 10 and left as before.',
    );
  });

  it("marks the server's refused cells until each is typed in again", () => {
    const refused = new Map([
      ['EMP-1|SKILL-0', 'Too high'],
      ['EMP-2|SKILL-0', 'Unknown skill'],
    ]);
    const state = run({ type: 'edit' }, input('EMP-1', 'SKILL-0', '9'), {
      type: 'refused',
      cellErrors: refused,
    });
    expect(state.cellErrors).toBe(refused);
    const retyped = gridDraftReducer(state, input('EMP-1', 'SKILL-0', '8'));
    expect([...retyped.cellErrors.keys()]).toEqual(['EMP-2|SKILL-0']);
    // A cell without a mark leaves the marks as they were.
    expect(gridDraftReducer(retyped, input('EMP-1', 'SKILL-1', '1')).cellErrors).toBe(retyped.cellErrors);
    expect(gridDraftReducer(retyped, { type: 'edit' }).cellErrors.size).toBe(0);
  });

  it('asks before a cancel with changes, and stopping drops everything', () => {
    const asked = run({ type: 'edit' }, input('EMP-1', 'SKILL-0', '9'), { type: 'askCancel' });
    expect(asked.confirmingCancel).toBe(true);
    expect(gridDraftReducer(asked, { type: 'keepEditing' })).toMatchObject({
      editing: true,
      confirmingCancel: false,
    });
    const stopped = gridDraftReducer(asked, { type: 'stop' });
    expect(stopped).toMatchObject({ editing: false, confirmingCancel: false });
    expect(stopped.drafts.size).toBe(0);
  });

  it('drops drafts and marks on another query but stays in edit mode', () => {
    const state = run({ type: 'edit' }, input('EMP-1', 'SKILL-0', '9'), {
      type: 'refused',
      cellErrors: new Map([['EMP-1|SKILL-0', 'Too high']]),
    });
    const moved = gridDraftReducer(state, { type: 'queryChanged' });
    expect(moved.editing).toBe(true);
    expect(moved.drafts.size).toBe(0);
    expect(moved.cellErrors.size).toBe(0);
    // Nothing to drop: the same state, so nothing re-renders.
    expect(gridDraftReducer(moved, { type: 'queryChanged' })).toBe(moved);
  });
});

describe('grid draft reducer: a save refused as stale', () => {
  // EMP-1 was loaded at [7, empty]; someone else then saved [3, 4] as version 2.
  const theirs: PerformanceRow = { ...row('EMP-1', [3, 4]), performanceCode: 'PERF-1', version: 2 };
  const typed = () =>
    run(
      { type: 'edit' },
      input('EMP-1', 'SKILL-0', '9'),
      input('EMP-1', 'SKILL-1', '4'),
      input('EMP-2', 'SKILL-0', '1'),
    );

  it('keeps the row as it was first seen as its base, whatever is typed after', () => {
    const state = typed();
    expect(state.bases.get('EMP-1')).toEqual(rowBase(ROWS[0]!));
    const later = gridDraftReducer(state, {
      ...input('EMP-1', 'SKILL-1', '2'),
      base: rowBase(theirs),
    } as GridDraftAction);
    expect(later.bases).toBe(state.bases);
  });

  it('merges the current rows, marks the cells both changed, and says so', () => {
    const state = gridDraftReducer(
      { ...typed(), cellErrors: new Map([['EMP-2|SKILL-0', 'Too high']]) },
      { type: 'stale', message: 'Scores of EMP-1 were changed by ann', current: [theirs] },
    );
    expect(state.stale).toBe('Scores of EMP-1 were changed by ann');
    expect(state.conflicts).toEqual(new Map([['EMP-1|SKILL-0', { theirs: 3, mine: 9 }]]));
    // Both typed 4 into SKILL-1: settled. EMP-2 was not stale: untouched.
    expect(draftOf(state, 'EMP-1', 'SKILL-1')).toBeUndefined();
    expect(draftOf(state, 'EMP-2', 'SKILL-0')).toBe('1');
    expect(state.bases.get('EMP-1')?.version).toBe(2);
    expect(state.cellErrors.size).toBe(0);
    expect(changedRows([theirs, ROWS[1]!], state.drafts, state.bases).map((r) => r.version)).toEqual([
      2,
      null,
    ]);
  });

  it("settles a conflict with their value (the draft goes) or the user's (it stays)", () => {
    const stale = gridDraftReducer(typed(), { type: 'stale', message: 'm', current: [theirs] });
    /** The user's choice in EMP-1's SKILL-0 cell. */
    const choose = (state: typeof stale, choice: 'theirs' | 'mine') =>
      gridDraftReducer(state, { type: 'resolve', employeeCode: 'EMP-1', skillCode: 'SKILL-0', choice });
    const theirsKept = choose(stale, 'theirs');
    expect(theirsKept.conflicts.size).toBe(0);
    expect(theirsKept.drafts.has('EMP-1')).toBe(false);
    expect(theirsKept.announcement).toBe('Their value kept. No conflicts left.');
    const mineKept = choose(stale, 'mine');
    expect(mineKept.conflicts.size).toBe(0);
    expect(draftOf(mineKept, 'EMP-1', 'SKILL-0')).toBe('9');
    expect(mineKept.announcement).toBe('Your value kept. No conflicts left.');
    // A cell without a conflict: nothing to settle.
    expect(choose(mineKept, 'theirs')).toBe(mineKept);
  });

  it('counts typing or pasting into a conflicting cell as a choice', () => {
    const stale = gridDraftReducer(typed(), { type: 'stale', message: 'm', current: [theirs] });
    expect(gridDraftReducer(stale, input('EMP-1', 'SKILL-0', '5')).conflicts.size).toBe(0);
    const plan = planPaste([theirs], { row: 0, col: 0 }, parseBlock('6'));
    expect(gridDraftReducer(stale, { type: 'paste', plan }).conflicts.size).toBe(0);
  });

  it('forgets bases, conflicts and the message with the rows: on another query or after a save', () => {
    const stale = gridDraftReducer(typed(), { type: 'stale', message: 'm', current: [theirs] });
    for (const next of [
      gridDraftReducer(stale, { type: 'queryChanged' }),
      gridDraftReducer(stale, { type: 'stop' }),
    ]) {
      expect(next).toMatchObject({ stale: null });
      expect(next.bases.size + next.conflicts.size + next.drafts.size).toBe(0);
    }
  });
});
