import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { MAX_SKILL_REM, MIN_SKILL_REM, readDensity, skillColumnWidth } from '../../src/performance/columns';
import type { SubmissionRow } from '../../src/performance/grid';
import { nextUnscored, tabTarget } from '../../src/performance/gridNavigation';
import { saveChunks } from '../../src/performance/saveChunks';
import { dayOfSearch } from '../../src/performance/useLeaveGuard';
import { withKeptRow } from '../../src/performance/useRowWindow';

const row = (employeeCode: string, scores: (number | null)[]): PerformanceRow => ({
  performanceCode: null,
  version: null,
  employeeCode,
  employeeId: employeeCode,
  employeeName: employeeCode,
  date: '2024-03-05',
  skills: scores.map((score, i) => ({ skillCode: `S${i}`, title: `Skill ${i}`, score })),
  total: { daily: null, monthly: null, yearly: null },
});

// Row 0 is full, row 1 has its second and third cells empty, row 2 its first.
const ROWS = [row('A', [1, 2, 3]), row('B', [4, null, null]), row('C', [null, 5, 6])];
const NO_DRAFTS = new Map();

describe('nextUnscored', () => {
  it('finds the next empty cell row by row, and wraps past the last row', () => {
    expect(nextUnscored(ROWS, NO_DRAFTS, { row: 0, col: 0 })).toEqual({ row: 1, col: 1 });
    expect(nextUnscored(ROWS, NO_DRAFTS, { row: 1, col: 1 })).toEqual({ row: 1, col: 2 });
    expect(nextUnscored(ROWS, NO_DRAFTS, { row: 1, col: 2 })).toEqual({ row: 2, col: 0 });
    expect(nextUnscored(ROWS, NO_DRAFTS, { row: 2, col: 0 })).toEqual({ row: 1, col: 1 });
    // Before any cell was focused: the first empty one.
    expect(nextUnscored(ROWS, NO_DRAFTS, { row: 0, col: -1 })).toEqual({ row: 1, col: 1 });
  });

  it('counts typed cells as scored and cleared ones as empty, and is null when all are scored', () => {
    const drafts = new Map([
      ['B', new Map([['S1', '7']])],
      ['A', new Map([['S2', '']])],
    ]);
    expect(nextUnscored(ROWS, drafts, { row: 1, col: 0 })).toEqual({ row: 1, col: 2 });
    expect(nextUnscored(ROWS, drafts, { row: 2, col: 0 })).toEqual({ row: 0, col: 2 });
    expect(nextUnscored([row('A', [1, 2])], NO_DRAFTS, { row: 0, col: 0 })).toBeNull();
    expect(nextUnscored([], NO_DRAFTS, { row: 0, col: 0 })).toBeNull();
  });
});

describe('tabTarget', () => {
  it('from the last cell to fill in a row goes to the next row with an empty cell, at its first', () => {
    // Row 0 has nothing left after any cell: on to row 1's first empty cell.
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 0, col: 0 }, false)).toEqual({ row: 1, col: 1 });
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 1, col: 2 }, false)).toEqual({ row: 2, col: 0 });
    // An empty cell later in the row: Tab keeps the page order.
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 1, col: 0 }, false)).toBeNull();
    // Nothing empty below: Tab leaves the grid as the page order does.
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 2, col: 2 }, false)).toBeNull();
  });

  it('Shift+Tab mirrors it: from the first cell to fill, to the previous row with an empty cell, at its last', () => {
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 2, col: 0 }, true)).toEqual({ row: 1, col: 2 });
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 2, col: 2 }, true)).toBeNull();
    expect(tabTarget(ROWS, NO_DRAFTS, { row: 1, col: 1 }, true)).toBeNull();
  });
});

describe('skill columns and density', () => {
  it('fit a title between 10rem and the maximum, beyond which it is ellipsised', () => {
    expect(skillColumnWidth('Speed')).toBe(`${MIN_SKILL_REM}rem`);
    expect(skillColumnWidth('Documentation and record keeping')).toBe(`${MAX_SKILL_REM}rem`);
    expect(skillColumnWidth('Customer communication')).toBe('12.5rem');
  });

  it('reads a stored density, comfortable unless compact was chosen', () => {
    expect(readDensity('compact')).toBe('compact');
    expect(readDensity(null)).toBe('comfortable');
    expect(readDensity('tiny')).toBe('comfortable');
  });
});

describe('saveChunks', () => {
  const submission = (n: number): SubmissionRow => ({
    employeeCode: `E${n}`,
    date: '2024-03-05',
    version: null,
    performancePerSkill: Array.from({ length: 20 }, (_, i) => ({
      skillCode: `S${i}`,
      pointsEarned: '5',
      totalPoints: 10,
    })),
  });

  it('cuts 5,000 rows of 20 skills into chunks inside the form field limit, in order', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => submission(i));
    const chunks = saveChunks(rows);
    // 64 fields a row: 625 rows make 40,000.
    expect(chunks.map((c) => c.length)).toEqual([625, 625, 625, 625, 625, 625, 625, 625]);
    expect(chunks.flat()).toEqual(rows);
    expect(saveChunks(rows.slice(0, 301))).toHaveLength(1);
    expect(saveChunks([])).toEqual([]);
    // A row larger than the limit still goes, alone.
    expect(saveChunks(rows.slice(0, 2), 10).map((c) => c.length)).toEqual([1, 1]);
  });
});

describe('dayOfSearch', () => {
  it('names the day without its order or page, so sorting while editing is not leaving', () => {
    expect(dayOfSearch('?date=2024-03-05&sortField=daily&sortValue=desc&page=2')).toBe(
      dayOfSearch('?page=1&date=2024-03-05'),
    );
    expect(dayOfSearch('?date=2024-03-05')).not.toBe(dayOfSearch('?date=2024-03-06'));
  });
});

describe('withKeptRow', () => {
  const range = { startIndex: 50, endIndex: 60, overscan: 2, count: 301 };
  it('draws the rows in view and the focused row, in order, wherever it is', () => {
    expect(withKeptRow(range, 55)).toEqual(Array.from({ length: 15 }, (_, i) => 48 + i));
    expect(withKeptRow(range, 3)[0]).toBe(3);
    expect(withKeptRow(range, 300).at(-1)).toBe(300);
    expect(withKeptRow(range, -1)).toHaveLength(15);
    expect(withKeptRow(range, 301)).toHaveLength(15);
  });
});
