import { type Column, type SQL, sql } from 'drizzle-orm';

/*
 * Lists as one parameter each: a statement of a parameter per value costs more to build than to
 * run for a thousand values, and never meets PostgreSQL's 65,535-parameter limit this way.
 */

/** A PostgreSQL array literal of codes, ISO dates or integers, quoted so that any text is one element. */
export const arrayLiteral = (values: readonly (string | number)[]) =>
  `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** A list of texts as one `text[]` parameter, for `unnest` or `= any(...)`. */
export const textArray = (values: readonly string[]) => sql`${arrayLiteral(values)}::text[]`;

/** A list of integers as one `int[]` parameter. */
export const intArray = (values: readonly number[]) => sql`${arrayLiteral(values)}::int[]`;

/** `column = any(codes)`: the codes as one array parameter, matched on the column's index. */
export const anyOf = (column: Column | SQL, values: readonly string[]): SQL =>
  sql`${column} = any(${textArray(values)})`;

/** A list of codes as a set of text values from one parameter, to use as `x in (...)`. */
export const textSet = (values: readonly string[]) =>
  sql`select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)`;
