import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';
import type { ReadCheck } from './query-cache.ts';

export interface Statement {
  sql: string;
  params: unknown[];
}

const scope = new AsyncLocalStorage<Statement[]>();

/**
 * Drizzle's logger, installed on every database: it hands each statement run inside
 * `recordStatements` to that call, and costs one lookup otherwise.
 */
export const statementRecorder: Logger = {
  logQuery(sql, params) {
    scope.getStore()?.push({ sql, params });
  },
};

/** Runs `read` and returns what it returned with every statement it ran. */
export async function recordStatements<T>(
  read: () => Promise<T>,
): Promise<{ value: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  // Awaited inside the scope: a query builder runs only when awaited, and must run in it.
  const value = await scope.run(statements, async () => await read());
  return { value, statements };
}

/** Pure: every table a plan of EXPLAIN (FORMAT JSON) scans, at any depth. */
export function relationsOfPlan(plan: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) {
    for (const p of plan) relationsOfPlan(p, into);
  } else if (plan !== null && typeof plan === 'object') {
    for (const [k, v] of Object.entries(plan)) {
      if (k === 'Relation Name' && typeof v === 'string') into.add(v);
      else relationsOfPlan(v, into);
    }
  }
  return into;
}

/** The plan PostgreSQL would run a statement with, as EXPLAIN (FORMAT JSON) writes it. */
export type Explain = (statement: Statement) => Promise<unknown>;

/**
 * The tables these statements read that `declared` does not name. The database itself says
 * which tables a statement scans, so neither a joined table nor one a subquery reads can be
 * missed by reading the SQL's text.
 */
export async function undeclaredReads(
  explain: Explain,
  statements: readonly Statement[],
  declared: readonly string[],
): Promise<string[]> {
  const read = new Set<string>();
  for (const s of statements) relationsOfPlan(await explain(s), read);
  const known = new Set(declared);
  return [...read].filter((t) => !known.has(t)).sort();
}

/**
 * A read check for the query cache (`makeServices`' `checkReads`): each kept read is run while its
 * statements are recorded, and fails when it read a table it did not declare, since a change to
 * that table would not drop its answer.
 */
export const declaredReadsCheck =
  (explain: Explain): ReadCheck =>
  async (key, tables, read) => {
    const { value, statements } = await recordStatements(read);
    const missing = await undeclaredReads(explain, statements, tables);
    if (missing.length) {
      throw new Error(
        `Kept read ${JSON.stringify(key)} read ${missing.join(', ')} but declared only ${tables.join(', ')}`,
      );
    }
    return value;
  };
