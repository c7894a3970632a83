import { describe, expect, it } from 'vitest';
import { documentRows, type GridDocument, staleRanges } from '../../../src/performance/grid.ts';

describe('staleRanges', () => {
  it('runs from the earliest changed day of each year to its 31 December', () => {
    expect(
      staleRanges([
        { date: '2024-03-05' },
        { date: '2023-12-31' },
        { date: '2024-02-29' },
        { date: '2024-11-01' },
        { date: '2023-01-01' },
      ]),
    ).toEqual([
      { from: '2023-01-01', to: '2023-12-31' },
      { from: '2024-02-29', to: '2024-12-31' },
    ]);
  });

  it('is empty when nothing changed', () => {
    expect(staleRanges([])).toEqual([]);
  });
});

describe('documentRows', () => {
  it('gives every row every skill column in order, scores where scored, null elsewhere', () => {
    const doc: GridDocument = {
      current: true,
      total: 7,
      skills: [
        { skillCode: 'S-B', title: 'Accuracy' },
        { skillCode: 'S-A', title: 'Speed' },
      ],
      rows: [
        ['P1', 'E1', 'e1', 'Ann', 7.5, 6, 6.25, { 'S-A': 0, 'S-X': 9 }],
        [null, 'E2', 'e2', 'Bob', null, null, 3, null],
      ],
    };
    expect(documentRows(doc, '2024-03-05')).toEqual([
      {
        performanceCode: 'P1',
        employeeCode: 'E1',
        employeeId: 'e1',
        employeeName: 'Ann',
        date: '2024-03-05',
        skills: [
          { skillCode: 'S-B', title: 'Accuracy', score: null },
          { skillCode: 'S-A', title: 'Speed', score: 0 },
        ],
        total: { daily: 7.5, monthly: 6, yearly: 6.25 },
      },
      {
        performanceCode: null,
        employeeCode: 'E2',
        employeeId: 'e2',
        employeeName: 'Bob',
        date: '2024-03-05',
        skills: [
          { skillCode: 'S-B', title: 'Accuracy', score: null },
          { skillCode: 'S-A', title: 'Speed', score: null },
        ],
        total: { daily: null, monthly: null, yearly: 3 },
      },
    ]);
  });
});
