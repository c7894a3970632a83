import { type PerformanceRowInput, performanceBatchErrors } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import {
  referenceErrors,
  rowChange,
  scoresByTitle,
  scoreTotals,
  staleMessage,
  staleRows,
} from '../../../src/performance/save/batch.ts';

const row = (
  employeeCode: string,
  date: string,
  cells: [string, number | null][],
  performanceCode?: string,
): PerformanceRowInput => ({
  performanceCode,
  employeeCode,
  date,
  performancePerSkill: cells.map(([skillCode, pointsEarned]) => ({ skillCode, pointsEarned })),
});

describe('performanceBatchErrors', () => {
  it('accepts distinct rows and cells', () => {
    expect(
      performanceBatchErrors([
        row('E1', '2024-01-01', [
          ['S1', 1],
          ['S2', null],
        ]),
        row('E1', '2024-01-02', [['S1', 2]]),
      ]),
    ).toEqual([]);
  });

  it('names a repeated employee and date, and a repeated skill in a row, at the later occurrence', () => {
    expect(
      performanceBatchErrors([
        row('E1', '2024-01-01', [['S1', 1]]),
        row('E2', '2024-01-01', [
          ['S1', 1],
          ['S2', 2],
          ['S1', 3],
        ]),
        row('E1', '2024-01-01', [['S1', 4]]),
      ]),
    ).toEqual([
      {
        field: 'performances.1.performancePerSkill.2.skillCode',
        message: 'This skill appears twice in the row',
      },
      { field: 'performances.2.date', message: 'This employee and date appear twice in the list' },
    ]);
  });

  it('finds every repeat of a skill, in short rows and in rows of many cells alike', () => {
    const twice = (n: number): [string, number][] =>
      Array.from({ length: n }, (_, j) => [`S${j % Math.ceil(n / 2)}`, 1]);
    for (const n of [6, 32, 33, 80]) {
      const fields = performanceBatchErrors([row('E1', '2024-01-01', twice(n))]).map((e) => e.field);
      const expected = Array.from({ length: n }, (_, j) => j).filter((j) => j >= Math.ceil(n / 2));
      expect(fields, String(n)).toEqual(
        expected.map((j) => `performances.0.performancePerSkill.${j}.skillCode`),
      );
    }
  });
});

describe('referenceErrors', () => {
  const known = {
    employees: new Set(['E1', 'E2']),
    skills: new Set(['S1']),
    performances: new Map([['PERF-1', { employeeCode: 'E1', date: '2024-01-01' }]]),
  };

  it('accepts rows whose records exist and whose code is their own', () => {
    expect(
      referenceErrors([row('E1', '2024-01-01', [['S1', 3]], 'PERF-1'), row('E2', '2024-01-01', [])], known),
    ).toEqual([]);
  });

  it('names each unknown employee, skill and code, and a code of another row', () => {
    expect(
      referenceErrors(
        [
          row('E9', '2024-01-01', [['S1', 1]]),
          row(
            'E1',
            '2024-01-02',
            [
              ['S1', 1],
              ['S9', 2],
            ],
            'PERF-1',
          ),
          row('E2', '2024-01-01', [], 'PERF-9'),
        ],
        known,
      ),
    ).toEqual([
      { field: 'performances.0.employeeCode', message: 'Employee not found' },
      {
        field: 'performances.1.performanceCode',
        message: 'This performance belongs to another employee or date',
      },
      { field: 'performances.1.performancePerSkill.1.skillCode', message: 'Skill not found' },
      { field: 'performances.2.performanceCode', message: 'Performance not found' },
    ]);
  });
});

describe('rowChange', () => {
  const cells = (list: [string, number | null][]) => row('E', '2024-01-01', list).performancePerSkill;

  it('writes new and different scores, clears emptied ones and leaves unmentioned skills alone', () => {
    const before = new Map([
      ['A', 5],
      ['B', 6],
      ['C', 7],
    ]);
    const change = rowChange(
      before,
      cells([
        ['A', 5],
        ['B', 9],
        ['C', null],
        ['D', 0],
        ['E', null],
      ]),
    );
    expect(change.upserts).toEqual([
      { skillCode: 'B', points: 9 },
      { skillCode: 'D', points: 0 },
    ]);
    expect(change.clears).toEqual(['C']);
    expect([...change.after]).toEqual([
      ['A', 5],
      ['B', 9],
      ['D', 0],
    ]);
    expect([...before]).toEqual([
      ['A', 5],
      ['B', 6],
      ['C', 7],
    ]);
  });

  it('sees no change when the row says what is already saved', () => {
    const change = rowChange(
      new Map([['A', 0]]),
      cells([
        ['A', 0],
        ['B', null],
      ]),
    );
    expect(change).toEqual({ upserts: [], clears: [], after: new Map([['A', 0]]) });
  });
});

describe('scoresByTitle', () => {
  it('lists scored skills by title, in column order', () => {
    const skills = [
      { skillCode: 'S2', title: 'Accuracy' },
      { skillCode: 'S1', title: 'Speed' },
      { skillCode: 'S3', title: 'Teamwork' },
    ];
    expect(
      scoresByTitle(
        new Map([
          ['S1', 4],
          ['S3', 0],
        ]),
        skills,
      ),
    ).toEqual({ Speed: 4, Teamwork: 0 });
  });
});

describe('scoreTotals', () => {
  it('sums the scores and counts them, zeros included', () => {
    expect(
      scoreTotals(
        new Map([
          ['S1', 4],
          ['S2', 0],
          ['S3', 10],
        ]),
      ),
    ).toEqual({ scoreSum: 14, scored: 3 });
    expect(scoreTotals(new Map())).toEqual({ scoreSum: 0, scored: 0 });
  });
});

describe('staleRows', () => {
  const versioned = (employeeCode: string, date: string, version?: number | null) => ({
    ...row(employeeCode, date, []),
    ...(version === undefined ? {} : { version }),
  });
  const current = new Map([
    ['E1|2024-01-01', 3],
    ['E2|2024-01-01', 1],
  ]);

  it('keeps rows at their current version, rows without a version, and null for rows not saved', () => {
    expect(
      staleRows(
        [
          versioned('E1', '2024-01-01', 3),
          versioned('E2', '2024-01-01'),
          versioned('E3', '2024-01-01', null),
          versioned('E1', '2024-01-02', null),
        ],
        current,
      ),
    ).toEqual([]);
  });

  it('answers rows read at another version, saved meanwhile (null), or not saved at all', () => {
    const stale = [
      versioned('E1', '2024-01-01', 2),
      versioned('E2', '2024-01-01', null),
      versioned('E3', '2024-01-01', 1),
    ];
    expect(staleRows([versioned('E1', '2024-01-02', null), ...stale], current)).toEqual(stale);
  });
});

describe('staleMessage', () => {
  const by = (username: string | null, at = '2026-11-25 08:15:04') => ({ username, at });

  it('names the employees, and the one user who changed them (with the time of a single row)', () => {
    expect(staleMessage(['Jane Doe'], [by('ann')])).toBe(
      'Scores of Jane Doe were changed by ann at 2026-11-25 08:15:04 UTC since you opened this date',
    );
    expect(staleMessage(['Jane Doe', 'John Roe'], [by('ann'), by('ann')])).toBe(
      'Scores of Jane Doe and John Roe were changed by ann since you opened this date',
    );
  });

  it('says "someone else" when several users, or nobody known, changed them', () => {
    expect(staleMessage(['A', 'B', 'C'], [by('ann'), by('bob'), by('ann')])).toBe(
      'Scores of A, B and C were changed by someone else since you opened this date',
    );
    expect(staleMessage(['A'], [null])).toBe(
      'Scores of A were changed by someone else since you opened this date',
    );
    expect(staleMessage(['A', 'B'], [by('ann'), null])).toMatch(/by someone else/);
    expect(staleMessage(['A'], [by(null)])).toMatch(/by someone else/);
  });

  it('counts the employees past the third', () => {
    expect(staleMessage(['A', 'B', 'C', 'D'], [])).toMatch(/^Scores of A, B, C and 1 other employee were/);
    expect(staleMessage(['A', 'B', 'C', 'D', 'E'], [])).toMatch(
      /^Scores of A, B, C and 2 other employees were/,
    );
  });
});
