import { listQuerySchema, type ParsedListQuery } from '@wfc/contract';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../../src/db/client.ts';
import { QueryCache } from '../../src/db/query-cache.ts';
import * as schema from '../../src/db/schema/index.ts';
import type { SessionContext } from '../../src/http/routes.ts';
import { listRecords } from '../../src/resources/engine.ts';
import type { ServerResource } from '../../src/resources/server-resource.ts';

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

/**
 * The SQL the server sends for one list request: the engine's own list function runs against a
 * logging connection, with the query string the HTTP request would carry and a session that
 * holds the list's view permission, so whatever the engine does is what gets captured.
 */
export async function captureListSql(
  url: string,
  res: ServerResource,
  query: Record<string, string>,
): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const db = drizzle(pool, {
      schema,
      logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
    }) as unknown as Database;
    const ctx = {
      query: listQuerySchema({
        flags: res.listFlags?.map((f) => f.param),
        filters: res.def.filters,
      }).parse(query),
      session: { permissions: new Set([res.def.permissions.view]) },
      services: { db, cache: new QueryCache(undefined) },
    } as unknown as SessionContext<unknown, ParsedListQuery>;
    await listRecords(res, ctx);
  } finally {
    await pool.end();
  }
  return captured;
}
