/** Calendar arithmetic on YYYY-MM-DD strings: no time zones, so a date is the same everywhere. */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Today's date on the server's clock, which is what "today" means for a date-less request. */
export const localIsoDate = (now: Date): string =>
  `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

/** The 1st of the date's month: where a monthly average starts. */
export const monthStart = (isoDate: string): string => `${isoDate.slice(0, 7)}-01`;

/** 1 January of the date's year: where a yearly average starts. */
export const yearStart = (isoDate: string): string => `${isoDate.slice(0, 4)}-01-01`;
