import {
  createUpdatePerformancesSchema,
  formatAverage,
  normalisePerformanceQuery,
  parseScore,
  readCell,
} from '@wfc/contract';
import { describe, expect, it } from 'vitest';

describe('parseScore: empty or a whole number 0..10', () => {
  it('accepts empty (not scored) and 0..10, trimmed', () => {
    expect(parseScore('')).toBeNull();
    expect(parseScore('   ')).toBeNull();
    for (let n = 0; n <= 10; n++) expect(parseScore(String(n))).toBe(n);
    expect(parseScore(' 7 ')).toBe(7);
    expect(parseScore('07')).toBe(7);
  });

  it('refuses anything else', () => {
    for (const s of ['11', '-1', '2.5', '1e1', 'x', '+3', '100', '0x1', '５'])
      expect(parseScore(s)).toBeUndefined();
  });
});

describe('readCell', () => {
  const cell = { skillCode: ' SKILL-1 ', pointsEarned: '7', totalPoints: 10 };

  it('takes a score as text, a number or null, trims the code and drops what it does not know', () => {
    expect(readCell({ ...cell, extra: 'x' })).toEqual({ skillCode: 'SKILL-1', pointsEarned: 7 });
    expect(readCell({ ...cell, pointsEarned: '' })).toEqual({ skillCode: 'SKILL-1', pointsEarned: null });
    expect(readCell({ ...cell, pointsEarned: null })).toEqual({ skillCode: 'SKILL-1', pointsEarned: null });
    expect(readCell({ ...cell, pointsEarned: 10 })).toEqual({ skillCode: 'SKILL-1', pointsEarned: 10 });
    for (const totalPoints of [undefined, '', '10', 10]) {
      expect(readCell({ ...cell, totalPoints })).toEqual({ skillCode: 'SKILL-1', pointsEarned: 7 });
    }
  });

  it('names every field that is wrong, with the messages of the field rules', () => {
    const score = 'Score must be empty or a whole number from 0 to 10';
    for (const pointsEarned of [10.5, '11', -1, true, undefined, {}]) {
      expect(readCell({ ...cell, pointsEarned })).toEqual([['pointsEarned', score]]);
    }
    expect(readCell({ skillCode: '', pointsEarned: 'x', totalPoints: 5 })).toEqual([
      ['skillCode', 'Skill is required'],
      ['pointsEarned', score],
      ['totalPoints', 'Total points must be 10'],
    ]);
    expect(readCell({ ...cell, skillCode: 7 })).toEqual([['skillCode', 'Skill is required']]);
    expect(readCell({ ...cell, skillCode: 'S'.repeat(65) })).toEqual([
      ['skillCode', 'Skill is not a valid code'],
    ]);
    expect(readCell({ ...cell, totalPoints: null })).toEqual([['totalPoints', 'Total points must be 10']]);
    for (const value of [null, 'x', 3, [cell]]) expect(readCell(value)).toHaveLength(1);
  });
});

describe('createUpdatePerformancesSchema', () => {
  it('takes a form body whose row has no cells at all', () => {
    const parsed = createUpdatePerformancesSchema.parse({
      performances: [{ employeeCode: 'EMP-1', date: '2024-03-05' }],
    });
    expect(parsed.performances[0]!.performancePerSkill).toEqual([]);
  });

  it("answers each wrong cell at its own path, after the row's own fields", () => {
    const ok = { skillCode: 'S1', pointsEarned: '3', totalPoints: 10 };
    const res = createUpdatePerformancesSchema.safeParse({
      performances: [
        { employeeCode: 'EMP-1', date: '2024-03-05', performancePerSkill: [ok] },
        {
          employeeCode: '',
          date: '2024-03-05',
          performancePerSkill: [ok, { ...ok, pointsEarned: '11' }, 'x', { ...ok, totalPoints: 9 }],
        },
      ],
    });
    expect(res.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['performances.1.employeeCode', 'Employee is required'],
      [
        'performances.1.performancePerSkill.1.pointsEarned',
        'Score must be empty or a whole number from 0 to 10',
      ],
      [
        'performances.1.performancePerSkill.2',
        'Each skill must be an object with skillCode, pointsEarned and totalPoints',
      ],
      ['performances.1.performancePerSkill.3.totalPoints', 'Total points must be 10'],
    ]);
  });

  it('outputs the cells as the save reads them', () => {
    const parsed = createUpdatePerformancesSchema.parse({
      performances: [
        {
          employeeCode: 'EMP-1',
          date: '2024-03-05',
          performancePerSkill: [{ skillCode: 'S1', pointsEarned: ' 07 ', totalPoints: '10' }],
        },
      ],
    });
    expect(parsed.performances[0]!.performancePerSkill).toEqual([{ skillCode: 'S1', pointsEarned: 7 }]);
  });

  it('tells an absent version (not checked) from null or empty (no saved row) and a number', () => {
    const versionOf = (extra: object) =>
      createUpdatePerformancesSchema.parse({
        performances: [{ employeeCode: 'EMP-1', date: '2024-03-05', ...extra }],
      }).performances[0]!.version;
    expect(versionOf({})).toBeUndefined();
    expect(versionOf({ version: undefined })).toBeUndefined();
    expect(versionOf({ version: null })).toBeNull();
    expect(versionOf({ version: '' })).toBeNull();
    expect(versionOf({ version: 3 })).toBe(3);
    expect(versionOf({ version: ' 12 ' })).toBe(12);
    for (const version of [0, -2, 1.5, 'x', '1e', true, {}]) {
      const res = createUpdatePerformancesSchema.safeParse({
        performances: [{ employeeCode: 'EMP-1', date: '2024-03-05', version }],
      });
      expect(
        res.error?.issues.map((i) => i.path.join('.')),
        String(version),
      ).toEqual(['performances.0.version']);
    }
  });
});

describe('formatAverage', () => {
  it('pads to two decimals and leaves an empty average empty', () => {
    expect(formatAverage(7.5)).toBe('7.50');
    expect(formatAverage(0)).toBe('0.00');
    expect(formatAverage(6.33)).toBe('6.33');
    expect(formatAverage(null)).toBe('');
  });
});

describe('normalisePerformanceQuery', () => {
  it('defaults to name ascending, as docs/product.md section 21 says', () => {
    expect(normalisePerformanceQuery({})).toMatchObject({
      sortField: 'name',
      sortValue: 'asc',
      page: 1,
      limit: 10,
    });
    expect(normalisePerformanceQuery({ sortField: 'yearly', sortValue: 'DESC' })).toMatchObject({
      sortField: 'yearly',
      sortValue: 'desc',
    });
  });
});
