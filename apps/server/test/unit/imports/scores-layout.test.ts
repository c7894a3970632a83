import { describe, expect, it } from 'vitest';
import { LAYOUT_MESSAGES, scoreLayout } from '../../../src/imports/scores/layout.ts';

describe('scoreLayout', () => {
  it('reads one column per skill as the wide layout', () => {
    expect(scoreLayout(['employeeId', null, 'date', 'skill:S1', 'skill:S2'])).toEqual({
      layout: 'wide',
      employeeId: 0,
      date: 2,
      skill: -1,
      score: -1,
      skills: [
        { index: 3, skillCode: 'S1' },
        { index: 4, skillCode: 'S2' },
      ],
    });
  });

  it('reads Skill and Score columns as the long layout', () => {
    expect(scoreLayout(['date', 'employeeId', 'score', 'skill'])).toMatchObject({
      layout: 'long',
      employeeId: 1,
      date: 0,
      skill: 3,
      score: 2,
      skills: [],
    });
  });

  it('asks for Employee Id and Date, at the header', () => {
    expect(scoreLayout(['skill:S1'])).toEqual({
      errors: [
        { row: 1, column: null, message: 'Map a column to Employee Id' },
        { row: 1, column: null, message: 'Map a column to Date' },
      ],
    });
  });

  it('refuses a mapping with no scores, half of the long layout, or both layouts', () => {
    const message = (mapping: (string | null)[]) => {
      const found = scoreLayout(mapping);
      return 'errors' in found ? found.errors.map((e) => e.message) : [];
    };
    expect(message(['employeeId', 'date', null])).toEqual([LAYOUT_MESSAGES.noScores]);
    expect(message(['employeeId', 'date', 'skill'])).toEqual(['Map a column to Score']);
    expect(message(['employeeId', 'date', 'score'])).toEqual(['Map a column to Skill']);
    expect(message(['employeeId', 'date', 'skill', 'score', 'skill:S1'])).toEqual([
      LAYOUT_MESSAGES.bothLayouts,
    ]);
  });

  it('refuses two columns mapped to one field, by its label', () => {
    const found = scoreLayout(
      ['employeeId', 'date', 'skill:S1', 'skill:S1'],
      [{ key: 'skill:S1', label: 'Speed' }],
    );
    expect(found).toEqual({
      errors: [{ row: 1, column: null, message: `${LAYOUT_MESSAGES.mappedTwice}: Speed` }],
    });
  });
});
