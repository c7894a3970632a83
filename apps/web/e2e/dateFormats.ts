/*
 * What a screen's text may say a date as: the console's one format per kind (ui/dates.ts) in the
 * browser's locale, which the tests run in as en-US. Anything else that looks like a date is a
 * screen that formats dates its own way.
 */

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const FULL_MONTH = '(?:January|February|March|April|June|July|August|September|October|November|December)';

/** The kinds, longest first: a moment starts with a date, and a date with a month. */
const KINDS = [
  [
    'moment',
    new RegExp(`^${MONTH} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2}\\s[AP]M(?: [A-Z]{2,5}(?:[+-]\\d{1,2})?)?`),
  ],
  ['date', new RegExp(`^${MONTH} \\d{1,2}, \\d{4}`)],
  ['month', new RegExp(`^${MONTH} \\d{4}`)],
] as const;

/** Other ways to say a date, each a finding wherever it stands. */
const FOREIGN = [
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/g, // ISO, in exports only
  /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g, // numeric
  new RegExp(`\\b\\d{1,2} ${MONTH} \\d{4}\\b`, 'g'), // day first
  new RegExp(`\\b${FULL_MONTH}\\b(?: \\d{1,2})?`, 'g'), // months spelt out
  /\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b/g, // weekdays
];

export interface DateFinding {
  kind: 'moment' | 'date' | 'month' | 'foreign';
  text: string;
}

/** Pure: every date in a screen's text, by kind, and every one said another way as `foreign`. */
export function findDates(text: string): DateFinding[] {
  const found: DateFinding[] = [];
  for (const pattern of FOREIGN) {
    for (const m of text.matchAll(pattern)) found.push({ kind: 'foreign', text: m[0] });
  }
  for (const m of text.matchAll(new RegExp(`\\b${MONTH}\\b`, 'g'))) {
    const rest = text.slice(m.index);
    const kind = KINDS.find(([, pattern]) => pattern.test(rest));
    if (kind) found.push({ kind: kind[0], text: rest.match(kind[1])?.[0] ?? '' });
    // A month name alone ("May" in a sentence) says no date.
    else if (/^\S+ \d/.test(rest)) found.push({ kind: 'foreign', text: rest.slice(0, 24) });
  }
  return found;
}
