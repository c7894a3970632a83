import { describe, expect, it } from 'vitest';
import { documentScores, type PageDocument } from '../../../src/performance/grid/page.ts';

describe('documentScores', () => {
  it('reads the triples of a page document as score rows, and none when it has none', () => {
    const doc: PageDocument = {
      skills: [{ skillCode: 'S-A', title: 'Speed' }],
      rows: [],
      scores: [
        ['P1', 'S-A', 0],
        ['P2', 'S-A', 10],
      ],
      total: 0,
    };
    expect(documentScores(doc)).toEqual([
      { performanceCode: 'P1', skillCode: 'S-A', points: 0 },
      { performanceCode: 'P2', skillCode: 'S-A', points: 10 },
    ]);
    expect(documentScores({ ...doc, scores: [] })).toEqual([]);
  });
});
