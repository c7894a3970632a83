import { describe, expect, it } from 'vitest';
import { documentScores, type GridDocument, staleRanges } from '../../../src/performance/grid.ts';

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

describe('documentScores', () => {
  it('reads the triples of a grid document as score rows, and none when it has none', () => {
    const doc: GridDocument = {
      current: true,
      skills: [{ skillCode: 'S-A', title: 'Speed' }],
      rows: [],
      scores: [
        ['P1', 'S-A', 0],
        ['P2', 'S-A', 10],
      ],
    };
    expect(documentScores(doc)).toEqual([
      { performanceCode: 'P1', skillCode: 'S-A', points: 0 },
      { performanceCode: 'P2', skillCode: 'S-A', points: 10 },
    ]);
    expect(documentScores({ ...doc, scores: undefined })).toEqual([]);
  });
});
