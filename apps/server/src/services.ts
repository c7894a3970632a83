import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { SessionPolicy } from './auth/sessions.ts';
import type { ThrottlePolicy } from './auth/throttle.ts';
import type { Config } from './config/config.ts';
import { CHANGES_CHANNEL, TableVersions } from './db/changes.ts';
import type { Database, DbHandle } from './db/client.ts';
import { QueryCache, type ReadCheck } from './db/query-cache.ts';
import { Metrics, type PoolUse } from './http/metrics.ts';
import { Startup } from './operations/starting.ts';
import { RETENTION_KIND_NAMES } from './personal-data/retention.ts';

/** What handlers get besides the request: built once per app. */
export interface Services {
  db: Database;
  config: Config;
  sessionPolicy: SessionPolicy;
  throttlePolicy: ThrottlePolicy;
  /** Reads reused until a table they read changes; reads afresh when changes cannot be seen. */
  cache: QueryCache;
  /** Session lookups reused until a table they read changes, whatever QUERY_CACHE_MB says. */
  sessions: QueryCache;
  /** Counts for `/api/metrics`: requests, sign-ins, and what it reads from the cache and the pool. */
  metrics: Metrics;
  /** Whether the database is ready yet: until it is, requests meet the starting gate. */
  startup: Startup;
  /** After a write: waits until this instance has seen every change committed so far. */
  settle(): Promise<void>;
  /** Stops watching for changes (the app's onClose). */
  stop(): Promise<void>;
}

export interface ChangeWatch {
  versions: TableVersions;
  stop(): Promise<void>;
}

/** Listens for the tables' change notifications on the handle's own connection. */
export async function watchChanges(handle: DbHandle): Promise<ChangeWatch> {
  const versions = new TableVersions();
  const subscription = await handle.listen(CHANGES_CHANNEL, versions);
  return { versions, stop: () => subscription.close() };
}

export interface ServiceOptions {
  /** Runs around every kept read: tests check there that it declared every table it read. */
  checkReads?: ReadCheck;
  /** The server's, while it prepares the database after listening; by default, ready. */
  startup?: Startup;
}

/** The PostgreSQL pool's use, read when metrics are scraped; the embedded database has no pool. */
function poolUse(db: Database): (() => PoolUse) | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return undefined;
  return () => ({
    total: client.totalCount,
    idle: client.idleCount,
    waiting: client.waitingCount,
    max: client.options.max,
  });
}

/** Room for the lookups of about 5,000 sessions (a role with every permission: about 3 KB each). */
const SESSION_CACHE_BYTES = 16 * 1024 * 1024;

/** Without a change watch nothing is cached: every read goes to the database. */
export function makeServices(
  db: Database,
  config: Config,
  changes?: ChangeWatch,
  options: ServiceOptions = {},
): Services {
  const versions = changes?.versions;
  const cache = new QueryCache(
    config.QUERY_CACHE_MB > 0 ? versions : undefined,
    config.QUERY_CACHE_MB * 1024 * 1024,
    options.checkReads,
  );
  const sessions = new QueryCache(versions, SESSION_CACHE_BYTES);
  return {
    db,
    config,
    sessionPolicy: {
      idleMs: config.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
    },
    throttlePolicy: {
      maxPerUser: config.LOGIN_MAX_FAILURES_PER_USER,
      maxPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
      maxPerAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowMs: config.LOGIN_THROTTLE_MINUTES * 60_000,
    },
    cache,
    sessions,
    metrics: new Metrics({
      cache: () => ({ ...cache.stats, bytes: cache.size }),
      sessions: () => sessions.stats,
      pool: poolUse(db),
      retentionKinds: RETENTION_KIND_NAMES,
    }),
    startup: options.startup ?? new Startup(),
    settle: async () => {
      await versions?.settle((token) => db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${token})`));
    },
    stop: async () => {
      await changes?.stop();
    },
  };
}
