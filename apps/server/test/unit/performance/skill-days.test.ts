import { describe, expect, it } from 'vitest';
import {
  addSkillDeltas,
  emptySkillSums,
  orderedChanges,
  type SkillDelta,
  skillDeltas,
} from '../../../src/performance/summaries/skills.ts';

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

describe('addSkillDeltas and orderedChanges', () => {
  const refs = {
    employees: new Map([
      ['E2', { id: 7, departmentCode: 'OPS' }],
      ['E1', { id: 12, departmentCode: 'OPS' }],
      ['E3', { id: 3, departmentCode: 'ART' }],
    ]),
    skills: new Map([
      ['S-A', 40],
      ['S-B', 9],
    ]),
  };
  const d = (e: string, date: string, s: string, p: number, n: number) => ({ e, d: date, s, p, n });
  /** The deltas added a chunk at a time, as a save adds them. */
  const changesOf = (deltas: SkillDelta[], known: typeof refs) => {
    const sums = emptySkillSums();
    for (let i = 0; i < deltas.length; i += 2) addSkillDeltas(sums, deltas.slice(i, i + 2), known);
    return Object.fromEntries([...sums].map(([table, m]) => [table, orderedChanges(m)]));
  };

  it('sums the cells per department day and month, day and month over every department, and employee month, in key order', () => {
    const changes = changesOf(
      [
        d('E1', '2024-02-03', 'S-A', 4, 1),
        d('E2', '2024-02-03', 'S-A', 3, 1),
        d('E2', '2024-02-20', 'S-A', -2, 0),
        d('E3', '2024-02-03', 'S-B', 5, 1),
        d('E1', '2024-03-01', 'S-B', -6, -1),
      ],
      refs,
    );
    expect(changes.performance_skill_days).toEqual([
      { key: ['ART', '2024-02-03', 'S-B'], points: 5, scored: 1 },
      { key: ['OPS', '2024-02-03', 'S-A'], points: 7, scored: 2 },
      { key: ['OPS', '2024-02-20', 'S-A'], points: -2, scored: 0 },
      { key: ['OPS', '2024-03-01', 'S-B'], points: -6, scored: -1 },
    ]);
    expect(changes.performance_department_skill_months).toEqual([
      { key: ['ART', '2024-02-01', 'S-B'], points: 5, scored: 1 },
      { key: ['OPS', '2024-02-01', 'S-A'], points: 5, scored: 2 },
      { key: ['OPS', '2024-03-01', 'S-B'], points: -6, scored: -1 },
    ]);
    expect(changes.performance_overall_skill_days).toEqual([
      { key: ['2024-02-03', 'S-A'], points: 7, scored: 2 },
      { key: ['2024-02-03', 'S-B'], points: 5, scored: 1 },
      { key: ['2024-02-20', 'S-A'], points: -2, scored: 0 },
      { key: ['2024-03-01', 'S-B'], points: -6, scored: -1 },
    ]);
    expect(changes.performance_overall_skill_months).toEqual([
      { key: ['2024-02-01', 'S-A'], points: 5, scored: 2 },
      { key: ['2024-02-01', 'S-B'], points: 5, scored: 1 },
      { key: ['2024-03-01', 'S-B'], points: -6, scored: -1 },
    ]);
    // Ids compare as numbers: 3 < 7 < 12.
    expect(changes.performance_skill_months).toEqual([
      { key: [3, '2024-02-01', 9], points: 5, scored: 1 },
      { key: [7, '2024-02-01', 40], points: 1, scored: 1 },
      { key: [12, '2024-02-01', 40], points: 4, scored: 1 },
      { key: [12, '2024-03-01', 9], points: -6, scored: -1 },
    ]);
  });

  it('leaves out the rows whose changes cancel out', () => {
    const changes = changesOf(
      [
        d('E1', '2024-02-03', 'S-A', 4, 0),
        d('E2', '2024-02-03', 'S-A', -4, 0),
        d('E1', '2024-02-05', 'S-A', -4, 0),
      ],
      refs,
    );
    expect(changes.performance_skill_days).toEqual([
      { key: ['OPS', '2024-02-05', 'S-A'], points: -4, scored: 0 },
    ]);
    expect(changes.performance_department_skill_months).toEqual([
      { key: ['OPS', '2024-02-01', 'S-A'], points: -4, scored: 0 },
    ]);
    expect(changes.performance_skill_months).toEqual([{ key: [7, '2024-02-01', 40], points: -4, scored: 0 }]);
    // Across departments, E1's and E2's changes of 2024-02-03 cancel out too.
    expect(changes.performance_overall_skill_days).toEqual([
      { key: ['2024-02-05', 'S-A'], points: -4, scored: 0 },
    ]);
  });

  it('refuses a cell of an employee or skill the save did not check', () => {
    expect(() => changesOf([d('E9', '2024-02-03', 'S-A', 1, 1)], refs)).toThrow(/unknown employee/);
  });
});
