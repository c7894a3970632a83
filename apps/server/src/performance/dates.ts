/** Calendar arithmetic on YYYY-MM-DD strings: no time zones, so a date is the same everywhere. */
import { addDays, daysBetween } from '@wfc/contract';

/** The 1st of the date's month: where a monthly average starts. */
export const monthStart = (isoDate: string): string => `${isoDate.slice(0, 7)}-01`;

/** 1 January of the date's year: where a yearly average starts. */
export const yearStart = (isoDate: string): string => `${isoDate.slice(0, 4)}-01-01`;

/** The 1st of the month before the date's, within its year; null in January. */
export function previousMonthStart(isoDate: string): string | null {
  const month = Number(isoDate.slice(5, 7));
  return month === 1 ? null : `${isoDate.slice(0, 4)}-${String(month - 1).padStart(2, '0')}-01`;
}

/** The number of days from `from` to `to`, both counted. */
const daysIn = (from: string, to: string): number => daysBetween(from, to) + 1;

/** The last day of the date's month. */
export function monthEnd(isoDate: string): string {
  const [y, m] = [Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7))];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** A range of dates, both ends counted. */
export type DateSpan = readonly [from: string, to: string];

/**
 * How to sum something kept per month over a range of days: `months` (first and last month's 1st
 * day, null when none) is read whole, then the days in `add` are added and those in `subtract`
 * taken away. A month the range covers in part is read day by day, or whole less the days outside
 * the range, whichever reads fewer days, so a range of any length reads at most about a month of
 * days.
 */
export interface MonthCover {
  months: DateSpan | null;
  add: DateSpan[];
  subtract: DateSpan[];
}

/** Pure: the cover of the range from `from` to `to` (from <= to). */
export function monthCover(from: string, to: string): MonthCover {
  const first = monthStart(from);
  const last = monthStart(to);
  const add: DateSpan[] = [];
  const subtract: DateSpan[] = [];
  const whole: string[] = [];
  /** Part of one month: `inside` of it is wanted, the month's other days are `outside`. */
  const part = (month: string, inside: DateSpan, outside: DateSpan[]) => {
    const outsideDays = outside.reduce((n, [a, b]) => n + daysIn(a, b), 0);
    if (outsideDays === 0) whole.push(month);
    else if (daysIn(...inside) <= outsideDays) add.push(inside);
    else {
      whole.push(month);
      subtract.push(...outside);
    }
  };
  const before = (month: string, date: string): DateSpan[] =>
    date > month ? [[month, addDays(date, -1)]] : [];
  const after = (date: string): DateSpan[] =>
    date < monthEnd(date) ? [[addDays(date, 1), monthEnd(date)]] : [];
  if (first === last) {
    part(first, [from, to], [...before(first, from), ...after(to)]);
  } else {
    part(first, [from, monthEnd(from)], before(first, from));
    part(last, [last, to], after(to));
  }
  // Whole months are those read whole at the ends and every month between them.
  const innerFrom = first === last ? null : monthStart(addDays(monthEnd(from), 1));
  const innerTo = first === last ? null : monthStart(addDays(last, -1));
  const starts = [...whole];
  if (innerFrom && innerTo && innerFrom <= innerTo) starts.push(innerFrom, innerTo);
  starts.sort();
  const months: DateSpan | null = starts.length
    ? [starts[0] as string, starts[starts.length - 1] as string]
    : null;
  return { months, add, subtract };
}

/**
 * Pure: the range's whole months (first and last month's 1st day, null when none) and the spans of
 * the months it covers in part (at most two, in date order). For what is kept per month but cannot
 * be taken apart again, as a month's days written out: a part month is read by its days.
 */
export function monthSplit(from: string, to: string): { months: DateSpan | null; parts: DateSpan[] } {
  const first = monthStart(from);
  const last = monthStart(to);
  const startsWhole = from === first;
  const endsWhole = to === monthEnd(to);
  if (first === last) {
    return startsWhole && endsWhole
      ? { months: [first, first], parts: [] }
      : { months: null, parts: [[from, to]] };
  }
  const parts: DateSpan[] = [];
  if (!startsWhole) parts.push([from, monthEnd(from)]);
  if (!endsWhole) parts.push([last, to]);
  const firstWhole = startsWhole ? first : addDays(monthEnd(from), 1);
  const lastWhole = endsWhole ? last : monthStart(addDays(last, -1));
  return { months: firstWhole <= lastWhole ? [firstWhole, lastWhole] : null, parts };
}
