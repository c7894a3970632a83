import { AsyncLocalStorage } from 'node:async_hooks';
import { type Logger, type SQL, sql } from 'drizzle-orm';
import type { Executor } from './client.ts';
import type { CacheKey, ReadCheck } from './query-cache.ts';
import { firstRow } from './rows.ts';

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

/** A recorded statement with the plan PostgreSQL would run it with. */
interface Planned {
  statement: Statement;
  plan: unknown;
}

/**
 * The tables these plans read that `declared` does not name. The database itself says which
 * tables a statement scans, so neither a joined table nor one a subquery reads can be missed by
 * reading the SQL's text.
 */
function undeclaredReads(planned: readonly Planned[], declared: readonly string[]): string[] {
  const read = new Set<string>();
  for (const p of planned) relationsOfPlan(p.plan, read);
  const known = new Set(declared);
  return [...read].filter((t) => !known.has(t)).sort();
}

/**
 * A read check for the query cache (`makeServices`' `checkReads`): each kept read is run while its
 * statements are recorded, and fails when it read a table it did not declare, since a change to
 * that table would not drop its answer. With a scan rule, the reads it applies to (the lists) also
 * fail when a statement scanned many rows to keep few (`wastefulScans`): a keyword or filter that
 * no index serves, which only shows at volume.
 */
export const declaredReadsCheck =
  (explain: Explain, scans?: ScanRule): ReadCheck =>
  async (key, tables, read) => {
    const { value, statements } = await recordStatements(read);
    const planned: Planned[] = [];
    for (const statement of statements) planned.push({ statement, plan: await explain(statement) });
    const missing = undeclaredReads(planned, tables);
    if (missing.length) {
      throw new Error(
        `Kept read ${JSON.stringify(key)} read ${missing.join(', ')} but declared only ${tables.join(', ')}`,
      );
    }
    if (scans?.applies(key)) {
      const wasted = await wastefulReads(scans, planned);
      if (wasted.length) {
        throw new Error(`Kept read ${JSON.stringify(key)} scanned without an index:\n${wasted.join('\n')}`);
      }
    }
    return value;
  };

/**
 * A scan node of an executed plan that read far more rows than it kept: a table walked or scanned
 * for a condition that an index could have found.
 */
export interface WastefulScan {
  node: string;
  relation: string;
  /** Rows the node read over all its loops, and those its filter let through. */
  read: number;
  kept: number;
}

export interface ScanLimits {
  /** Rows a scan may discard before it counts: a few thousand are cheap in any plan. */
  maxDiscarded: number;
  /** A scan keeping at least this share of what it read is reading what it needs (no finding). */
  minKeptShare: number;
}

/** The read audit's default: no scan discards more than 5,000 rows while keeping under a tenth. */
export const SCAN_LIMITS: ScanLimits = { maxDiscarded: 5000, minKeptShare: 0.1 };

/** Nodes that read a whole table or index when they have no index condition. */
const SCAN_NODES = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan']);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/**
 * Pure: the scans of an `EXPLAIN (ANALYZE, FORMAT JSON)` plan, at any depth, that read a table
 * (a sequential scan) or an index (walked in its order, with no index condition) from end to end,
 * discarding more than `maxDiscarded` rows by their filter and keeping less than `minKeptShare`
 * of what they read. PostgreSQL reports a node's rows and removed rows per loop; both are
 * multiplied back up. A scan with an index condition reads only the range the condition selects,
 * and a bitmap scan only the rows its indexes found: neither is counted, whatever its filter or
 * recheck (a trigram index's) then discards.
 */
export function wastefulScans(plan: unknown, limits: ScanLimits = SCAN_LIMITS): WastefulScan[] {
  const found: WastefulScan[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const fields = new Map(Object.entries(node));
    const type = fields.get('Node Type');
    if (typeof type === 'string' && SCAN_NODES.has(type) && !fields.has('Index Cond')) {
      const loops = num(fields.get('Actual Loops'));
      const kept = num(fields.get('Actual Rows')) * loops;
      const discarded = num(fields.get('Rows Removed by Filter')) * loops;
      const read = kept + discarded;
      if (discarded > limits.maxDiscarded && kept < read * limits.minKeptShare) {
        found.push({ node: type, relation: String(fields.get('Relation Name') ?? '?'), read, kept });
      }
    }
    for (const v of fields.values()) if (typeof v === 'object') visit(v);
  };
  visit(plan);
  return found;
}

/** The largest estimated cost of any node of a plan (EXPLAIN without ANALYZE). */
export function costliestNode(plan: unknown): number {
  if (Array.isArray(plan)) return Math.max(0, ...plan.map(costliestNode));
  if (plan === null || typeof plan !== 'object') return 0;
  let max = 0;
  for (const [k, v] of Object.entries(plan)) {
    max = Math.max(max, k === 'Total Cost' ? num(v) : costliestNode(v));
  }
  return max;
}

/**
 * PostgreSQL's default `cpu_tuple_cost`: every row a scan reads adds at least this to its cost,
 * so a plan none of whose nodes costs `maxDiscarded` times this cannot read that many rows.
 */
const CPU_TUPLE_COST = 0.01;

export interface ScanRule {
  /** Runs a statement under `EXPLAIN (ANALYZE, FORMAT JSON)` (see `analyzeWith`). */
  analyze: Explain;
  limits?: ScanLimits;
  /** The kept reads the rule applies to, by key (the lists' pages, matches and totals). */
  applies: (key: CacheKey) => boolean;
}

/**
 * The plans of a kept read's statements, executed, against the scan rule. Only statements whose
 * estimated plan could read that many rows are run again under ANALYZE: on small tables (most
 * tests) the rule costs nothing beyond the plan the declared-tables check reads anyway.
 */
async function wastefulReads(rule: ScanRule, planned: readonly Planned[]): Promise<string[]> {
  const limits = rule.limits ?? SCAN_LIMITS;
  const findings: string[] = [];
  for (const { statement, plan } of planned) {
    if (costliestNode(plan) < limits.maxDiscarded * CPU_TUPLE_COST) continue;
    for (const w of wastefulScans(await rule.analyze(statement), limits)) {
      findings.push(
        `${w.node} on ${w.relation} read ${w.read} rows to keep ${w.kept} in: ${statement.sql.slice(0, 300)}`,
      );
    }
  }
  return findings;
}

/** The statement's text with its parameters bound again, as one SQL value. */
function bound(statement: Statement): SQL {
  const pieces = statement.sql.split(/\$(\d+)/);
  return sql.join(
    pieces.map((piece, i) => (i % 2 ? sql`${statement.params[Number(piece) - 1]}` : sql.raw(piece))),
  );
}

/**
 * `EXPLAIN (ANALYZE, FORMAT JSON)` of a recorded statement, on either database. It runs outside
 * any recording: a kept read checked inside another (a list's total) must not add its EXPLAIN to
 * the statements of the read around it.
 */
export const analyzeWith =
  (db: Executor): Explain =>
  (statement) =>
    scope.exit(async () => {
      const row = await firstRow<Record<string, unknown>>(
        db,
        sql`explain (analyze, format json) ${bound(statement)}`,
      );
      return row?.['QUERY PLAN'];
    });
