import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMonth } from '../../src/ui/dates';

const US = { locale: 'en-US', timeZone: 'UTC' };
const GB = { locale: 'en-GB', timeZone: 'UTC' };

describe('the one date format of the console', () => {
  it('says a calendar day the locale’s way, whatever the time zone', () => {
    expect(formatDate('2024-01-05', US)).toBe('Jan 5, 2024');
    expect(formatDate('2024-01-05', GB)).toBe('5 Jan 2024');
    expect(formatDate('2024-01-05', { locale: 'en-US', timeZone: 'Pacific/Kiritimati' })).toBe('Jan 5, 2024');
    expect(formatDate('2024-01-05T23:30:00.000Z', US)).toBe('Jan 5, 2024');
  });

  it('says a month as month and year', () => {
    expect(formatMonth('2024-01', US)).toBe('Jan 2024');
    expect(formatMonth('2024-12-31', GB)).toBe('Dec 2024');
  });

  it('says a moment as the same day followed by its time in the user’s zone', () => {
    expect(formatDateTime('2026-11-27T02:16:44.000Z', US)).toBe('Nov 27, 2026, 2:16 AM');
    expect(
      formatDateTime('2026-11-27T02:16:44.000Z', { locale: 'en-US', timeZone: 'America/New_York' }),
    ).toBe('Nov 26, 2026, 9:16 PM');
    expect(formatDateTime('2026-11-27T02:16:44.000Z', { ...US, withZone: true })).toBe(
      'Nov 27, 2026, 2:16 AM UTC',
    );
  });

  it('leaves what is not a date as it came', () => {
    expect(formatDate('not a date', US)).toBe('not a date');
    expect(formatDateTime('soon', US)).toBe('soon');
  });
});
