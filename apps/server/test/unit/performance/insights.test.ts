import { addDays, daysBetween, performanceDateRange, scoreDateError, trendRange } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { fillBuckets } from '../../../src/performance/insights/insights.ts';

describe('calendar steps', () => {
  it('add days across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-01-01', -1)).toBe('2023-12-31');
    expect(daysBetween('2023-01-01', '2024-01-02')).toBe(366);
  });
});

describe('trendRange', () => {
  const today = '2026-11-25';

  it('defaults to the last 90 days up to today, or up to the given end', () => {
    expect(trendRange({}, today)).toEqual({ from: '2026-08-28', to: today });
    expect(trendRange({ to: '2024-03-31' }, today)).toEqual({ from: '2024-01-02', to: '2024-03-31' });
    expect(trendRange({ from: '2026-01-01' }, today)).toEqual({ from: '2026-01-01', to: today });
  });

  it('takes at most 366 days apart and refuses a reversed range, naming To', () => {
    expect(trendRange({ from: '2024-01-01', to: '2025-01-01' }, today)).toEqual({
      from: '2024-01-01',
      to: '2025-01-01',
    });
    expect(trendRange({ from: '2023-01-01', to: '2024-01-03' }, today)).toEqual({
      field: 'to',
      message: 'From and To can be at most 366 days apart',
    });
    expect(trendRange({ from: '2024-01-02', to: '2024-01-01' }, today)).toEqual({
      field: 'to',
      message: 'To must not be before From',
    });
  });
});

describe('scoreDateError', () => {
  const today = '2026-11-25';
  const range = performanceDateRange(today);

  it('takes today and before, refuses a future date, and keeps the range message outside the range', () => {
    expect(scoreDateError(today, range, today)).toBeUndefined();
    expect(scoreDateError('1970-01-01', range, today)).toBeUndefined();
    expect(scoreDateError('2026-11-26', range, today)).toBe('Scores cannot be recorded for a future date');
    expect(scoreDateError(range.latest, range, today)).toBe('Scores cannot be recorded for a future date');
    expect(scoreDateError('9999-12-31', range, today)).toBe(
      `Date must be between 1970-01-01 and ${range.latest}`,
    );
  });
});

describe('filling the gaps of an answer', () => {
  it('gives the ten buckets in order, empty ones as 0', () => {
    const filled = fillBuckets([
      [9, 4],
      [0, 1],
    ]);
    expect(filled.map((b) => b.bucket)).toEqual([
      '0-1',
      '1-2',
      '2-3',
      '3-4',
      '4-5',
      '5-6',
      '6-7',
      '7-8',
      '8-9',
      '9-10',
    ]);
    expect(filled.map((b) => b.count)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 4]);
  });
});
