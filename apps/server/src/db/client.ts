import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type ExecProtocolOptions, PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { DEFAULT_PG_POOL_SIZE } from '../config/config.ts';
import { serveBackups } from './backup-channel.ts';
import type { ChannelHandlers } from './changes.ts';
import { dumpEmbedded } from './embedded-dump.ts';
import { takeDataDir } from './embedded-init.ts';
import { type Explain, statementRecorder } from './read-audit.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Tx;

export interface DbHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Listens to a NOTIFY channel on a connection of its own, reconnecting after a loss; resolves
   * once listening or, if the first attempt failed, once it is retrying.
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<{ close(): Promise<void> }>;
  /** The plan of a statement: how tests check which tables a kept read depends on. */
  explain: Explain;
  close(): Promise<void>;
}

const EXPLAIN = 'explain (format json) ';
const planOf = (rows: Record<string, unknown>[]) => rows[0]?.['QUERY PLAN'];

/**
 * Every connection to PostgreSQL says whose it is (pg_stat_activity, the server's log). As with
 * libpq's fallback_application_name, an `application_name` in DATABASE_URL or PGAPPNAME wins.
 */
export const APPLICATION_NAME = 'workforce-console';

export interface DbOptions {
  databaseUrl?: string;
  /** PGlite data directory; 'memory://' for a throw-away database. */
  dataDir: string;
  /** The embedded database's starting content: a data-directory tarball, as its backups hold. */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL's statement_timeout for every connection of the pool (the server's, from
   * PG_STATEMENT_TIMEOUT_MS); unset or 0, none is set. Commands run without one.
   */
  statementTimeoutMs?: number;
  /** The server's: answer `npm run db:backup` while it has the embedded database open. */
  serveBackups?: boolean;
  /** Told when an embedded database of an older PGlite was converted on opening it. */
  notice?: (message: string) => void;
}

/**
 * PGlite runs each statement synchronously on this thread, and its promises settle without the
 * event loop turning in between: a run of statements (the migrations, loading demo data) would
 * leave every request, health probes included, unanswered until its very end. One turn of the
 * event loop before each protocol message answers them in between.
 */
class YieldingPGlite extends PGlite {
  override async execProtocolRaw(message: Uint8Array, options?: ExecProtocolOptions): Promise<Uint8Array> {
    await yieldToEventLoop();
    return super.execProtocolRaw(message, options);
  }
}

/** The embedded database (PGlite) with the extensions the migrations use. */
export async function openEmbedded(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  const client = new YieldingPGlite({
    dataDir: dataDir === 'memory://' ? undefined : dataDir,
    extensions: { pg_trgm },
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await client.waitReady;
  return client;
}

export async function openDatabase(opts: DbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? DEFAULT_PG_POOL_SIZE,
      // Fail fast when the server is gone rather than queue requests forever.
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      fallback_application_name: APPLICATION_NAME,
      // The console's statements are short; compiling one costs 0.1-0.2 s, and a statement over a
      // table filled in the same transaction (an import's), judged by the statistics of before,
      // looks costly enough to be compiled (docs/architecture.md, "Imports").
      options: '-c jit=off',
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    });
    // A dropped connection must not crash the process; the next query reconnects. The pool
    // listens only to idle clients: one checked out by a request (between two statements of a
    // transaction) emits the error on itself, and an 'error' event nobody listens to kills the
    // process. Its request then fails on its next statement, as a 503, and the pool drops it.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema, logger: statementRecorder }) as unknown as Database;
    const url = opts.databaseUrl;
    return {
      db,
      kind: 'postgres',
      listen: (ch, h) => listenOnServer(url, ch, h),
      explain: async (s) => planOf((await pool.query(EXPLAIN + s.sql, s.params)).rows),
      close: () => pool.end(),
    };
  }
  // One process at a time: a second one would corrupt it (db/data-dir-lock.ts).
  const lock = await takeDataDir(opts.dataDir, !opts.loadDataDir, opts.notice);
  const client = await openEmbedded(opts.dataDir, opts.loadDataDir).catch(async (err: unknown) => {
    await lock?.release();
    throw err;
  });
  const backups =
    lock && opts.serveBackups ? await serveBackups(opts.dataDir, () => dumpEmbedded(client)) : undefined;
  const db = drizzlePglite(client, { schema, logger: statementRecorder }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    explain: async (s) =>
      planOf((await client.query<Record<string, unknown>>(EXPLAIN + s.sql, s.params)).rows),
    async listen(channel, handlers) {
      // One process owns the embedded database, so this channel never drops.
      const stop = await client.listen(channel, (payload) => handlers.message(payload));
      handlers.listening();
      return {
        async close() {
          if (!client.closed) await stop();
        },
      };
    },
    async close() {
      await backups?.close();
      try {
        await client.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

const RELISTEN_MS = 1000;

async function listenOnServer(url: string, channel: string, h: ChannelHandlers) {
  let closed = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (!closed) timer = setTimeout(() => void connect(), RELISTEN_MS);
  };
  async function connect() {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      fallback_application_name: APPLICATION_NAME,
    });
    const drop = () => {
      if (current !== c) return;
      current = undefined;
      h.lost();
      c.end().catch(() => {});
      retry();
    };
    c.on('notification', (n) => {
      if (n.channel === channel) h.message(n.payload ?? '');
    });
    c.on('error', drop);
    c.on('end', drop);
    try {
      await c.connect();
      await c.query(`listen ${c.escapeIdentifier(channel)}`);
    } catch {
      c.end().catch(() => {});
      retry();
      return;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    current = c;
    h.listening();
  }
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = current;
      current = undefined;
      await c?.end().catch(() => {});
    },
  };
}
