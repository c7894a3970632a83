import { z } from 'zod';
import type { FieldError } from './envelope.ts';
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

/** A cell: empty means "not scored"; otherwise a whole number 0..10 (docs/product.md section 12). */
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

const EARLIEST_PERFORMANCE_DATE = '1970-01-01';
/** How far ahead of today a performance may be dated: a year, counted in days so that no leap day moves it. */
const PERFORMANCE_DAYS_AHEAD = 365;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Today's date on this machine's clock: what "today" means for the server. */
export const localIsoDate = (now: Date): string =>
  `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

export interface DateRange {
  earliest: string;
  latest: string;
}

/** Pure: the dates a performance may describe when it is `today` (YYYY-MM-DD). */
export function performanceDateRange(today: string): DateRange {
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + PERFORMANCE_DAYS_AHEAD);
  const latest = day.toISOString().slice(0, 10);
  return { earliest: EARLIEST_PERFORMANCE_DATE, latest };
}

/**
 * Pure: why a well-formed date (YYYY-MM-DD, so that text order is date order) cannot be a
 * performance date, or undefined. Every date read or saved is bounded, so that no request can
 * name the year 1 or 9999: each date a request names can cost a row, a rollup or a computation,
 * and none of those has a use far outside the company's life.
 */
export function performanceDateError(date: string, range: DateRange): string | undefined {
  if (date >= range.earliest && date <= range.latest) return undefined;
  return `Date must be between ${range.earliest} and ${range.latest}`;
}

export const FUTURE_SCORE_MESSAGE = 'Scores cannot be recorded for a future date';

/**
 * Pure: why a well-formed date cannot carry scores on `today`, or undefined. A future date may be
 * read (its grid is empty and read-only) but not scored: nobody can have been assessed on it yet.
 */
export function scoreDateError(date: string, range: DateRange, today: string): string | undefined {
  return performanceDateError(date, range) ?? (date > today ? FUTURE_SCORE_MESSAGE : undefined);
}

let current: { at: number; today: string; range: DateRange } | undefined;

/** Today and its range on this machine's clock, read at most once a second: a bulk save checks thousands of dates. */
function currentDay() {
  const now = Date.now();
  if (!current || now - current.at >= 1000) {
    const today = localIsoDate(new Date(now));
    current = { at: now, today, range: performanceDateRange(today) };
  }
  return current;
}

/**
 * A real YYYY-MM-DD date within the performance range of the server's today; with `scored`, also
 * not after today (a date that scores are saved for).
 */
export const performanceDate = (label: string, scored = false) =>
  isoDate(label).superRefine((date, ctx) => {
    // The format and calendar checks have their own messages; a range says nothing more then.
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    const { today, range } = currentDay();
    const problem = scored ? scoreDateError(date, range, today) : performanceDateError(date, range);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const TOTAL_POINTS_MESSAGE = `Total points must be ${TOTAL_POINTS}`;

/** A cell of a saved row, as the server takes it. */
export interface PerformanceCellInput {
  skillCode: string;
  pointsEarned: number | null;
}

type CellIssue = [field: 'skillCode' | 'pointsEarned' | 'totalPoints' | null, message: string];

/**
 * Pure: a cell as the server takes it, or what is wrong with it, field by field. The rules are
 * those of `codeRef('Skill')`, `parseScore` and a total of 10 (the form always sends 10; anything
 * else would mean the client and server disagree on the scale). Written by hand because a bulk
 * save holds up to 100,000 cells: as Zod objects they took 120-160 ms on a shared 2-core machine
 * (250-530 ms under load), during which the server answered nobody; read here, a third of that.
 */
export function readCell(value: unknown): PerformanceCellInput | CellIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [[null, 'Each skill must be an object with skillCode, pointsEarned and totalPoints']];
  }
  const { skillCode, pointsEarned, totalPoints } = value as Record<string, unknown>;
  const code = typeof skillCode === 'string' ? skillCode.trim() : '';
  const points =
    typeof pointsEarned === 'string' || typeof pointsEarned === 'number'
      ? parseScore(String(pointsEarned))
      : pointsEarned === null
        ? null
        : undefined;
  const totalOk =
    totalPoints === undefined ||
    totalPoints === '' ||
    ((typeof totalPoints === 'string' || typeof totalPoints === 'number') &&
      Number(totalPoints) === TOTAL_POINTS);
  if (code && code.length <= 64 && points !== undefined && totalOk)
    return { skillCode: code, pointsEarned: points };
  const issues: CellIssue[] = [];
  if (!code) issues.push(['skillCode', 'Skill is required']);
  else if (code.length > 64) issues.push(['skillCode', 'Skill is not a valid code']);
  if (points === undefined) issues.push(['pointsEarned', SCORE_MESSAGE]);
  if (!totalOk) issues.push(['totalPoints', TOTAL_POINTS_MESSAGE]);
  return issues;
}

const MAX_SKILLS_PER_ROW = 200;

/** A row's cells: a list (a form body drops an empty one altogether), each read by `readCell`. */
const cellsInput = z
  .unknown()
  // An absent key is only optional in an object when the schema itself is `.optional()`.
  .optional()
  .transform((cells, ctx) => {
    const out: PerformanceCellInput[] = [];
    if (cells === undefined) return out;
    if (!Array.isArray(cells)) {
      ctx.addIssue({ code: 'custom', message: 'Skills must be a list', input: cells });
      return out;
    }
    if (cells.length > MAX_SKILLS_PER_ROW) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_SKILLS_PER_ROW} skills per row`, input: cells });
      return out;
    }
    cells.forEach((value: unknown, j) => {
      const cell = readCell(value);
      if (!Array.isArray(cell)) out.push(cell);
      else
        for (const [field, message] of cell)
          ctx.addIssue({ code: 'custom', message, input: value, path: field ? [j, field] : [j] });
    });
    return out;
  });

export const ROW_VERSION_MESSAGE = 'Version must be empty or a whole number of at least 1';

/**
 * The version of a row as the writer read it (optimistic concurrency), in three states: absent,
 * not checked (API clients written before versions keep working); null, the writer saw no saved
 * row, so a row someone created meanwhile is a conflict; a number, which must be the row's
 * current version. A form body sends null as an empty value, as it does an empty score.
 */
const rowVersion = z
  .union([z.number(), z.string().trim(), z.null()])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : Number(v)))
  .pipe(
    z
      .number({ error: ROW_VERSION_MESSAGE })
      .int(ROW_VERSION_MESSAGE)
      .min(1, ROW_VERSION_MESSAGE)
      .nullable()
      .optional(),
  );

export const performanceRowInput = z.object({
  performanceCode: z.string().trim().max(64).optional(),
  employeeCode: codeRef('Employee'),
  date: performanceDate('Date', true),
  version: rowVersion,
  performancePerSkill: cellsInput,
});
export type PerformanceRowInput = z.output<typeof performanceRowInput>;

export const MAX_PERFORMANCE_ROWS = 10_000;

const batchOf = <T extends z.ZodType>(row: T) =>
  z
    .array(row, { error: 'No performances to save' })
    .min(1, 'No performances to save')
    .max(MAX_PERFORMANCE_ROWS, `At most ${MAX_PERFORMANCE_ROWS} rows at once`);

/** The bulk save's body, every row checked. */
export const createUpdatePerformancesSchema = z.object({ performances: batchOf(performanceRowInput) });

/**
 * The same body with its rows left unread: the server reads them with `performanceRowInput` a
 * chunk at a time, letting other requests run in between, so that the largest batch never holds
 * the event loop for long. The answers are those of `createUpdatePerformancesSchema`.
 */
export const performanceBatchSchema = z.object({ performances: batchOf(z.unknown()) });

/*
 * What a valid batch is, in one place: the body's size (`performanceBatchSchema`), each row
 * (`performanceRowInput`), and no employee and date or skill of a row named twice
 * (`performanceBatchErrors`); `readPerformanceBatch` applies them in that order, as the save
 * does. Whether the named records exist is the database's to say.
 */

const rowField = (i: number, field: string) => `performances.${i}.${field}`;
const cellField = (i: number, j: number, field: string) =>
  `performances.${i}.performancePerSkill.${j}.${field}`;

/** Up to this many cells a row's repeats are found by comparison; beyond, by a set. */
const FEW_CELLS = 32;

/** Pure: the index of each cell whose skill an earlier cell of the row already names. */
function repeatedCells(cells: PerformanceRowInput['performancePerSkill']): number[] {
  const repeated: number[] = [];
  if (cells.length <= FEW_CELLS) {
    // Hashing every code of a large batch (100,000 of them) costs more than comparing a few.
    for (let j = 1; j < cells.length; j++) {
      for (let k = 0; k < j; k++) {
        if (cells[k]?.skillCode === cells[j]?.skillCode) {
          repeated.push(j);
          break;
        }
      }
    }
    return repeated;
  }
  const seen = new Set<string>();
  cells.forEach((cell, j) => {
    if (seen.has(cell.skillCode)) repeated.push(j);
    seen.add(cell.skillCode);
  });
  return repeated;
}

/** Pure: what a batch of valid rows cannot mean, whatever the database holds (repeated rows or cells). */
export function performanceBatchErrors(rows: readonly PerformanceRowInput[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const key = `${row.employeeCode}|${row.date}`;
    if (seen.has(key)) {
      errors.push({ field: rowField(i, 'date'), message: 'This employee and date appear twice in the list' });
    }
    seen.add(key);
    for (const j of repeatedCells(row.performancePerSkill)) {
      errors.push({ field: cellField(i, j, 'skillCode'), message: 'This skill appears twice in the row' });
    }
  });
  return errors;
}

/** Rows read between two pauses: a few milliseconds of work. */
const ROWS_PER_TURN = 500;

/**
 * The rows of a bulk save body (`performanceBatchSchema`'s `performances`), read a chunk at a
 * time with `pause` between chunks, so that the largest batch (100,000 cells, tens of
 * milliseconds) never holds a server's other requests for long. Every row error at once, at the
 * paths the whole body's schema gives (`performances.3.performancePerSkill.1.pointsEarned`);
 * when the rows are valid, their repeats.
 */
export async function readPerformanceBatch(
  values: readonly unknown[],
  pause: () => Promise<void>,
): Promise<{ rows: PerformanceRowInput[]; errors: FieldError[] }> {
  const rows: PerformanceRowInput[] = [];
  const errors: FieldError[] = [];
  for (let start = 0; start < values.length; start += ROWS_PER_TURN) {
    if (start > 0) await pause();
    const end = Math.min(values.length, start + ROWS_PER_TURN);
    for (let i = start; i < end; i++) {
      const parsed = performanceRowInput.safeParse(values[i]);
      if (parsed.success) rows.push(parsed.data);
      else
        for (const issue of parsed.error.issues)
          errors.push({
            field: ['performances', i, ...issue.path].map(String).join('.'),
            message: issue.message,
          });
    }
  }
  return { rows, errors: errors.length ? errors : performanceBatchErrors(rows) };
}

const optionalDate = performanceDate('Date').optional();

/** A department to narrow a read to; empty (as a cleared selector sends it) means every department. */
export const departmentFilter = z
  .string()
  .trim()
  .max(64, 'Department is not a valid code')
  .optional()
  .transform((v) => v || undefined);

/**
 * Query of GetPerformances, the report and the CSV. Only the date and department are checked here:
 * paging, sort and keyword are normalised as for every list, and the sort field is checked against
 * its own whitelist.
 */
export const performanceDateQuerySchema = z.looseObject({
  date: optionalDate,
  departmentCode: departmentFilter,
});

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
  /** 1 when first saved, one more with every save that changes it; null until something is saved. */
  version: number | null;
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
