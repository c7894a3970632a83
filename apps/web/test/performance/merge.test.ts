import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { type Bases, type Drafts, rowBase } from '../../src/performance/grid';
import {
  type Conflicts,
  conflictDescription,
  firstConflict,
  mergeCurrentRows,
  mergeSummary,
  unresolvedMessage,
  withCurrentRows,
} from '../../src/performance/merge';

const SKILLS = ['S1', 'S2', 'S3', 'S4', 'S5'];
const row = (
  employeeCode: string,
  scores: (number | null)[],
  version: number | null = 1,
  date = '2024-03-05',
): PerformanceRow => ({
  performanceCode: version === null ? null : `P-${employeeCode}`,
  version,
  employeeCode,
  employeeId: employeeCode,
  employeeName: `Name ${employeeCode}`,
  date,
  skills: SKILLS.map((skillCode, i) => ({ skillCode, title: skillCode, score: scores[i] ?? null })),
  total: { daily: null, monthly: null, yearly: null },
});
const drafts = (entries: Record<string, Record<string, string>>): Drafts =>
  new Map(Object.entries(entries).map(([e, cells]) => [e, new Map(Object.entries(cells))]));
const NO_CONFLICTS: Conflicts = new Map();

describe('mergeCurrentRows: base, mine and theirs, cell by cell', () => {
  // E1 as the user loaded it, at version 1.
  const base = row('E1', [1, 2, 3, 4, null]);
  const bases: Bases = new Map([['E1', rowBase(base)]]);
  // Meanwhile someone else saved E1 (version 2): S2 2 -> 7, S3 3 -> 8, S4 4 -> 9, S5 empty -> 5.
  const theirs = row('E1', [1, 7, 8, 9, 5], 2);
  // The user typed: S1 1 -> 6 (only mine), S3 3 -> 0 (both, differently), S4 4 -> 9 (both, alike);
  // S2 and S5 were typed over with the values they had (no change of the user's).
  const mine = drafts({ E1: { S1: '6', S2: '2', S3: '0', S4: '9', S5: '' } });

  const merged = mergeCurrentRows({ drafts: mine, bases, conflicts: NO_CONFLICTS }, [theirs]);

  it('keeps the cells only the user changed', () => {
    expect(merged.drafts.get('E1')?.get('S1')).toBe('6');
  });

  it('takes theirs where only they changed: the draft goes, the row shows their value', () => {
    expect(merged.drafts.get('E1')?.has('S2')).toBe(false);
    expect(merged.drafts.get('E1')?.has('S5')).toBe(false);
  });

  it('drops a draft both sides changed to the same value: nothing is left to save there', () => {
    expect(merged.drafts.get('E1')?.has('S4')).toBe(false);
  });

  it('marks a cell both sides changed to different values, keeping what the user typed', () => {
    expect(merged.drafts.get('E1')?.get('S3')).toBe('0');
    expect(merged.conflicts).toEqual(new Map([['E1|S3', { theirs: 8, mine: 0 }]]));
  });

  it('takes their row as the new base, so the next save names the current version', () => {
    expect(merged.bases.get('E1')).toEqual(rowBase(theirs));
    expect(merged.bases.get('E1')?.version).toBe(2);
  });

  it('leaves the state it was given as it was', () => {
    expect(mine.get('E1')?.size).toBe(5);
    expect(bases.get('E1')?.version).toBe(1);
  });
});

describe('mergeCurrentRows across rows', () => {
  it('leaves rows the server did not answer alone, and drops a row left without drafts', () => {
    const state = {
      drafts: drafts({ E1: { S1: '5' }, E2: { S1: '5' } }),
      bases: new Map([
        ['E1', rowBase(row('E1', [1]))],
        ['E2', rowBase(row('E2', [1]))],
      ]),
      conflicts: NO_CONFLICTS,
    };
    // E1 changed the same cell to the same value: nothing of the user's is left in it.
    const merged = mergeCurrentRows(state, [row('E1', [5], 2)]);
    expect(merged.drafts.has('E1')).toBe(false);
    expect(merged.drafts.get('E2')).toBe(state.drafts.get('E2'));
    expect(merged.bases.get('E2')).toBe(state.bases.get('E2'));
    expect(merged.conflicts.size).toBe(0);
  });

  it('a row someone created meanwhile: the user saw it empty (version null)', () => {
    const state = {
      drafts: drafts({ E3: { S1: '4', S2: '6' } }),
      bases: new Map([['E3', rowBase(row('E3', [], null))]]),
      conflicts: NO_CONFLICTS,
    };
    const merged = mergeCurrentRows(state, [row('E3', [4, 9, 2], 1)]);
    // S1: both typed 4. S2: 6 against 9. S3: only theirs.
    expect(merged.drafts.get('E3')).toEqual(new Map([['S2', '6']]));
    expect(merged.conflicts).toEqual(new Map([['E3|S2', { theirs: 9, mine: 6 }]]));
    expect(merged.bases.get('E3')?.version).toBe(1);
  });

  it('an emptied cell against a new value is a conflict too, and so is any difference without a base', () => {
    const state = {
      drafts: drafts({ E1: { S1: '' }, E4: { S1: '3' } }),
      bases: new Map([['E1', rowBase(row('E1', [2]))]]),
      conflicts: NO_CONFLICTS,
    };
    const merged = mergeCurrentRows(state, [row('E1', [7], 2), row('E4', [3, 1], 2)]);
    expect(merged.conflicts).toEqual(new Map([['E1|S1', { theirs: 7, mine: null }]]));
    // E4 has no base: its equal cell is settled, nothing else was typed.
    expect(merged.drafts.has('E4')).toBe(false);
    const unknown = mergeCurrentRows(
      { drafts: drafts({ E4: { S1: '8' } }), bases: new Map(), conflicts: NO_CONFLICTS },
      [row('E4', [3], 2)],
    );
    expect(unknown.conflicts).toEqual(new Map([['E4|S1', { theirs: 3, mine: 8 }]]));
  });

  it('replaces an earlier conflict of a merged cell, and keeps those of other rows', () => {
    const state = {
      drafts: drafts({ E1: { S1: '5' }, E2: { S1: '5' } }),
      bases: new Map([
        ['E1', rowBase(row('E1', [1]))],
        ['E2', rowBase(row('E2', [1]))],
      ]),
      conflicts: new Map([
        ['E1|S1', { theirs: 2, mine: 5 }],
        ['E2|S1', { theirs: 2, mine: 5 }],
      ]),
    };
    const merged = mergeCurrentRows(state, [row('E1', [3], 3)]);
    expect(merged.conflicts).toEqual(
      new Map([
        ['E1|S1', { theirs: 3, mine: 5 }],
        ['E2|S1', { theirs: 2, mine: 5 }],
      ]),
    );
  });
});

describe('withCurrentRows', () => {
  it('puts the current rows in place of theirs, on the columns on screen', () => {
    const screen = [row('E1', [1]), row('E2', [2])];
    const current = {
      ...row('E2', [9, 9], 3),
      // A skill added meanwhile is not a column yet; a skill gone is empty.
      skills: [
        { skillCode: 'S1', title: 'S1', score: 9 },
        { skillCode: 'NEW', title: 'New', score: 4 },
      ],
    };
    const next = withCurrentRows(screen, [current, row('E9', [1])]);
    expect(next[0]).toBe(screen[0]);
    expect(next[1]?.version).toBe(3);
    expect(next[1]?.skills.map((s) => [s.skillCode, s.score])).toEqual([
      ['S1', 9],
      ['S2', null],
      ['S3', null],
      ['S4', null],
      ['S5', null],
    ]);
    // The same employee on another date is another row.
    expect(withCurrentRows(screen, [row('E1', [7], 2, '2024-03-06')])[0]).toBe(screen[0]);
  });
});

describe('firstConflict', () => {
  it('finds the first conflicting cell in page order, row by row', () => {
    const rows = [row('E1', []), row('E2', []), row('E3', [])];
    const conflict = { theirs: 1, mine: 2 };
    expect(firstConflict(rows, NO_CONFLICTS)).toBeNull();
    expect(
      firstConflict(
        rows,
        new Map([
          ['E3|S1', conflict],
          ['E2|S4', conflict],
          ['E2|S2', conflict],
        ]),
      ),
    ).toEqual({ row: 1, col: 1 });
    // A conflict of a row no longer on screen has no place.
    expect(firstConflict(rows, new Map([['E9|S1', conflict]]))).toBeNull();
  });
});

describe('what the screen says', () => {
  it('describes a conflicting cell for screen readers', () => {
    expect(conflictDescription({ theirs: 7, mine: 5 })).toBe('Changed by someone else to 7; yours is 5.');
    expect(conflictDescription({ theirs: null, mine: 0 })).toBe(
      'Changed by someone else to empty; yours is 0.',
    );
  });

  it('sums up a merge, and refuses to save over unresolved cells', () => {
    expect(mergeSummary(1, true)).toBe(
      'Their changes are now in the grid and yours are kept. 1 cell you both changed is highlighted: choose their value or yours, then save again.',
    );
    expect(mergeSummary(3, true)).toMatch(/3 cells you both changed are highlighted/);
    expect(mergeSummary(0, true)).toMatch(/Check the scores and save again\.$/);
    expect(mergeSummary(0, false)).toMatch(/nothing is left to save\.$/);
    expect(unresolvedMessage(1)).toBe('Choose their value or yours in the highlighted cell before saving.');
    expect(unresolvedMessage(2)).toBe(
      'Choose their value or yours in each of the 2 highlighted cells before saving.',
    );
  });
});
