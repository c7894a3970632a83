import type { PerformanceRow, PerformanceTrend } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { draftDaily, heatColours, withCell } from '../../src/performance/grid';
import { backOf, dailySeries } from '../../src/performance/insights/EmployeeInsightPage';
import { customRangeError, presetOf, presetRange, readRange } from '../../src/performance/insights/ranges';
import { defaultGridQuery, isFutureDate, withDepartment } from '../../src/performance/query';

const TODAY = '2024-03-05';

describe('range presets', () => {
  it('cover the last 30 days, this month and this year, today included', () => {
    expect(presetRange('last30', TODAY)).toEqual({ from: '2024-02-05', to: TODAY });
    expect(presetRange('month', TODAY)).toEqual({ from: '2024-03-01', to: TODAY });
    expect(presetRange('year', TODAY)).toEqual({ from: '2024-01-01', to: TODAY });
    expect(presetOf({ from: '2024-01-01', to: TODAY }, TODAY)).toBe('year');
    expect(presetOf({ from: '2024-01-02', to: TODAY }, TODAY)).toBeUndefined();
  });

  it('read the range from the address, falling back to the last 30 days for one the server refuses', () => {
    expect(readRange(new URLSearchParams('from=2023-12-01&to=2024-01-31'), TODAY)).toEqual({
      from: '2023-12-01',
      to: '2024-01-31',
    });
    for (const bad of [
      '',
      'from=2024-02-30&to=2024-03-01',
      'from=2024-03-02&to=2024-03-01',
      'from=2022-01-01&to=2024-01-01',
    ]) {
      expect(readRange(new URLSearchParams(bad), TODAY)).toEqual(presetRange('last30', TODAY));
    }
  });

  it('say why a custom range cannot be shown', () => {
    expect(customRangeError('2024-01-01', '2024-02-01', TODAY)).toBeUndefined();
    expect(customRangeError('2024-01-01', '', TODAY)).toBe('Choose both dates');
    expect(customRangeError('2024-02-01', '2024-01-01', TODAY)).toBe('To must not be before From');
    expect(customRangeError('2022-01-01', '2024-01-01', TODAY)).toBe(
      'From and To can be at most 366 days apart',
    );
  });
});

describe('the trend chart series', () => {
  it('gives each scored day its month average, for the step line over the days', () => {
    const trend = {
      days: [
        { date: '2024-01-31', daily: 4 },
        { date: '2024-02-01', daily: 6 },
      ],
      months: [
        { month: '2024-01', average: 4 },
        { month: '2024-02', average: 5.5 },
      ],
    } as PerformanceTrend;
    const series = dailySeries(trend);
    expect(series.daily).toEqual([4, 6]);
    expect(series.monthly).toEqual([4, 5.5]);
    expect(series.dates.map((d) => d.toISOString().slice(0, 10))).toEqual(['2024-01-31', '2024-02-01']);
  });

  it('goes Back to the screen that opened it, else to the grid', () => {
    expect(
      backOf({ back: '/registry/employee/view/E1', backState: { back: '/registry/employees' } }),
    ).toEqual({
      to: '/registry/employee/view/E1',
      state: { back: '/registry/employees' },
    });
    expect(backOf(null)).toEqual({ to: '/performance-snapshot' });
    expect(backOf({ back: 'https://evil.example' })).toEqual({ to: '/performance-snapshot' });
    expect(backOf({ back: '//evil.example/x' })).toEqual({ to: '/performance-snapshot' });
  });
});

describe('the grid', () => {
  const row: PerformanceRow = {
    performanceCode: 'P1',
    version: 1,
    employeeCode: 'E1',
    employeeId: 'ID1',
    employeeName: 'Ann',
    date: TODAY,
    skills: [
      { skillCode: 'A', title: 'A', score: 7 },
      { skillCode: 'B', title: 'B', score: 8 },
      { skillCode: 'C', title: 'C', score: null },
    ],
    total: { daily: 7.5, monthly: 7.5, yearly: 7.5 },
  };

  it('recomputes the daily average from the typed scores, rounded as the server rounds', () => {
    expect(draftDaily(new Map(), row)).toBe(7.5);
    expect(draftDaily(withCell(new Map(), 'E1', 'C', '1'), row)).toBe(5.33);
    // An exact half-cent rounds away from zero: 1 / 8 = 0.125 -> 0.13.
    const eighth = {
      ...row,
      skills: Array.from({ length: 8 }, (_, i) => ({
        skillCode: `S${i}`,
        title: `S${i}`,
        score: i === 0 ? 1 : 0,
      })),
    };
    expect(draftDaily(new Map(), eighth)).toBe(0.13);
    const cleared = withCell(withCell(new Map(), 'E1', 'A', ''), 'E1', 'B', '');
    expect(draftDaily(cleared, row)).toBeNull();
  });

  it('colours scores on one light-to-dark scale, with readable text', () => {
    expect(heatColours(0)).toEqual({ bg: '#f7fbff', fg: '#1a1a1a' });
    expect(heatColours(10)).toEqual({ bg: '#08306b', fg: '#ffffff' });
    expect(heatColours(7).fg).toBe('#1a1a1a');
    expect(heatColours(8).fg).toBe('#ffffff');
    expect(heatColours(0, 'dark')).toEqual({ bg: '#142639', fg: '#e6ebe8' });
    expect(heatColours(10, 'dark')).toEqual({ bg: '#b0d4f1', fg: '#0b1826' });
  });

  it('filters by department from the first page, and reads future dates as read-only', () => {
    expect(withDepartment({ ...defaultGridQuery(TODAY), page: 3 }, 'D1')).toMatchObject({
      departmentCode: 'D1',
      page: 1,
    });
    expect(isFutureDate('2024-03-06', TODAY)).toBe(true);
    expect(isFutureDate(TODAY, TODAY)).toBe(false);
  });
});
