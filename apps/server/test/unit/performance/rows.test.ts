import { describe, expect, it } from 'vitest';
import { assembleRows, type BaseRow } from '../../../src/performance/grid/read.ts';

const base = (performanceCode: string | null, employeeCode: string): BaseRow => ({
  performanceCode,
  version: performanceCode ? 2 : null,
  employeeCode,
  employeeId: employeeCode.toLowerCase(),
  employeeName: `Name ${employeeCode}`,
  date: '2024-03-05',
  daily: performanceCode ? 7.5 : null,
  monthly: 6,
  yearly: null,
  total: 2,
});

describe('assembleRows', () => {
  it('gives every row every skill column in order, scores where scored, null elsewhere', () => {
    const skills = [
      { skillCode: 'S-B', title: 'Accuracy' },
      { skillCode: 'S-A', title: 'Speed' },
    ];
    const rows = assembleRows([base('P1', 'E1'), base(null, 'E2')], skills, [
      { performanceCode: 'P1', skillCode: 'S-A', points: 0 },
      { performanceCode: 'P9', skillCode: 'S-B', points: 3 },
    ]);
    expect(rows).toEqual([
      {
        performanceCode: 'P1',
        version: 2,
        employeeCode: 'E1',
        employeeId: 'e1',
        employeeName: 'Name E1',
        date: '2024-03-05',
        skills: [
          { skillCode: 'S-B', title: 'Accuracy', score: null },
          { skillCode: 'S-A', title: 'Speed', score: 0 },
        ],
        total: { daily: 7.5, monthly: 6, yearly: null },
      },
      {
        performanceCode: null,
        version: null,
        employeeCode: 'E2',
        employeeId: 'e2',
        employeeName: 'Name E2',
        date: '2024-03-05',
        skills: [
          { skillCode: 'S-B', title: 'Accuracy', score: null },
          { skillCode: 'S-A', title: 'Speed', score: null },
        ],
        total: { daily: null, monthly: 6, yearly: null },
      },
    ]);
  });
});
