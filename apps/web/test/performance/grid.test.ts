import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import {
  acceptCellInput,
  applyPaste,
  cellText,
  changedRows,
  type Drafts,
  isCellChanged,
  moveCell,
  parseBlock,
  pasteSummary,
  planPaste,
  withCell,
} from '../../src/performance/grid';
import { freshCellKeystroke } from '../../src/performance/ScoreCell';
import { serverCellErrors } from '../../src/performance/serverErrors';

const SKILLS = ['S1', 'S2', 'S3'];
const row = (
  employeeCode: string,
  scores: (number | null)[],
  performanceCode: string | null = null,
): PerformanceRow => ({
  performanceCode,
  version: performanceCode ? 4 : null,
  employeeCode,
  employeeId: employeeCode,
  employeeName: employeeCode,
  date: '2024-03-05',
  skills: SKILLS.map((skillCode, i) => ({ skillCode, title: skillCode, score: scores[i] ?? null })),
  total: { daily: null, monthly: null, yearly: null },
});
const rows: [PerformanceRow, PerformanceRow, PerformanceRow] = [
  row('E1', [1, null, 3], 'P1'),
  row('E2', [null, null, null]),
  row('E3', [10, 0, 5], 'P3'),
];
const none: Drafts = new Map();

describe('acceptCellInput: empty or a whole number 0..10', () => {
  it('keeps valid text, normalised', () => {
    expect(acceptCellInput('')).toBe('');
    expect(acceptCellInput(' 7 ')).toBe('7');
    expect(acceptCellInput('07')).toBe('7');
    expect(acceptCellInput('10')).toBe('10');
  });

  it('refuses the rest, so the cell keeps its value', () => {
    for (const s of ['11', '-1', '1.5', 'x', '1 2', '٣']) expect(acceptCellInput(s)).toBeNull();
  });
});

describe('drafts', () => {
  it('show the draft over the saved score, and count a change only when the value differs', () => {
    let d = withCell(none, 'E1', 'S1', '1');
    expect(isCellChanged(d, rows[0], 0)).toBe(false);
    d = withCell(d, 'E1', 'S2', '4');
    expect(cellText(d, rows[0], 1)).toBe('4');
    expect(cellText(d, rows[0], 2)).toBe('3');
    expect(isCellChanged(d, rows[0], 1)).toBe(true);
    expect(none.size).toBe(0);
  });

  it('send only the changed rows, each complete, empty cells as empty text', () => {
    let d = withCell(none, 'E1', 'S3', '');
    d = withCell(d, 'E3', 'S1', '10');
    d = withCell(d, 'E2', 'S2', '0');
    expect(changedRows(rows, d)).toEqual([
      {
        performanceCode: 'P1',
        employeeCode: 'E1',
        date: '2024-03-05',
        version: 4,
        performancePerSkill: [
          { skillCode: 'S1', pointsEarned: '1', totalPoints: 10 },
          { skillCode: 'S2', pointsEarned: '', totalPoints: 10 },
          { skillCode: 'S3', pointsEarned: '', totalPoints: 10 },
        ],
      },
      {
        employeeCode: 'E2',
        date: '2024-03-05',
        version: null,
        performancePerSkill: [
          { skillCode: 'S1', pointsEarned: '', totalPoints: 10 },
          { skillCode: 'S2', pointsEarned: '0', totalPoints: 10 },
          { skillCode: 'S3', pointsEarned: '', totalPoints: 10 },
        ],
      },
    ]);
  });

  it('name the version of the row as the user first saw it, not of a row loaded since', () => {
    const d = withCell(withCell(none, 'E1', 'S1', '2'), 'E3', 'S1', '2');
    // E1 was typed in at version 3; the row on screen has been loaded again since, at 4.
    const bases = new Map([['E1', { version: 3, scores: new Map() }]]);
    expect(changedRows(rows, d, bases).map((r) => [r.employeeCode, r.version])).toEqual([
      ['E1', 3],
      ['E3', 4],
    ]);
  });
});

describe('pasting a block copied from a spreadsheet', () => {
  it('splits rows on line breaks (any style) and cells on tabs, without a phantom last row', () => {
    expect(parseBlock('1\t2\r\n3\t\n')).toEqual([
      ['1', '2'],
      ['3', ''],
    ]);
    expect(parseBlock('7')).toEqual([['7']]);
    expect(parseBlock('\n')).toEqual([['']]);
  });

  it('writes rightwards and downwards from the cell, drops what falls outside and skips invalid values', () => {
    const plan = planPaste(rows, { row: 1, col: 1 }, [['4', 'x', '9'], ['', '12'], ['6']]);
    const drafts = applyPaste(none, plan);
    expect(plan.cells).toHaveLength(2);
    expect(plan.rejected).toBe(2);
    // The rows written to, as on screen: their base if they had none.
    expect([...plan.bases.keys()]).toEqual(['E2', 'E3']);
    expect(plan.bases.get('E3')).toEqual({
      version: 4,
      scores: new Map([
        ['S1', 10],
        ['S2', 0],
        ['S3', 5],
      ]),
    });
    expect(cellText(drafts, rows[1], 1)).toBe('4');
    expect(cellText(drafts, rows[1], 2)).toBe('');
    expect(cellText(drafts, rows[2], 1)).toBe('');
    expect(cellText(drafts, rows[2], 2)).toBe('5');
    expect(pasteSummary(plan.cells.length, plan.rejected)).toBe(
      'Pasted 2 cells; 2 values were not a score from 0 to 10 and left as before.',
    );
    expect(pasteSummary(1, 0)).toBe('Pasted 1 cell.');
  });
});

describe('moveCell', () => {
  it('moves like a spreadsheet and stops at the edges', () => {
    const at = { row: 1, col: 1 };
    expect(moveCell(at, 'ArrowUp', 3, 3)).toEqual({ row: 0, col: 1 });
    expect(moveCell(at, 'Enter', 3, 3)).toEqual({ row: 2, col: 1 });
    expect(moveCell(at, 'ShiftEnter', 3, 3)).toEqual({ row: 0, col: 1 });
    expect(moveCell(at, 'ArrowLeft', 3, 3)).toEqual({ row: 1, col: 0 });
    expect(moveCell(at, 'ArrowRight', 3, 3)).toEqual({ row: 1, col: 2 });
    expect(moveCell({ row: 2, col: 2 }, 'ArrowDown', 3, 3)).toEqual({ row: 2, col: 2 });
    expect(moveCell({ row: 0, col: 0 }, 'ArrowLeft', 3, 3)).toEqual({ row: 0, col: 0 });
  });
});

describe('serverCellErrors', () => {
  it('finds the cell a server error names by its place in the submitted list', () => {
    const sent = changedRows(rows, withCell(withCell(none, 'E2', 'S1', '1'), 'E3', 'S2', '2'));
    expect(
      serverCellErrors(
        [
          { field: 'performances.1.performancePerSkill.2.pointsEarned', message: 'Bad score' },
          { field: 'performances.0.performancePerSkill.0.skillCode', message: 'Skill not found' },
          { field: 'performances.0.employeeCode', message: 'Employee not found' },
          { field: 'performances.9.performancePerSkill.0.pointsEarned', message: 'No such row' },
        ],
        sent,
      ),
    ).toEqual(
      new Map([
        ['E3|S3', 'Bad score'],
        ['E2|S1', 'Skill not found'],
      ]),
    );
  });
});

describe('freshCellKeystroke', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) =>
    freshCellKeystroke({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

  it('a character replaces the value; Backspace and Delete clear it', () => {
    expect(key('7')).toBe('7');
    expect(key('x')).toBe('x');
    expect(key('Backspace')).toBe('');
    expect(key('Delete')).toBe('');
  });

  it('moves, shortcuts and other keys are left to the browser', () => {
    for (const k of ['Enter', 'Tab', 'ArrowLeft', 'ArrowDown', 'Shift', 'F2'])
      expect(key(k), k).toBeUndefined();
    expect(key('v', { ctrlKey: true })).toBeUndefined();
    expect(key('c', { metaKey: true })).toBeUndefined();
    expect(key('1', { altKey: true })).toBeUndefined();
  });
});
