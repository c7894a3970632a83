/*
 * Every summary of the scores, declared once (see db/schema/performance.ts for the tables):
 *   performances.daily_average               mean of the day's scored skills
 *   performances.month_sum / month_days      running sum and count of daily averages, 1st..date
 *   performance_months.day_sum / day_count   the same over the whole month
 *   performance_months.year_sum / year_days  running over the months, 1 January..end of month
 *   performance_month_days                    the month's daily averages written out as a trend's JSON
 *   performance_skill_days                    per department, date and skill: sum and count of scores
 *   performance_department_skill_months       per department, month and skill: the same
 *   performance_skill_months                  per employee, month and skill: the same
 *   performance_overall_skill_days / _months  per date (month) and skill, over every department: the same
 *   performance_department_days / _months     per department and date (month): sum and count of daily averages
 *   performance_bucket_changes                per employee: the dates their yearly average changes bucket
 *   performance_department_buckets / _bucket_months
 *                                             per department, date (month) and bucket: employees in less out
 * A save touches its rows, the later rows of their months and twelve month rows per employee, its
 * months' days written out, and the bucket changes of the rest of their year, in five set-based
 * statements whatever the number of rows saved (running-sums.ts, buckets.ts); the first and the
 * last answer what they change per department, which goes into the department rollups in four
 * more (days, months, bucket days, bucket months: departments.ts); then the skill days and months
 * of its changed cells, in one more each, two when a count falls to 0 (skills.ts). An employee's
 * change of department or deletion moves their department rollups, then skill days and months,
 * through triggers on `employees` (their SQL is in triggers.ts, applied by migrations); the
 * deletion takes their months of days away by cascade (0015). rebuild.ts recomputes them all.
 */

export type ColumnType = 'text' | 'date' | 'bigint' | 'smallint' | 'int' | 'numeric';

/** A column of a summary table and its type. */
type Column = readonly [column: string, type: ColumnType];

/** A summary table: the columns that key its rows and those that hold what it sums up per key. */
export interface Summary {
  table: string;
  keys: readonly Column[];
  measures: readonly Column[];
}

/**
 * A rollup of sums that writers add to: its measures are sums, and `emptiedBy` the count whose 0
 * leaves a row that is deleted (none: such rows stay, adding nothing).
 */
export interface Rollup extends Summary {
  emptiedBy?: string;
}

/** Per employee and month: the month's sum and count of daily averages, and the year's up to it. */
const MONTHS: Summary = {
  table: 'performance_months',
  keys: [
    ['employee_code', 'text'],
    ['month', 'date'],
  ],
  measures: [
    ['day_sum', 'numeric'],
    ['day_count', 'smallint'],
    ['year_sum', 'numeric'],
    ['year_days', 'int'],
  ],
};

/** Per employee and month: the month's daily averages as a trend's JSON, rewritten whole. */
const MONTH_DAYS: Summary = {
  table: 'performance_month_days',
  keys: [
    ['employee_code', 'text'],
    ['month', 'date'],
  ],
  measures: [['days', 'text']],
};

/** Per employee: each date their yearly average enters another bucket, and the one it left. */
const BUCKET_CHANGES: Summary = {
  table: 'performance_bucket_changes',
  keys: [
    ['employee_code', 'text'],
    ['date', 'date'],
  ],
  measures: [
    ['bucket', 'smallint'],
    ['previous', 'smallint'],
  ],
};

/**
 * A department rollup kept at two levels, per date and per month, from the same differences:
 * `extra` keys after the period (a bucket), and the summed columns.
 */
export interface DepartmentRollup {
  days: Rollup;
  months: Rollup;
}

function departmentRollup(
  days: string,
  months: string,
  extra: Rollup['keys'],
  measures: Rollup['measures'],
): DepartmentRollup {
  return {
    days: { table: days, keys: [['department_code', 'text'], ['date', 'date'], ...extra], measures },
    months: { table: months, keys: [['department_code', 'text'], ['month', 'date'], ...extra], measures },
  };
}

export const DEPARTMENT_DAYS = departmentRollup(
  'performance_department_days',
  'performance_department_months',
  [],
  [
    ['daily_sum', 'numeric'],
    ['days', 'int'],
  ],
);
export const DEPARTMENT_BUCKETS = departmentRollup(
  'performance_department_buckets',
  'performance_department_bucket_months',
  [['bucket', 'smallint']],
  [['employees', 'int']],
);

/** Where a saved cell lies, in every way a skill summary may key it. */
export interface CellPlace {
  departmentCode: string;
  employeeId: number;
  date: string;
  month: string;
  skillCode: string;
  skillId: number;
}

/**
 * A key column of a skill summary, declared once: its name and type, its value for a saved cell
 * (what a save adds to), and its expression over the scores joined to their performance `p`,
 * employee `e` and skill `k` (what the rebuild groups by).
 */
interface SkillKey {
  column: string;
  type: ColumnType;
  ofCell: (c: CellPlace) => string | number;
  ofScores: string;
}

const DEPARTMENT: SkillKey = {
  column: 'department_code',
  type: 'text',
  ofCell: (c) => c.departmentCode,
  ofScores: 'e.department_code',
};
const DAY: SkillKey = { column: 'date', type: 'date', ofCell: (c) => c.date, ofScores: 'p.date' };
const MONTH: SkillKey = {
  column: 'month',
  type: 'date',
  ofCell: (c) => c.month,
  ofScores: "date_trunc('month', p.date)::date",
};
const SKILL: SkillKey = {
  column: 'skill_code',
  type: 'text',
  ofCell: (c) => c.skillCode,
  ofScores: 'ps.skill_code',
};
const EMPLOYEE_ID: SkillKey = {
  column: 'employee_id',
  type: 'bigint',
  ofCell: (c) => c.employeeId,
  ofScores: 'e.id',
};
const SKILL_ID: SkillKey = { column: 'skill_id', type: 'bigint', ofCell: (c) => c.skillId, ofScores: 'k.id' };

export type SkillTable =
  | 'performance_skill_days'
  | 'performance_department_skill_months'
  | 'performance_overall_skill_days'
  | 'performance_overall_skill_months'
  | 'performance_skill_months';

/**
 * A skill summary: the sum and number of scores per key, a row left without scores deleted.
 * Its declaration gives both what a save adds (`skillRollupChanges`) and the rebuild
 * (`rebuildSkillRollups`).
 */
export interface SkillSummary extends Rollup {
  table: SkillTable;
  from: readonly SkillKey[];
}

const skillSummary = (table: SkillTable, from: readonly SkillKey[]): SkillSummary => ({
  table,
  from,
  keys: from.map((k) => [k.column, k.type] as const),
  measures: [
    ['points_sum', 'int'],
    ['scored', 'int'],
  ],
  emptiedBy: 'scored',
});

/**
 * Every skill summary, in the order a save writes them, which the department moves and
 * deletions of triggers.ts take too: per department and date, per department and month, the
 * same over every department, then per employee and month.
 */
export const SKILL_SUMMARIES: readonly SkillSummary[] = [
  skillSummary('performance_skill_days', [DEPARTMENT, DAY, SKILL]),
  skillSummary('performance_department_skill_months', [DEPARTMENT, MONTH, SKILL]),
  skillSummary('performance_overall_skill_days', [DAY, SKILL]),
  skillSummary('performance_overall_skill_months', [MONTH, SKILL]),
  skillSummary('performance_skill_months', [EMPLOYEE_ID, MONTH, SKILL_ID]),
];

/**
 * Every summary table, the one list of them: the rebuild empties and analyzes each, and
 * test/unit/performance/summary-catalogue.test.ts checks that every `performance_` table of the
 * schema but the scores is here, with these columns.
 */
export const SUMMARY_TABLES: readonly Summary[] = [
  MONTHS,
  MONTH_DAYS,
  DEPARTMENT_DAYS.days,
  DEPARTMENT_DAYS.months,
  BUCKET_CHANGES,
  DEPARTMENT_BUCKETS.days,
  DEPARTMENT_BUCKETS.months,
  ...SKILL_SUMMARIES,
];
