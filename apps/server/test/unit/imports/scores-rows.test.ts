import { FUTURE_SCORE_MESSAGE, SCORE_MESSAGE } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { type ScoreColumns, scoreLayout } from '../../../src/imports/scores/layout.ts';
import {
  type EmployeeRef,
  groupAction,
  NOT_MENTIONED,
  NOT_SCORED,
  ROW_MESSAGES,
  ScoreRowReader,
  scoreDate,
} from '../../../src/imports/scores/rows.ts';

const TODAY = '2026-11-28';
const SKILLS = [
  { skillCode: 'S-ACC', title: 'Accuracy' },
  { skillCode: 'S-SPD', title: 'Speed' },
  { skillCode: 'S-TEAM', title: 'Teamwork' },
];
const EMPLOYEES = new Map<string, EmployeeRef>([
  ['e-001', { employeeCode: 'EMP-1', employeeId: 'E-001', reached: true }],
  ['e-002', { employeeCode: 'EMP-2', employeeId: 'E-002', reached: true }],
  ['e-003', { employeeCode: 'EMP-3', employeeId: 'E-003', reached: false }],
]);
const lookup = (key: string) => EMPLOYEES.get(key) ?? null;

function readerOf(mapping: (string | null)[], headers: string[], reachesAll = true) {
  const columns = scoreLayout(mapping) as ScoreColumns;
  return new ScoreRowReader(columns, headers, SKILLS, TODAY, reachesAll);
}

const wideHeaders = ['Employee Id', 'Date', 'Accuracy', 'Speed'];
const wide = (reachesAll = true) =>
  readerOf(['employeeId', 'date', 'skill:S-ACC', 'skill:S-SPD'], wideHeaders, reachesAll);
const longHeaders = ['Employee Id', 'Date', 'Skill', 'Score'];
const long = () => readerOf(['employeeId', 'date', 'skill', 'score'], longHeaders);

const points = (p: Int8Array | undefined) => [...(p ?? [])];

describe('scoreDate', () => {
  it('takes ISO dates, dates with slashes and Excel serials', () => {
    expect(scoreDate('2024-03-01', TODAY)).toEqual({ date: '2024-03-01' });
    expect(scoreDate(' 2024/3/1 ', TODAY)).toEqual({ date: '2024-03-01' });
    expect(scoreDate('45352', TODAY)).toEqual({ date: '2024-03-01' });
  });

  it('refuses what is no date, an impossible one, one out of range and a future one', () => {
    expect(scoreDate('', TODAY)).toEqual({ error: 'Date is required' });
    expect(scoreDate('March', TODAY)).toEqual({ error: 'Date must be a date (YYYY-MM-DD)' });
    expect(scoreDate('2024-02-30', TODAY)).toEqual({ error: 'Date must be a real date' });
    expect(scoreDate('1969-12-31', TODAY)).toMatchObject({
      error: expect.stringMatching(/^Date must be between/),
    });
    expect(scoreDate('2026-11-29', TODAY)).toEqual({ error: FUTURE_SCORE_MESSAGE });
    expect(scoreDate(TODAY, TODAY)).toEqual({ date: TODAY });
  });
});

describe('ScoreRowReader, wide', () => {
  it('reads a row into one employee and date, an empty cell as not scored', () => {
    const reader = wide();
    const read = reader.read({ row: 2, cells: [' e-001 ', '45352', '7', ''] }, lookup);
    expect(read.errors).toEqual([]);
    expect(read.values).toEqual({
      employeeId: 'E-001',
      date: '2024-03-01',
      'skill:S-ACC': '7',
      'skill:S-SPD': '',
    });
    expect(read.group).toMatchObject({ employeeCode: 'EMP-1', date: '2024-03-01', rows: [2] });
    expect(points(read.group?.points)).toEqual([7, NOT_SCORED, NOT_MENTIONED]);
    expect(reader.inputOf(read.group!, 3)).toEqual({
      employeeCode: 'EMP-1',
      date: '2024-03-01',
      version: 3,
      performancePerSkill: [
        { skillCode: 'S-ACC', pointsEarned: 7 },
        { skillCode: 'S-SPD', pointsEarned: null },
      ],
    });
  });

  it('reports every bad cell at its row and column', () => {
    const read = wide().read({ row: 5, cells: ['E-001', '2024-13-01', '11', 'seven'] }, lookup);
    expect(read.group).toBeNull();
    expect(read.errors).toEqual([
      { row: 5, column: 'Date', message: 'Date must be a real date' },
      { row: 5, column: 'Accuracy', message: SCORE_MESSAGE },
      { row: 5, column: 'Speed', message: SCORE_MESSAGE },
    ]);
    expect(read.values).toMatchObject({ 'skill:S-ACC': '11', 'skill:S-SPD': 'seven' });
  });

  it('refuses a future date, as the grid does', () => {
    const read = wide().read({ row: 2, cells: ['E-001', '2026-12-01', '1', '2'] }, lookup);
    expect(read.errors).toEqual([{ row: 2, column: 'Date', message: FUTURE_SCORE_MESSAGE }]);
  });

  it('refuses an unknown employee, one beyond reach, and a missing Employee Id', () => {
    const reader = wide();
    expect(reader.read({ row: 2, cells: ['E-404', '2024-03-01', '1', '2'] }, lookup).errors).toEqual([
      { row: 2, column: 'Employee Id', message: 'Employee not found' },
    ]);
    expect(reader.read({ row: 3, cells: ['E-003', '2024-03-01', '1', '2'] }, lookup).errors).toEqual([
      { row: 3, column: 'Employee Id', message: ROW_MESSAGES.outsideReach },
    ]);
    expect(reader.read({ row: 4, cells: ['', '2024-03-01', '1', '2'] }, lookup).errors).toEqual([
      { row: 4, column: 'Employee Id', message: ROW_MESSAGES.employeeRequired },
    ]);
  });

  it('tells a caller of narrower reach nothing about employees beyond it', () => {
    const read = wide(false).read({ row: 2, cells: ['E-404', '2024-03-01', '1', '2'] }, lookup);
    expect(read.errors).toEqual([{ row: 2, column: 'Employee Id', message: ROW_MESSAGES.outsideReach }]);
  });

  it('refuses a later row for the same employee and date', () => {
    const reader = wide();
    expect(reader.read({ row: 2, cells: ['E-001', '2024-03-01', '1', '2'] }, lookup).errors).toEqual([]);
    expect(reader.read({ row: 3, cells: ['e-001', '45352', '3', '4'] }, lookup).errors).toEqual([
      { row: 3, column: null, message: `${ROW_MESSAGES.duplicateRow} (row 2)` },
    ]);
    expect(reader.read({ row: 4, cells: ['E-001', '2024-03-02', '3', '4'] }, lookup).errors).toEqual([]);
    expect(reader.groups.size).toBe(2);
    expect(points(reader.groups.get('EMP-1|2024-03-01')?.points)).toEqual([1, 2, NOT_MENTIONED]);
  });
});

describe('ScoreRowReader, long', () => {
  it('groups the lines of one employee and date, skills by title whatever the case', () => {
    const reader = long();
    const lines = [
      ['E-001', '2024-03-01', 'accuracy', '4'],
      ['E-002', '2024-03-01', 'Speed', '9'],
      ['E-001', '2024-03-01', ' TEAMWORK ', ''],
    ];
    const reads = lines.map((cells, i) => reader.read({ row: i + 2, cells }, lookup));
    expect(reads.flatMap((r) => r.errors)).toEqual([]);
    expect(reads[0]?.values).toEqual({
      employeeId: 'E-001',
      date: '2024-03-01',
      skill: 'Accuracy',
      score: '4',
    });
    expect(reads[2]?.values).toMatchObject({ skill: 'Teamwork', score: '' });
    expect(reader.groups.size).toBe(2);
    const first = reader.groups.get('EMP-1|2024-03-01');
    expect(first?.rows).toEqual([2, 4]);
    expect(points(first?.points)).toEqual([4, NOT_MENTIONED, NOT_SCORED]);
    expect(reader.inputOf(first!).performancePerSkill).toEqual([
      { skillCode: 'S-ACC', pointsEarned: 4 },
      { skillCode: 'S-TEAM', pointsEarned: null },
    ]);
  });

  it('refuses an unknown skill title, a missing one, a bad score, and a repeated skill on the later line', () => {
    const reader = long();
    const read = (row: number, cells: string[]) => reader.read({ row, cells }, lookup).errors;
    expect(read(2, ['E-001', '2024-03-01', 'Charm', '5'])).toEqual([
      { row: 2, column: 'Skill', message: 'Skill not found' },
    ]);
    expect(read(3, ['E-001', '2024-03-01', '', '5'])).toEqual([
      { row: 3, column: 'Skill', message: ROW_MESSAGES.skillRequired },
    ]);
    expect(read(4, ['E-001', '2024-03-01', 'Speed', '-1'])).toEqual([
      { row: 4, column: 'Score', message: SCORE_MESSAGE },
    ]);
    expect(read(5, ['E-001', '2024-03-01', 'Speed', '5'])).toEqual([]);
    expect(read(6, ['e-001', '45352', 'speed', '6'])).toEqual([
      { row: 6, column: 'Skill', message: `${ROW_MESSAGES.duplicateSkill} (row 5)` },
    ]);
    expect(points(reader.groups.get('EMP-1|2024-03-01')?.points)).toEqual([NOT_MENTIONED, 5, NOT_MENTIONED]);
  });
});

describe('groupAction', () => {
  const cells = (...p: (number | null)[]) =>
    p.map((pointsEarned, i) => ({ skillCode: `S${i}`, pointsEarned }));

  it('creates a new row only when it holds a score', () => {
    expect(groupAction(cells(5, null), undefined)).toBe('create');
    expect(groupAction(cells(null, null), undefined)).toBe('unchanged');
  });

  it('updates a saved row only when a cell changes, a cleared score among them', () => {
    const saved = new Map([
      ['S0', 5],
      ['S1', 3],
    ]);
    expect(groupAction(cells(5, 3), saved)).toBe('unchanged');
    expect(groupAction(cells(5), saved)).toBe('unchanged');
    expect(groupAction(cells(5, 4), saved)).toBe('update');
    expect(groupAction(cells(5, null), saved)).toBe('update');
    expect(groupAction(cells(5, 3, null), saved)).toBe('unchanged');
  });
});
