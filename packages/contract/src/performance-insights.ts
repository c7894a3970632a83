import { z } from 'zod';
import { codeRef } from './fields.ts';
import { departmentFilter, performanceDate } from './performance.ts';

export const PERFORMANCE_INSIGHT_ENDPOINTS = {
  trend: 'GetPerformanceTrend',
  overview: 'GetPerformanceOverview',
  departments: 'GetPerformanceDepartments',
} as const;

export const PERFORMANCE_INSIGHT_MESSAGES = {
  trend: 'Performance trend fetched successfully',
  overview: 'Performance overview fetched successfully',
  departments: 'Departments fetched successfully',
  failedTrend: 'Failed to fetch the performance trend',
  failedOverview: 'Failed to fetch the performance overview',
  failedDepartments: 'Failed to fetch the departments',
} as const;

/** A trend covers at most a year and a day apart (a leap year's 1 January to the next). */
export const MAX_TREND_SPAN_DAYS = 366;
/** Without a range: the last 90 days up to today, today included. */
export const DEFAULT_TREND_DAYS = 90;

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** Pure: the date `days` after (or before, when negative) a YYYY-MM-DD date. */
export function addDays(iso: string, days: number): string {
  return new Date((dayNumber(iso) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Pure: whole days from `from` to `to`. */
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

export interface TrendRange {
  from: string;
  to: string;
}

/**
 * Pure: the range a trend covers, from what the caller gave and today, or why it cannot be. `to`
 * defaults to today and `from` to 89 days before `to`.
 */
export function trendRange(
  given: Partial<TrendRange>,
  today: string,
): TrendRange | { field: 'to'; message: string } {
  const to = given.to ?? today;
  const from = given.from ?? addDays(to, 1 - DEFAULT_TREND_DAYS);
  if (from > to) return { field: 'to', message: 'To must not be before From' };
  if (daysBetween(from, to) > MAX_TREND_SPAN_DAYS) {
    return { field: 'to', message: `From and To can be at most ${MAX_TREND_SPAN_DAYS} days apart` };
  }
  return { from, to };
}

export const performanceTrendSchema = z.object({
  employeeCode: codeRef('Employee'),
  from: performanceDate('From').optional(),
  to: performanceDate('To').optional(),
});

export const performanceOverviewQuerySchema = z.object({
  date: performanceDate('Date').optional(),
  departmentCode: departmentFilter,
});

/** An average as the grid shows it: two decimals, null when there is nothing to average. */
const average = z.number().nullable();

export const performanceTrendData = z.object({
  from: z.string(),
  to: z.string(),
  employee: z.object({
    employeeCode: z.string(),
    employeeId: z.string(),
    name: z.string(),
    department: z.object({ departmentCode: z.string(), name: z.string() }),
  }),
  /** The dates of the range with at least one score. */
  days: z.array(z.object({ date: z.string(), daily: z.number() })),
  /** Every month the range touches: the mean of its daily averages inside the range. */
  months: z.array(z.object({ month: z.string(), average })),
  /** Every skill, in column order: the mean of its scores in the range and how many there are. */
  skills: z.array(
    z.object({ skillCode: z.string(), title: z.string(), average, scored: z.number().int().min(0) }),
  ),
});
export type PerformanceTrend = z.output<typeof performanceTrendData>;

/** The ten buckets of the yearly-average histogram: `0-1` up to `9-10` (10 falls in the last). */
export const DISTRIBUTION_BUCKETS = Array.from({ length: 10 }, (_, i) => `${i}-${i + 1}`);

export const performanceOverviewData = z.object({
  date: z.string(),
  departmentCode: z.string().nullable(),
  skills: z.array(z.object({ skillCode: z.string(), title: z.string(), monthly: average, yearly: average })),
  departments: z.array(
    z.object({
      departmentCode: z.string(),
      name: z.string(),
      employees: z.number().int().min(0),
      daily: average,
      monthly: average,
      yearly: average,
    }),
  ),
  distribution: z.array(z.object({ bucket: z.string(), count: z.number().int().min(0) })),
});
export type PerformanceOverview = z.output<typeof performanceOverviewData>;

/** A department filter's option: whoever may view scores may pick a department, whatever else they hold. */
export const performanceDepartmentData = z.object({ departmentCode: z.string(), name: z.string() });
export type PerformanceDepartment = z.output<typeof performanceDepartmentData>;
