import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * The rows of a raw statement's result. Drizzle types that result by driver (node-postgres's
 * `QueryResult`, PGlite's `Results`), and an `Executor` may be either, so its type names neither;
 * both carry the rows as `rows`, and their shape is the statement's, which no driver type knows.
 * This is the one place that says so.
 */
const rowsIn = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The rows a raw statement answers, shaped as its select list names and casts them. */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  return rowsIn<T>(await db.execute(query));
}

/** The first row a raw statement answers, if any. */
export async function firstRow<T>(db: Executor, query: SQL): Promise<T | undefined> {
  const [row] = await rowsOf<T>(db, query);
  return row;
}

/** Whether `query` (a select) finds any row: the database stops at the first. */
export async function exists(db: Executor, query: SQL): Promise<boolean> {
  const row = await firstRow<{ found: boolean }>(db, sql`select exists (${query}) as found`);
  return row?.found === true;
}

const dialect = new PgDialect();

/**
 * As `rowsOf`, as a named prepared statement: each connection to a PostgreSQL server parses and
 * plans it once, then runs it with new values. For the insight statements, which are long and read
 * little, parsing and planning cost PostgreSQL three times what running them does (pgbench on the
 * same statement: 431 runs a second sent as text, 1,760 prepared). The name is a digest of the
 * text, so each of a statement's shapes (a range's cover varies its parts) is its own statement;
 * the values stay parameters. The embedded database has one connection and ignores the name.
 */
export async function preparedRowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `wfc_${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}`;
  return rowsIn<T>(await db._.session.prepareQuery(built, undefined, name, false).execute());
}
