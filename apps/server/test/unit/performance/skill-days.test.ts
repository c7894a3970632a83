import { describe, expect, it } from 'vitest';
import { skillDeltas } from '../../../src/performance/rollups.ts';

const day = { employeeCode: 'EMP-1', date: '2024-02-01' };

describe('skillDeltas', () => {
  it('counts a new score, moves the sum of a changed one and takes a cleared one away', () => {
    const before = new Map([
      ['A', 4],
      ['B', 7],
      ['C', 2],
    ]);
    const deltas = skillDeltas(
      day,
      before,
      [
        { skillCode: 'A', points: 9 },
        { skillCode: 'D', points: 0 },
      ],
      ['B'],
    );
    expect(deltas).toEqual([
      { e: 'EMP-1', d: '2024-02-01', s: 'A', p: 5, n: 0 },
      { e: 'EMP-1', d: '2024-02-01', s: 'D', p: 0, n: 1 },
      { e: 'EMP-1', d: '2024-02-01', s: 'B', p: -7, n: -1 },
    ]);
  });

  it('adds nothing for an unchanged value or a clear of a cell that had no score', () => {
    expect(skillDeltas(day, new Map([['A', 4]]), [{ skillCode: 'A', points: 4 }], ['Z'])).toEqual([]);
  });
});
