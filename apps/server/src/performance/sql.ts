import { type SQL, sql } from 'drizzle-orm';

/**
 * A whole list as one parameter: the statement stays the same size whatever the volume and never
 * meets PostgreSQL's 65,535-parameter limit.
 */
export const jsonParam = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * Two decimals, rounding half away from zero. The stored sums carry 30 decimals; the mean of
 * averages of at most a few dozen skills over a year is a fraction whose denominator is far
 * below 10^13, so it is either exactly on a half-cent or more than 10^-14 away from one. Rounding
 * first to 20 decimals absorbs the last-digit error of the division (under 10^-27) and so makes
 * the final rounding exact.
 */
export const exactRound2 = (value: SQL) => sql`round(round(${value}, 20), 2)`;

/** As `exactRound2`, as the float8 that the JSON answers carry. */
export const round2 = (value: SQL) => sql`${exactRound2(value)}::float8`;

/**
 * A mean of running sums, null when there is nothing to average. `exact` leaves it numeric, for a
 * sort that compares every employee's: the conversion to float8 goes through text and adds about
 * a third to the cost of the computation.
 */
export const meanOf = (sum: SQL, count: SQL, exact = false) =>
  sql`case when ${count} > 0 then ${(exact ? exactRound2 : round2)(sql`(${sum}) / (${count})`)} end`;

/**
 * One day of a trend as the JSON object its answer holds, `{"date":"2026-01-05","daily":7.45}`,
 * the daily average rounded as every answer rounds it. Written as text: the rollup that keeps a
 * month of these (`performance_month_days`) and the trend that reads them must agree to the byte.
 */
export const dayJson = (date: SQL, average: SQL) =>
  sql`'{"date":"' || ${date}::text || '","daily":' || ${exactRound2(average)}::text || '}'`;
