import { addDays, type TrendRange, trendRange } from '@wfc/contract';
import { isIsoDate } from '../query';

/** The ranges an employee's insight page offers in one click; anything else is `custom`. */
export const RANGE_PRESETS = [
  { key: 'last30', label: 'Last 30 days' },
  { key: 'month', label: 'This month' },
  { key: 'year', label: 'This year' },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['key'];

/** Pure: the dates a preset covers on `today`, today included. */
export function presetRange(preset: RangePreset, today: string): TrendRange {
  if (preset === 'last30') return { from: addDays(today, -29), to: today };
  if (preset === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  return { from: `${today.slice(0, 5)}01-01`, to: today };
}

/** Pure: the preset a range is, if any, so the matching button shows as chosen after a reload. */
export const presetOf = (range: TrendRange, today: string): RangePreset | undefined =>
  RANGE_PRESETS.find((p) => {
    const r = presetRange(p.key, today);
    return r.from === range.from && r.to === range.to;
  })?.key;

/**
 * Pure: the range in the page's address, or the last 30 days when it names none or one the server
 * would refuse; the range lives in the address so a reload or a shared link shows the same days.
 */
export function readRange(params: URLSearchParams, today: string): TrendRange {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (isIsoDate(from) && isIsoDate(to)) {
    const range = trendRange({ from, to }, today);
    if (!('message' in range)) return range;
  }
  return presetRange('last30', today);
}

/** Pure: why a custom range cannot be shown, or undefined. */
export function customRangeError(from: string, to: string, today: string): string | undefined {
  if (!isIsoDate(from) || !isIsoDate(to)) return 'Choose both dates';
  const range = trendRange({ from, to }, today);
  return 'message' in range ? range.message : undefined;
}
