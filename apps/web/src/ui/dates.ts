/*
 * Every date the console shows goes through these three formats, so that a screen never says a
 * day one way and the next screen another. They follow the browser's locale; exports keep ISO.
 */

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

// Calendar dates (YYYY-MM-DD) carry no time zone: formatting them in UTC keeps the day unchanged.
const calendarDate = (locale?: string) => new Intl.DateTimeFormat(locale, { ...DATE, timeZone: 'UTC' });
const month = (locale?: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', timeZone: 'UTC' });
const moment = (locale?: string, zone?: string) =>
  new Intl.DateTimeFormat(locale, { ...DATE, ...TIME, timeZone: zone });
const momentWithZone = (locale?: string, zone?: string) =>
  new Intl.DateTimeFormat(locale, { ...DATE, ...TIME, timeZone: zone, timeZoneName: 'short' });

const defaults = {
  date: calendarDate(),
  month: month(),
  moment: moment(),
  momentWithZone: momentWithZone(),
};

/** Where the formats are pinned to a locale and zone (tests), or the browser's own. */
export interface DateLocale {
  locale?: string;
  timeZone?: string;
}

const pick = <K extends keyof typeof defaults>(
  key: K,
  make: (locale?: string, zone?: string) => Intl.DateTimeFormat,
  at?: DateLocale,
) => (at ? make(at.locale, at.timeZone) : defaults[key]);

/** A calendar day ('2024-01-05'): 'Jan 5, 2024' in en-US, '5 Jan 2024' in en-GB. */
export function formatDate(isoDate: string, at?: DateLocale): string {
  const d = new Date(`${isoDate.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? isoDate : pick('date', calendarDate, at).format(d);
}

/** A month ('2024-01' or any day of it): 'Jan 2024'. */
export function formatMonth(isoMonth: string, at?: DateLocale): string {
  const d = new Date(`${isoMonth.slice(0, 7)}-01T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? isoMonth : pick('month', month, at).format(d);
}

/**
 * A moment (an ISO timestamp) in the user's time zone: 'Jan 5, 2024, 2:16 PM'. `withZone` names the
 * zone ('... 2:16 PM UTC') where a reader compares it with times from elsewhere (the audit log).
 */
export function formatDateTime(iso: string, options: { withZone?: boolean } & DateLocale = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const at = options.locale || options.timeZone ? options : undefined;
  return options.withZone
    ? pick('momentWithZone', momentWithZone, at).format(d)
    : pick('moment', moment, at).format(d);
}
