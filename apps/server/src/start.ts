import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { adminCreatedMessage, bootstrap } from './bootstrap.ts';
import type { Config } from './config/config.ts';
import type { Database, DbHandle, DbOptions } from './db/client.ts';
import { migrate, pendingMigrations, shippedMigrations } from './db/migrate.ts';
import { databaseUnavailable } from './db/unavailable.ts';
import { pgError } from './http/errors.ts';
import type { Startup } from './operations/starting.ts';
import { loadDemoIfWanted } from './seed/demo-start.ts';

/*
 * What the server does between listening and serving (migrations, the administrator, demo data),
 * and what it says when it cannot start: one line naming what is wrong and what to set.
 */

/**
 * How the server opens its database: with the statement timeout for its requests, which the
 * commands (migrations, backups, demo data, the benchmark) open theirs without.
 */
export const serverDatabaseOptions = (config: Config): DbOptions => ({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.PG_POOL_SIZE,
  statementTimeoutMs: config.PG_STATEMENT_TIMEOUT_MS,
});

/** A start that cannot go on, for a reason the operator can fix: said in one line, exit code 1. */
export class StartError extends Error {}

/** Where a start failed: opening the port, or preparing the database. */
export type StartStage = 'listen' | 'database';

const line = (what: string, fix: string) => `Cannot start: ${what} — ${fix}`;

/** Pure: the server, database and user DATABASE_URL names, without its password. */
function databaseTarget(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username);
  return {
    server: url.searchParams.get('host') ?? `${url.hostname || 'localhost'}:${url.port || '5432'}`,
    // PostgreSQL's default database is the user's name.
    database: decodeURIComponent(url.pathname.slice(1)) || user,
    user,
  };
}

/** The first message and code in an error or its causes (Drizzle wraps the driver's). */
function innermost(err: unknown): { code?: string; message: string } {
  let e: unknown = err;
  let found: { code?: string; message: string } = { message: String(err) };
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof message === 'string') found = { code: typeof code === 'string' ? code : found.code, message };
    if (typeof code === 'string') return found;
    e = (e as { cause?: unknown }).cause;
  }
  return found;
}

function listenFailure(code: string | undefined, config: Pick<Config, 'HOST' | 'PORT'>) {
  const hosts = 'set HOST to an address of this machine: 127.0.0.1 for it alone, 0.0.0.0 for every interface';
  switch (code) {
    case 'EADDRINUSE':
      return line(
        `port ${config.PORT} on ${config.HOST} is in use by another process`,
        'stop that process, or set PORT to a free port',
      );
    case 'EACCES':
      return line(
        `port ${config.PORT} needs privileges this process does not have`,
        'set PORT to 1024 or above and let a reverse proxy take the low port',
      );
    case 'EADDRNOTAVAIL':
    case 'EAFNOSUPPORT':
      return line(`HOST=${config.HOST} is not an address of this machine`, hosts);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return line(`HOST=${config.HOST} does not resolve to an address (${code})`, hosts);
    default:
      return undefined;
  }
}

function databaseFailure(err: unknown, databaseUrl: string) {
  const kind = databaseUnavailable(err);
  if (!kind) return undefined;
  const { server, database, user } = databaseTarget(databaseUrl);
  const { code, message } = innermost(err);
  switch (kind) {
    case 'refused':
      return line(
        `nothing accepts connections at ${server} (DATABASE_URL)`,
        'start PostgreSQL there, or set DATABASE_URL to the server that runs it',
      );
    case 'unreachable':
      return line(
        `the database server ${server} of DATABASE_URL cannot be reached (${code ?? message})`,
        'set DATABASE_URL to a server this machine can reach',
      );
    case 'no database':
      return line(
        `the database "${database}" does not exist on ${server}`,
        `create it (createdb ${database}), or set DATABASE_URL to an existing database`,
      );
    case 'authentication':
      return line(
        `PostgreSQL at ${server} refused the user "${user}": ${message}`,
        'set the user and password in DATABASE_URL to a role that may connect',
      );
    case 'too many connections':
      return line(
        `PostgreSQL at ${server} has no connection to spare: ${message}`,
        "lower PG_POOL_SIZE, or raise max_connections or the role's or database's CONNECTION LIMIT",
      );
    case 'not accepting connections':
      return line(
        `the database "${database}" on ${server} does not accept connections`,
        `ALTER DATABASE ${database} ALLOW_CONNECTIONS true, or set DATABASE_URL to another database`,
      );
    default:
      return line(
        `the database server ${server} stopped the server's work: ${message}`,
        'start again once PostgreSQL is up and running',
      );
  }
}

/**
 * Pure: the one line to print for a failure at start, or undefined for one that is not the
 * operator's to fix (a defect, shown with its stack).
 */
export function startFailure(
  err: unknown,
  stage: StartStage,
  config: Pick<Config, 'HOST' | 'PORT' | 'DATABASE_URL'>,
): string | undefined {
  if (err instanceof StartError) return err.message;
  if (stage === 'listen') return listenFailure(innermost(err).code, config);
  return config.DATABASE_URL ? databaseFailure(err, config.DATABASE_URL) : undefined;
}

/**
 * The one line for a WEB_DIST that was set but holds no readable web app; nothing when it is unset
 * (an API-only server, or the console's own build) or readable.
 */
export function webDistProblem(webDist: string | undefined): string | undefined {
  if (webDist === undefined) return undefined;
  try {
    accessSync(join(webDist, 'index.html'), constants.R_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return line(
      `WEB_DIST=${webDist} holds no readable index.html (${code})`,
      'set WEB_DIST to the built web app (npm run build makes apps/web/dist), or unset it to serve the console’s own',
    );
  }
}

const LOG_SHOWS_WARNINGS = ['trace', 'debug', 'info', 'warn'];

/** Every migration this build carries, when the database has none applied yet. */
async function pendingOrAll(db: Database): Promise<string[]> {
  try {
    return await pendingMigrations(db);
  } catch (err) {
    // 42P01: no schema_migrations, a database never migrated.
    if (pgError(err)?.code !== '42P01') throw err;
    return [...(await shippedMigrations())];
  }
}

async function migrateLogged(db: Database, startup: Startup, log: FastifyBaseLogger) {
  startup.set('migrating the database');
  const started = performance.now();
  const applied = await migrate(db, {
    onApplied: (tag, ms) =>
      log.info({ migration: tag, ms: Math.round(ms) }, `Migration ${tag} applied in ${Math.round(ms)} ms`),
  });
  const carried = (await shippedMigrations()).length;
  if (applied.length === 0) log.info(`Database is up to date (${carried} migrations)`);
  else {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log.info(`Database migrated: ${applied.length} of ${carried} migrations applied in ${seconds} s`);
  }
}

/**
 * MIGRATE_ON_START=false: another role migrates (npm run db:migrate), so the server waits, not
 * ready, until nothing is pending, saying which migrations it waits for. The embedded database
 * cannot be migrated by another process while the server holds it, so there it stops instead.
 */
export async function waitForMigrations(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  startup: Startup,
  log: FastifyBaseLogger,
  pollMs = 5000,
) {
  let said = '';
  for (;;) {
    const pending = await pendingOrAll(handle.db);
    if (pending.length === 0) return;
    const what = `${pending.length} pending (${pending.join(', ')})`;
    if (handle.kind === 'pglite') {
      throw new StartError(
        line(
          `the embedded database lacks migrations, ${what}, and MIGRATE_ON_START is false`,
          'stop the server and run npm run db:migrate, or set MIGRATE_ON_START=true',
        ),
      );
    }
    startup.set(`waiting for the database to be migrated: ${what}`);
    if (what !== said) {
      log.warn(
        `Waiting for the database to be migrated: ${what}. MIGRATE_ON_START is false: run npm run db:migrate (node apps/server/dist/migrate.js in an installation)`,
      );
      said = what;
    }
    await sleep(pollMs);
  }
}

/**
 * After the server listens: migrations (or waiting for them), the permission catalogue and
 * `admin`, demo data when wanted; then the starting gate opens.
 */
export async function prepareDatabase(
  handle: DbHandle,
  config: Config,
  startup: Startup,
  log: FastifyBaseLogger,
) {
  if (config.MIGRATE_ON_START) await migrateLogged(handle.db, startup, log);
  else await waitForMigrations(handle, startup, log);
  startup.set('setting up the permissions and the administrator');
  const boot = await bootstrap(handle.db, config.ADMIN_PASSWORD);
  const created = adminCreatedMessage(boot);
  // Shown once, whatever LOG_LEVEL says: it is the only way in.
  if (created && LOG_SHOWS_WARNINGS.includes(config.LOG_LEVEL)) log.warn(created);
  else if (created) console.log(created);
  await loadDemoIfWanted(handle, config, boot.createdAdmin, log, startup);
  startup.ready();
  log.info('Ready: serving requests');
}
