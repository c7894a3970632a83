import { listQuerySchema, type ParsedListQuery, VIEW_PERSONAL_DATA } from '@wfc/contract';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../../src/db/client.ts';
import { QueryCache } from '../../src/db/query-cache.ts';
import * as schema from '../../src/db/schema/index.ts';
import type { SessionContext } from '../../src/http/routes.ts';
import { listRecords } from '../../src/resources/read.ts';
import type { ServerResource } from '../../src/resources/server-resource.ts';
import { previousList } from './previous-list.ts';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/** A literal PostgreSQL reads back as the same value, for a script that cannot bind parameters. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/** The statement with its parameters written in, as pgbench will send it. */
export function inline(q: CapturedQuery): string {
  return q.sql.replace(/\$(\d+)/g, (_, n: string) => literal(q.params[Number(n) - 1]));
}

/** One list request: a list, or a sub-list of one parent, in the full or the selector view. */
export interface ListRequest {
  res: ServerResource;
  /** The query string the HTTP request carries. */
  query: Record<string, string>;
  /** A sub-list (`GetStatesByCountryCode`) and the parent's code its body names. */
  sub?: { endpoint: string; code: string };
  /** The selector view: a caller without the list's VIEW permission. */
  lookup?: boolean;
}

/** What a list request answers: its records and total. */
export interface ListAnswer {
  data: unknown[];
  total: number;
}

export function parseListQuery(req: ListRequest): ParsedListQuery {
  return listQuerySchema({
    flags: req.res.listFlags?.map((f) => f.param),
    filters: req.res.def.filters,
  }).parse(req.query);
}

function parentOf(req: ListRequest) {
  if (!req.sub) return undefined;
  const endpoint = req.sub.endpoint;
  const sub = req.res.parentFilters.find((f) => f.endpoint === endpoint);
  if (!sub) throw new Error(`${req.res.def.label} has no sub-list ${endpoint}`);
  return { where: sub.where(req.sub.code), key: { endpoint, code: req.sub.code }, sub };
}

/**
 * One list request's answer on `db`: the engine's own list function with the query string the
 * HTTP request would carry and a session that holds the list's view permission (none for the
 * selector view), or, with `previous`, the previous formulation. Nothing is cached.
 */
export async function answerList(db: Database, req: ListRequest, previous = false): Promise<ListAnswer> {
  const query = parseListQuery(req);
  const parent = parentOf(req);
  if (previous) {
    const { records, total } = await previousList(db, req.res, {
      query,
      lookup: req.lookup,
      parent: parent?.where,
    });
    return { data: records, total };
  }
  const ctx = {
    query,
    // Held for all records, personal details included: the lists as an unscoped caller sees them.
    session: {
      userCode: 'bench',
      permissions: new Set(req.lookup ? [] : [req.res.def.permissions.view, VIEW_PERSONAL_DATA]),
      scopes: new Map(),
    },
    services: { db, cache: new QueryCache(undefined) },
  } as unknown as SessionContext<unknown, ParsedListQuery>;
  const answer = await listRecords(req.res, ctx, parent);
  return { data: answer.data, total: answer.total };
}

/**
 * The SQL sent for one list request, and its answer (`answerList`), on a logging connection: so
 * whatever the engine does is what gets captured.
 */
export async function captureList(
  url: string,
  req: ListRequest,
  previous = false,
): Promise<{ statements: CapturedQuery[]; answer: ListAnswer }> {
  const statements: CapturedQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const db = drizzle(pool, {
      schema,
      logger: { logQuery: (sql, params) => statements.push({ sql, params }) },
    }) as unknown as Database;
    return { statements, answer: await answerList(db, req, previous) };
  } finally {
    await pool.end();
  }
}

/** The SQL the server sends for one list request (see `captureList`). */
export async function captureListSql(
  url: string,
  res: ServerResource,
  query: Record<string, string>,
): Promise<CapturedQuery[]> {
  return (await captureList(url, { res, query })).statements;
}
