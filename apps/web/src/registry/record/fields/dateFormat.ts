const TOKENS: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {
  day: 'DD',
  month: 'MM',
  year: 'YYYY',
};

/**
 * The pattern a date input shows its empty value in ('DD/MM/YYYY' in en-GB, 'MM/DD/YYYY' in
 * en-US): the browser lays the input out as the locale's numeric date, which this spells out.
 */
export function dateInputPattern(locale?: string): string {
  const format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' });
  return format
    .formatToParts(new Date(Date.UTC(2001, 10, 22, 12)))
    .map((part) => TOKENS[part.type] ?? part.value)
    .join('');
}

/**
 * What an empty date field says: a half-typed date is empty too, so the message names the
 * format the field wants ('Date of birth is required (DD/MM/YYYY)').
 */
export const dateFieldMessage = (error: string, value: string, pattern: string): string =>
  value === '' ? `${error} (${pattern})` : error;
