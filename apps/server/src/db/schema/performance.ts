import { date, index, numeric, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { employees } from './people.ts';
import { skills } from './reference.ts';

/** One row per employee and date; `dailyAverage` is kept in step with its scores on every save. */
export const performances = pgTable(
  'performances',
  {
    id: id(),
    performanceCode: text('performance_code').notNull().unique(),
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    dailyAverage: numeric('daily_average', { precision: 6, scale: 4 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('performances_employee_date').on(t.employeeCode, t.date),
    index('performances_date').on(t.date),
  ],
);

export const performanceScores = pgTable(
  'performance_scores',
  {
    performanceCode: text('performance_code')
      .notNull()
      .references(() => performances.performanceCode, { onDelete: 'cascade' }),
    skillCode: text('skill_code')
      .notNull()
      .references(() => skills.skillCode, { onDelete: 'restrict' }),
    // null: not scored (DECISIONS.md section 5).
    points: smallint('points'),
  },
  (t) => [
    primaryKey({ columns: [t.performanceCode, t.skillCode] }),
    index('performance_scores_skill').on(t.skillCode),
  ],
);
