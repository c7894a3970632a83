import { z } from 'zod';
import { codeList, codeRef, isoDate } from './fields.ts';
import { type ListQuery, normaliseListQuery } from './query.ts';

export const TOTAL_POINTS = 10;
export const PERFORMANCE_SORT_FIELDS = ['name', 'employeeId', 'daily', 'monthly', 'yearly'] as const;
export type PerformanceSortField = (typeof PERFORMANCE_SORT_FIELDS)[number];
/** One employee's history is a list of dates, so it sorts by date instead of by person. */
export const PERFORMANCE_HISTORY_SORT_FIELDS = ['date', 'daily', 'monthly', 'yearly'] as const;
export type PerformanceHistorySortField = (typeof PERFORMANCE_HISTORY_SORT_FIELDS)[number];
export const PERFORMANCE_CSV_FILENAME = 'Performance_Report.csv';

export const PERFORMANCE_ENDPOINTS = {
  list: 'GetPerformances',
  save: 'CreateUpdatePerformances',
  byCode: 'GetPerformanceByCode',
  byDateAndEmployees: 'GetPerformancesByDateAndEmployeeCodes',
  byEmployee: 'GetPerformancesByEmployeeCode',
  report: 'GetPerformanceReport',
  exportCsv: 'ExportPerformanceReport',
} as const;

export const PERFORMANCE_MESSAGES = {
  listed: 'Performances fetched successfully',
  fetched: 'Performance fetched successfully',
  saved: 'Performances saved successfully',
  report: 'Performance report fetched successfully',
  failedList: 'Failed to fetch performances',
  failedSave: 'Failed to save performances',
  failedReport: 'Failed to fetch performance report',
  failedExport: 'Failed to export performances',
  notFound: 'Performance not found',
  employeeNotFound: 'Employee not found',
  skillNotFound: 'Skill not found',
} as const;

/** Column titles shared by the grid and the CSV export, so both list the same columns in one order. */
export const PERFORMANCE_COLUMN_TITLES = {
  employeeId: 'Employee Id',
  employeeName: 'Employee Name',
  daily: 'Daily Average',
  monthly: 'Monthly Average',
  yearly: 'Yearly Average',
} as const;

/** A cell: empty means "not scored"; otherwise a whole number 0..10 (SPEC.md section 5). */
export function parseScore(input: string): number | null | undefined {
  const s = input.trim();
  if (s === '') return null;
  if (!/^\d{1,2}$/.test(s)) return undefined;
  const n = Number(s);
  return n <= TOTAL_POINTS ? n : undefined;
}

/** Averages travel already rounded to two decimals; this only pads them ("7.5" -> "7.50"). */
export const formatAverage = (value: number | null): string => (value === null ? '' : value.toFixed(2));

export const SCORE_MESSAGE = `Score must be empty or a whole number from 0 to ${TOTAL_POINTS}`;

export const scoreInput = z.union([z.string(), z.number(), z.null()]).transform((v, ctx) => {
  const parsed = parseScore(v === null ? '' : String(v));
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: SCORE_MESSAGE });
    return z.NEVER;
  }
  return parsed;
});

/** The form always sends 10; anything else would mean the client and server disagree on the scale. */
const totalPointsInput = z
  .union([z.string(), z.number()])
  .optional()
  .refine((v) => v === undefined || v === '' || Number(v) === TOTAL_POINTS, {
    message: `Total points must be ${TOTAL_POINTS}`,
  });

export const performanceRowInput = z.object({
  performanceCode: z.string().trim().max(64).optional(),
  employeeCode: codeRef('Employee'),
  date: isoDate('Date'),
  performancePerSkill: z
    .array(
      z.object({
        skillCode: codeRef('Skill'),
        pointsEarned: scoreInput,
        totalPoints: totalPointsInput,
      }),
    )
    .max(200, 'At most 200 skills per row')
    // A form body drops an empty list altogether.
    .optional()
    .transform((v) => v ?? []),
});
export type PerformanceRowInput = z.output<typeof performanceRowInput>;

export const MAX_PERFORMANCE_ROWS = 10_000;

export const createUpdatePerformancesSchema = z.object({
  performances: z
    .array(performanceRowInput, { error: 'No performances to save' })
    .min(1, 'No performances to save')
    .max(MAX_PERFORMANCE_ROWS, `At most ${MAX_PERFORMANCE_ROWS} rows at once`),
});

const optionalDate = isoDate('Date').optional();

/**
 * Query of GetPerformances, the report and the CSV. Only the date is checked here: paging, sort and
 * keyword are normalised as for every list, and the sort field is checked against its own whitelist.
 */
export const performanceDateQuerySchema = z.looseObject({ date: optionalDate });

export const performanceByCodeSchema = z.object({ performanceCode: codeRef('Performance code') });

export const performancesByDateAndEmployeesSchema = z.object({
  date: optionalDate,
  employeeCodes: codeList('Employee codes', 1000),
});

export const performancesByEmployeeSchema = z.object({ employeeCode: codeRef('Employee') });

export const PERFORMANCE_LIST_DEFAULTS: Partial<ListQuery> = { sortField: 'name', sortValue: 'asc' };
export const PERFORMANCE_HISTORY_DEFAULTS: Partial<ListQuery> = { sortField: 'date', sortValue: 'desc' };

export const normalisePerformanceQuery = (raw: Record<string, unknown> | undefined) =>
  normaliseListQuery(raw, PERFORMANCE_LIST_DEFAULTS);

export interface PerformanceSkillCell {
  skillCode: string;
  title: string;
  score: number | null;
}

export interface PerformanceTotals {
  daily: number | null;
  monthly: number | null;
  yearly: number | null;
}

export interface PerformanceRow {
  performanceCode: string | null;
  employeeCode: string;
  employeeId: string;
  employeeName: string;
  /** The day the row and its averages describe. */
  date: string;
  skills: PerformanceSkillCell[];
  total: PerformanceTotals;
}

export interface PerformanceSkillColumn {
  skillCode: string;
  title: string;
}
