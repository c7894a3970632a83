import { localIsoDate, performanceDateError, performanceDateRange } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { monthStart, previousMonthStart, yearStart } from '../../../src/performance/dates.ts';
import { rollupGroups } from '../../../src/performance/rollups.ts';

describe('calendar bounds', () => {
  it('start the month on the 1st and the year on 1 January', () => {
    expect(monthStart('2024-02-29')).toBe('2024-02-01');
    expect(monthStart('2024-03-01')).toBe('2024-03-01');
    expect(yearStart('2024-12-31')).toBe('2024-01-01');
    expect(yearStart('2025-01-01')).toBe('2025-01-01');
  });

  it('find the month before, except in January where the year starts', () => {
    expect(previousMonthStart('2024-03-31')).toBe('2024-02-01');
    expect(previousMonthStart('2024-12-01')).toBe('2024-11-01');
    expect(previousMonthStart('2024-10-15')).toBe('2024-09-01');
    expect(previousMonthStart('2024-01-31')).toBeNull();
  });

  it("take today from the server's local clock, padded", () => {
    expect(localIsoDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(localIsoDate(new Date(987, 10, 30, 0, 0))).toBe('0987-11-30');
  });
});

describe('rollupGroups', () => {
  it('gathers the months and years a change of some days moves, once each', () => {
    const groups = rollupGroups([
      { employeeCode: 'E1', date: '2023-12-31' },
      { employeeCode: 'E1', date: '2024-01-20' },
      { employeeCode: 'E1', date: '2024-01-01' },
      { employeeCode: 'E1', date: '2024-01-09' },
      { employeeCode: 'E2', date: '2024-01-20' },
    ]);
    // Each month from its earliest changed day, whatever the order the days come in.
    expect(groups.months).toEqual([
      { employee_code: 'E1', month: '2023-12-01', from: '2023-12-31' },
      { employee_code: 'E1', month: '2024-01-01', from: '2024-01-01' },
      { employee_code: 'E2', month: '2024-01-01', from: '2024-01-20' },
    ]);
    expect(groups.years).toEqual([
      { employee_code: 'E1', year: '2023-01-01' },
      { employee_code: 'E1', year: '2024-01-01' },
      { employee_code: 'E2', year: '2024-01-01' },
    ]);
  });
});

describe('the dates a performance may describe', () => {
  it('run from 1970-01-01 to 365 days after today, whatever the leap days', () => {
    expect(performanceDateRange('2026-11-23')).toEqual({ earliest: '1970-01-01', latest: '2027-11-23' });
    expect(performanceDateRange('2027-06-01')).toEqual({ earliest: '1970-01-01', latest: '2028-05-31' });
    expect(performanceDateRange('2024-02-29')).toEqual({ earliest: '1970-01-01', latest: '2025-02-28' });
    expect(performanceDateRange('2025-12-31')).toEqual({ earliest: '1970-01-01', latest: '2026-12-31' });
  });

  it('accept the bounds and what lies between, and name the range otherwise', () => {
    const range = performanceDateRange('2026-11-23');
    for (const date of ['1970-01-01', '2000-02-29', '2026-11-23', '2027-11-23']) {
      expect(performanceDateError(date, range)).toBeUndefined();
    }
    for (const date of ['0001-01-01', '1969-12-31', '2027-11-24', '9999-12-31']) {
      expect(performanceDateError(date, range)).toBe('Date must be between 1970-01-01 and 2027-11-23');
    }
  });
});
