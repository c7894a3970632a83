import { z } from 'zod';
import { codeRef, isoDate } from './fields.ts';

export const TOTAL_POINTS = 10;
export const PERFORMANCE_SORT_FIELDS = ['name', 'employeeId', 'daily', 'monthly', 'yearly'] as const;
export const PERFORMANCE_CSV_FILENAME = 'Performance_Report.csv';

export const PERFORMANCE_MESSAGES = {
  listed: 'Performances fetched successfully',
  fetched: 'Performance fetched successfully',
  saved: 'Performances saved successfully',
  report: 'Performance report fetched successfully',
  failedList: 'Failed to fetch performances',
  failedSave: 'Failed to save performances',
  failedReport: 'Failed to fetch performance report',
  notFound: 'Performance not found',
} as const;

/** A cell: empty means "not scored"; otherwise a whole number 0..10 (SPEC.md section 5). */
export function parseScore(input: string): number | null | undefined {
  const s = input.trim();
  if (s === '') return null;
  if (!/^\d{1,2}$/.test(s)) return undefined;
  const n = Number(s);
  return n <= TOTAL_POINTS ? n : undefined;
}

export const scoreInput = z.union([z.string(), z.number(), z.null()]).transform((v, ctx) => {
  const parsed = parseScore(v === null ? '' : String(v));
  if (parsed === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `Score must be empty or a whole number from 0 to ${TOTAL_POINTS}`,
    });
    return z.NEVER;
  }
  return parsed;
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
        totalPoints: z.coerce.number().optional(),
      }),
    )
    .max(200, 'At most 200 skills per row'),
});

export const createUpdatePerformancesSchema = z.object({
  performances: z
    .array(performanceRowInput)
    .min(1, 'No performances to save')
    .max(10_000, 'At most 10000 rows at once'),
});

export interface PerformanceSkillCell {
  skillCode: string;
  title: string;
  score: number | null;
}

export interface PerformanceRow {
  performanceCode: string | null;
  employeeCode: string;
  employeeId: string;
  employeeName: string;
  skills: PerformanceSkillCell[];
  total: { daily: number | null; monthly: number | null; yearly: number | null };
}
