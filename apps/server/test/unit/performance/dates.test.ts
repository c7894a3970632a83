import { describe, expect, it } from 'vitest';
import { localIsoDate, monthStart, previousMonthStart, yearStart } from '../../../src/performance/dates.ts';
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
