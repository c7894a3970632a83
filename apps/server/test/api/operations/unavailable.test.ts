import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { type Config, testConfig } from '../../../src/config/config.ts';
import { APPLICATION_NAME, type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { rows } from '../../../src/seed/sql.ts';
import { makeServices, watchChanges } from '../../../src/services.ts';
import { serverDatabaseOptions } from '../../../src/start.ts';
import { scratchPgDatabase } from '../../support/db.ts';

/*
 * "The database is unavailable", every way a PostgreSQL server says it, made real: a test app's
 * pool on a database of its own, which is then closed to connections, dropped, or reached as a
 * role with no connection to spare or none at all. Each must answer 503 with Retry-After, which a
 * load balancer retries elsewhere, never a 500. The server's pool is opened as the server opens
 * it (serverDatabaseOptions): application name and statement timeout included.
 */

const base = process.env.DATABASE_URL;
const migrated = inject('migratedDatabase');
const template = migrated?.kind === 'postgres' ? migrated.template : undefined;

interface TestServer {
  app: FastifyInstance;
  handle: DbHandle;
  close(): Promise<void>;
}

async function serverOn(url: string, overrides: Partial<Config> = {}): Promise<TestServer> {
  const config = testConfig({ WEB_DIST: '/nonexistent/', DATABASE_URL: url, PG_POOL_SIZE: 2, ...overrides });
  const handle = await openDatabase(serverDatabaseOptions(config));
  const app = await buildApp(makeServices(handle.db, config, await watchChanges(handle)));
  return {
    app,
    handle,
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

/** A request that needs the database whoever sends it: a sign-in looks the user up. */
const signIn = (app: FastifyInstance) =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username: 'admin', password: 'not-the-password-1' }),
  });

async function expectUnavailable(app: FastifyInstance) {
  const res = await signIn(app);
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({ statusCode: 503, message: 'Service temporarily unavailable' });
  const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
  expect([ready.statusCode, ready.json().message]).toEqual([503, 'Database unavailable']);
}

/** What PostgreSQL itself says to a new connection: the SQLSTATE the test means to produce. */
async function refusal(url: string): Promise<{ code?: string; message: string }> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('select 1');
    return { message: 'connected' };
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base, application_name: 'wfc-test-admin' });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function scratch(prefix: string) {
  const db = await scratchPgDatabase(base!, prefix, template);
  cleanups.push(db.drop);
  return db;
}

describe('with nothing listening where DATABASE_URL points', () => {
  it('answers 503 with Retry-After (connection refused)', async () => {
    expect((await refusal('postgres://postgres@127.0.0.1:1/none')).code).toBe('ECONNREFUSED');
    const server = await serverOn('postgres://postgres@127.0.0.1:1/none');
    try {
      await expectUnavailable(server.app);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!base)('PostgreSQL refusing the server', () => {
  it('answers 503 with Retry-After when the database stops accepting connections (55000)', async () => {
    const db = await scratch('wfc_closed');
    const server = await serverOn(db.url);
    try {
      expect((await signIn(server.app)).statusCode).toBe(401);
      await admin(async (c) => {
        await c.query(`alter database ${db.name} allow_connections false`);
        await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [db.name]);
      });
      expect(await refusal(db.url)).toEqual({
        code: '55000',
        message: `database "${db.name}" is not currently accepting connections`,
      });
      await expectUnavailable(server.app);
      // And back, without a restart, as soon as the database accepts connections again.
      await admin((c) => c.query(`alter database ${db.name} allow_connections true`));
      expect((await signIn(server.app)).statusCode).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('answers 503 with Retry-After when its database is dropped (3D000)', async () => {
    const db = await scratch('wfc_dropped');
    const server = await serverOn(db.url);
    try {
      expect((await signIn(server.app)).statusCode).toBe(401);
      await db.drop();
      expect(await refusal(db.url)).toEqual({
        code: '3D000',
        message: `database "${db.name}" does not exist`,
      });
      await expectUnavailable(server.app);
    } finally {
      await server.close();
    }
  });

  it('answers 503 with Retry-After when its role has no connection to spare (53300)', async () => {
    const db = await scratch('wfc_crowded');
    const role = `wfc_limited_${randomBytes(4).toString('hex')}`;
    await admin((c) => c.query(`create role ${role} login connection limit 0`));
    cleanups.push(() => admin((c) => c.query(`drop role if exists ${role}`)).then(() => {}));
    const url = new URL(db.url);
    url.username = role;
    expect(await refusal(url.toString())).toEqual({
      code: '53300',
      message: `too many connections for role "${role}"`,
    });
    const server = await serverOn(url.toString());
    try {
      await expectUnavailable(server.app);
    } finally {
      await server.close();
    }
  });

  it('answers 503 with Retry-After when the server refuses the role (28000)', async () => {
    // A wrong password (28P01) needs password authentication; this server trusts local
    // connections, so the same class is produced by a role that does not exist.
    const db = await scratch('wfc_stranger');
    const url = new URL(db.url);
    url.username = `wfc_nobody_${randomBytes(4).toString('hex')}`;
    expect((await refusal(url.toString())).code).toBe('28000');
    const server = await serverOn(url.toString());
    try {
      await expectUnavailable(server.app);
    } finally {
      await server.close();
    }
  });

  it('answers 503 with Retry-After for a statement that outlives PG_STATEMENT_TIMEOUT_MS (57014)', async () => {
    const db = await scratch('wfc_slow');
    const server = await serverOn(db.url, { PG_STATEMENT_TIMEOUT_MS: 300 });
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table users in access exclusive mode');
      const started = performance.now();
      const res = await signIn(server.app);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      // Cancelled by PostgreSQL after the timeout, not after the 5 s wait for a connection.
      expect(performance.now() - started).toBeLessThan(4000);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
      await server.close();
    }
  });

  it('names itself on every connection and runs its statements under a 30 s statement timeout', async () => {
    const db = await scratch('wfc_named');
    const server = await serverOn(db.url);
    try {
      expect((await signIn(server.app)).statusCode).toBe(401);
      const [timeout] = await rows<{ statement_timeout: string }>(
        server.handle.db,
        sql`show statement_timeout`,
      );
      expect(timeout?.statement_timeout).toBe('30s');
      const names = await admin(async (c) =>
        (
          await c.query<{ application_name: string }>(
            'select application_name from pg_stat_activity where datname = $1',
            [db.name],
          )
        ).rows.map((r) => r.application_name),
      );
      // The pool's connection and the one listening for changes.
      expect(names.length).toBeGreaterThanOrEqual(2);
      expect(new Set(names)).toEqual(new Set([APPLICATION_NAME]));
    } finally {
      await server.close();
    }
  });
});
