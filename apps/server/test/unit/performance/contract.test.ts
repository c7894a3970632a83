import {
  createUpdatePerformancesSchema,
  formatAverage,
  normalisePerformanceQuery,
  parseScore,
  scoreInput,
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

describe('scoreInput', () => {
  it('takes text, numbers and null, and says what is wrong otherwise', () => {
    expect(scoreInput.parse('')).toBeNull();
    expect(scoreInput.parse(null)).toBeNull();
    expect(scoreInput.parse(10)).toBe(10);
    expect(scoreInput.safeParse(10.5).error?.issues[0].message).toBe(
      'Score must be empty or a whole number from 0 to 10',
    );
  });
});

describe('createUpdatePerformancesSchema', () => {
  it('takes a form body whose row has no cells at all', () => {
    const parsed = createUpdatePerformancesSchema.parse({
      performances: [{ employeeCode: 'EMP-1', date: '2024-03-05' }],
    });
    expect(parsed.performances[0].performancePerSkill).toEqual([]);
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
  it('defaults to name ascending, as SPEC.md section 9 says', () => {
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
