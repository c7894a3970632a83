import {
  addDays,
  daysBetween,
  localIsoDate,
  performanceDateError,
  performanceDateRange,
} from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import {
  monthCover,
  monthEnd,
  monthSplit,
  monthStart,
  previousMonthStart,
  yearStart,
} from '../../../src/performance/dates.ts';
import { rollupGroups } from '../../../src/performance/summaries/running-sums.ts';

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
    // Each year likewise: its yearly averages move from its earliest changed day on.
    expect(groups.years).toEqual([
      { employee_code: 'E1', year: '2023-01-01', from: '2023-12-31' },
      { employee_code: 'E1', year: '2024-01-01', from: '2024-01-01' },
      { employee_code: 'E2', year: '2024-01-01', from: '2024-01-20' },
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

/** 400 ranges drawn from the seed over two years and more: a quarter of them within about a month. */
function randomRanges(seed: number): [string, string][] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  return Array.from({ length: 400 }, (_, i) => {
    const from = addDays('2023-01-01', next(800));
    return [from, addDays(from, next(i % 4 === 0 ? 40 : 367))];
  });
}

describe('monthCover', () => {
  it('reads whole months whole, and a part month by its fewer days', () => {
    // A year to the 26th: 5 days of the first month added, the last month whole less its 4 days left.
    expect(monthCover('2025-11-26', '2026-11-26')).toEqual({
      months: ['2025-12-01', '2026-11-01'],
      add: [['2025-11-26', '2025-11-30']],
      subtract: [['2026-11-27', '2026-11-30']],
    });
    expect(monthCover('2024-02-01', '2024-02-29')).toEqual({
      months: ['2024-02-01', '2024-02-01'],
      add: [],
      subtract: [],
    });
    expect(monthCover('2024-02-10', '2024-02-12')).toEqual({
      months: null,
      add: [['2024-02-10', '2024-02-12']],
      subtract: [],
    });
    // Most of one month: the month less a day at each end.
    expect(monthCover('2024-03-02', '2024-03-30')).toEqual({
      months: ['2024-03-01', '2024-03-01'],
      add: [],
      subtract: [
        ['2024-03-01', '2024-03-01'],
        ['2024-03-31', '2024-03-31'],
      ],
    });
    // Across a year's end, neither end month whole.
    expect(monthCover('2024-12-30', '2025-01-02')).toEqual({
      months: null,
      add: [
        ['2024-12-30', '2024-12-31'],
        ['2025-01-01', '2025-01-02'],
      ],
      subtract: [],
    });
  });

  it('counts every day of any range exactly once, and reads at most a month of days', () => {
    const counted = (cover: ReturnType<typeof monthCover>) => {
      const n = new Map<string, number>();
      const each = ([a, b]: readonly [string, string], by: number) => {
        for (let d = a; d <= b; d = addDays(d, 1)) n.set(d, (n.get(d) ?? 0) + by);
      };
      if (cover.months) each([cover.months[0], monthEnd(cover.months[1])], 1);
      for (const s of cover.add) each(s, 1);
      for (const s of cover.subtract) each(s, -1);
      return [...n].filter(([, k]) => k !== 0).sort(([a], [b]) => a.localeCompare(b));
    };
    for (const [from, to] of randomRanges(7)) {
      const cover = monthCover(from, to);
      const expected: [string, number][] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) expected.push([d, 1]);
      expect(counted(cover), `${from}..${to}`).toEqual(expected);
      const read = [...cover.add, ...cover.subtract].reduce((n, [a, b]) => n + daysBetween(a, b) + 1, 0);
      expect(read).toBeLessThanOrEqual(31);
    }
  });
});

describe('monthSplit', () => {
  it('keeps whole months whole and reads the part months by their days', () => {
    expect(monthSplit('2025-11-26', '2026-11-26')).toEqual({
      months: ['2025-12-01', '2026-10-01'],
      parts: [
        ['2025-11-26', '2025-11-30'],
        ['2026-11-01', '2026-11-26'],
      ],
    });
    expect(monthSplit('2024-02-01', '2024-02-29')).toEqual({
      months: ['2024-02-01', '2024-02-01'],
      parts: [],
    });
    expect(monthSplit('2024-02-01', '2024-02-28')).toEqual({
      months: null,
      parts: [['2024-02-01', '2024-02-28']],
    });
    expect(monthSplit('2024-12-30', '2025-01-02')).toEqual({
      months: null,
      parts: [
        ['2024-12-30', '2024-12-31'],
        ['2025-01-01', '2025-01-02'],
      ],
    });
    expect(monthSplit('2024-01-01', '2024-03-15')).toEqual({
      months: ['2024-01-01', '2024-02-01'],
      parts: [['2024-03-01', '2024-03-15']],
    });
  });

  it('covers every day of any range exactly once, in date order', () => {
    for (const [from, to] of randomRanges(11)) {
      const { months, parts } = monthSplit(from, to);
      const spans = [...parts];
      if (months) spans.push([months[0], monthEnd(months[1])]);
      spans.sort(([a], [b]) => a.localeCompare(b));
      const days: string[] = [];
      for (const [a, b] of spans) for (let d = a; d <= b; d = addDays(d, 1)) days.push(d);
      const expected: string[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) expected.push(d);
      expect(days, `${from}..${to}`).toEqual(expected);
      expect(parts.length).toBeLessThanOrEqual(2);
      for (const [a, b] of parts) expect(monthStart(a), `${from}..${to}`).toBe(monthStart(b));
    }
  });
});
