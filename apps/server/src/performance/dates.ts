/** Calendar arithmetic on YYYY-MM-DD strings: no time zones, so a date is the same everywhere. */

/** The 1st of the date's month: where a monthly average starts. */
export const monthStart = (isoDate: string): string => `${isoDate.slice(0, 7)}-01`;

/** 1 January of the date's year: where a yearly average starts. */
export const yearStart = (isoDate: string): string => `${isoDate.slice(0, 4)}-01-01`;

/** The 1st of the month before the date's, within its year; null in January. */
export function previousMonthStart(isoDate: string): string | null {
  const month = Number(isoDate.slice(5, 7));
  return month === 1 ? null : `${isoDate.slice(0, 4)}-${String(month - 1).padStart(2, '0')}-01`;
}
