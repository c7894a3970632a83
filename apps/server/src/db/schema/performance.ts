import {
  bigint,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt, version } from './columns.ts';
import { employees } from './people.ts';
import { departments, skills } from './reference.ts';

/*
 * Averages are means of means of small integers (1/3, 1/7, ...). Keeping 30 decimals lets the
 * reader round to two decimals exactly (see performance/sql.ts), whatever the volume.
 */
const exact = (name: string) => numeric(name, { precision: 36, scale: 30 });

/**
 * One row per employee and date (stored at fillfactor 50, see migration 0005, so the rollup
 * updates of a save stay on their page). Kept in step with its scores on every save:
 * `dailyAverage` (null when nothing is scored) and the running sum and count of the daily
 * averages from the 1st of the month up to and including this date, so that any date's monthly
 * average is read from a single row.
 */
export const performances = pgTable(
  'performances',
  {
    id: id(),
    performanceCode: text('performance_code').notNull().unique(),
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    dailyAverage: exact('daily_average'),
    monthSum: exact('month_sum').notNull().default('0'),
    monthDays: smallint('month_days').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // Also carries daily_average (INCLUDE, migration 0013, which this builder cannot declare), so
    // that a trend reads an employee's daily averages from the index alone.
    uniqueIndex('performances_employee_date').on(t.employeeCode, t.date),
    index('performances_date').on(t.date),
  ],
);

/** A cleared cell is deleted, so a row here is always a score and a skill with none can be deleted. */
export const performanceScores = pgTable(
  'performance_scores',
  {
    performanceCode: text('performance_code')
      .notNull()
      .references(() => performances.performanceCode, { onDelete: 'cascade' }),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'restrict' }),
    // null: not scored (docs/product.md section 12); the save path deletes instead, bulk loaders may not.
    points: smallint('points'),
  },
  (t) => [
    primaryKey({ columns: [t.performanceCode, t.skillCode] }),
    index('performance_scores_skill').on(t.skillCode),
  ],
);

/**
 * Per employee and calendar month (its 1st day): the sum and count of the month's daily averages,
 * and the running sum and count from 1 January to the end of this month. A date's yearly average
 * is then one row of the previous month plus that date's running month values: two index probes
 * per employee instead of a year of rows.
 */
export const performanceMonths = pgTable(
  'performance_months',
  {
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    daySum: exact('day_sum').notNull(),
    dayCount: smallint('day_count').notNull(),
    yearSum: exact('year_sum').notNull(),
    yearDays: integer('year_days').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.employeeCode, t.month] }),
    // A date's grid reads the whole previous month at once.
    index('performance_months_month').on(t.month),
  ],
);

/**
 * Per employee and calendar month (its 1st day): the month's daily averages, each rounded to two
 * decimals, written out as the JSON a trend answers (`{"date":"2026-01-05","daily":7.45}`, comma
 * separated, in date order; empty when none is scored). A year's trend then joins 12 of these
 * instead of building 365 objects. Rewritten with the month's totals (performance/summaries/running-sums.ts) by
 * the save and the rebuild; an employee's deletion takes it away (cascade).
 */
export const performanceMonthDays = pgTable(
  'performance_month_days',
  {
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    days: text('days').notNull(),
  },
  (t) => [primaryKey({ columns: [t.employeeCode, t.month] })],
);

/**
 * Per department, date and skill: the sum and number of the scores its employees were given that
 * day (cells without points do not count). A date's skill averages over a month or a year, for
 * every department or one, then read at most 366 x skills rows per department instead of every
 * score. Kept in step in the same transaction as what moves it: a save (its changed cells'
 * deltas, performance/save/save.ts), the rollup rebuild (performance/summaries/rebuild.ts), and triggers on
 * `employees` for a change of department and a deletion (migration 0011). A row whose count
 * falls to 0 is deleted, so a department or skill with no scores has none.
 */
export const performanceSkillDays = pgTable(
  'performance_skill_days',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'cascade' }),
    pointsSum: integer('points_sum').notNull(),
    scored: integer('scored').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.date, t.skillCode] }),
    // Every department's skills over a range of dates.
    index('performance_skill_days_date').on(t.date),
  ],
);

/**
 * Per employee, calendar month (its 1st day) and skill: the sum and number of the scores the
 * employee was given that month. A trend's skill averages over a range then read the range's whole
 * months here (at most 13 x skills rows) and only its partial months' days from the scores, where a
 * year of scores is 7,000 rows found through 366 index searches. Kept in step by the same writes as
 * `performance_skill_days` (a save's changed cells, the rollup rebuild); keyed by employee, it has
 * nothing to move when an employee changes department, and goes with the employee. A row whose
 * count falls to 0 is deleted.
 */
export const performanceSkillMonths = pgTable(
  'performance_skill_months',
  {
    // Keyed by the employees' and skills' ids: a save adds to one row per changed employee and
    // skill (20,000 for a batch of 1,000 x 20), and comparing numbers instead of text in this key
    // makes that upsert about four times faster.
    employeeId: bigint('employee_id', { mode: 'number' })
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    skillId: bigint('skill_id', { mode: 'number' })
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    pointsSum: integer('points_sum').notNull(),
    scored: integer('scored').notNull(),
  },
  (t) => [primaryKey({ columns: [t.employeeId, t.month, t.skillId] })],
);

/**
 * Per department, calendar month and skill: `performance_skill_days` summed over the month. An
 * overview's skill averages over a month or a year up to a date then read the whole months here (at
 * most 12 x skills rows per department) and only the days of a part month from the skill days.
 * Kept in step by the same writes as the skill days: a save's changed cells, the rollup rebuild,
 * and the move of an employee's sums on a change of department or a deletion (migration 0013).
 */
export const performanceDepartmentSkillMonths = pgTable(
  'performance_department_skill_months',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'cascade' }),
    pointsSum: integer('points_sum').notNull(),
    scored: integer('scored').notNull(),
  },
  (t) => [primaryKey({ columns: [t.departmentCode, t.month, t.skillCode] })],
);

/**
 * Per date and skill, and per calendar month and skill: `performance_skill_days` and
 * `performance_department_skill_months` summed over every department, for the overview of everyone
 * (20 rows a month instead of 20 per department). Kept by the same writes; a change of department
 * moves nothing here, a deletion takes the employee's sums away (migration 0014). A row whose count
 * falls to 0 is deleted.
 */
export const performanceOverallSkillDays = pgTable(
  'performance_overall_skill_days',
  {
    date: date('date', { mode: 'string' }).notNull(),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'cascade' }),
    pointsSum: integer('points_sum').notNull(),
    scored: integer('scored').notNull(),
  },
  (t) => [primaryKey({ columns: [t.date, t.skillCode] })],
);

export const performanceOverallSkillMonths = pgTable(
  'performance_overall_skill_months',
  {
    month: date('month', { mode: 'string' }).notNull(),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'cascade' }),
    pointsSum: integer('points_sum').notNull(),
    scored: integer('scored').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.skillCode] })],
);

/**
 * Per department and date: the sum and number of its employees' daily averages. A date's
 * department averages (the day, the month and the year up to it) then read at most 366 rows per
 * department instead of every employee's running sums. Kept in step with `performances.daily_average`
 * in the save's statement that writes it (the difference of each changed row), by the rollup
 * rebuild, and by the triggers on `employees` for a change of department and a deletion
 * (migration 0014). A row whose count falls to 0 stays: it adds nothing.
 */
export const performanceDepartmentDays = pgTable(
  'performance_department_days',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    dailySum: exact('daily_sum').notNull(),
    days: integer('days').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.date] }),
    // Every department over a range of dates.
    index('performance_department_days_date').on(t.date),
  ],
);

/**
 * Per department and calendar month (its 1st day): `performance_department_days` summed over the
 * month, so that a date's yearly average reads the whole months before its own here (at most 11
 * rows per department) and only its month's days there. Kept by the same writes, from the same
 * differences.
 */
export const performanceDepartmentMonths = pgTable(
  'performance_department_months',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    dailySum: exact('daily_sum').notNull(),
    days: integer('days').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.month] }),
    index('performance_department_months_month').on(t.month),
  ],
);

/**
 * Per employee, the dates on which the bucket of their yearly average (`0-1` ... `9-10`, as the
 * overview's distribution counts them) changes: the first scored date of each year, and every later
 * one that moves the average into another bucket, with the bucket it left (`previous`, null on the
 * first). An average changes only on a scored date, and mostly stays in its bucket, so this is a
 * few rows per employee and year. Rewritten from a save's earliest changed date to the end of its
 * year for the saved employees (performance/summaries/buckets.ts).
 */
export const performanceBucketChanges = pgTable(
  'performance_bucket_changes',
  {
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    bucket: smallint('bucket').notNull(),
    previous: smallint('previous'),
  },
  (t) => [primaryKey({ columns: [t.employeeCode, t.date] })],
);

/**
 * Per department, date and bucket: how many of its employees' yearly averages entered the bucket
 * that day, less those that left it (`performance_bucket_changes` summed under each employee's
 * department). The distribution on a date is then the sum from 1 January up to it, where it used
 * to need every employee's running sums. Kept in step by the same writes as
 * `performance_department_days`; a row that sums to 0 stays.
 */
export const performanceDepartmentBuckets = pgTable(
  'performance_department_buckets',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    bucket: smallint('bucket').notNull(),
    employees: integer('employees').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.date, t.bucket] }),
    index('performance_department_buckets_date').on(t.date),
  ],
);

/**
 * Per department, calendar month and bucket: `performance_department_buckets` summed over the month,
 * read for the whole months before a date's own. Kept by the same writes.
 */
export const performanceDepartmentBucketMonths = pgTable(
  'performance_department_bucket_months',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    bucket: smallint('bucket').notNull(),
    employees: integer('employees').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.month, t.bucket] }),
    index('performance_department_bucket_months_month').on(t.month),
  ],
);
