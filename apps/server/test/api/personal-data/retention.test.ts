import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../../src/bootstrap.ts';
import { type Config, testConfig } from '../../../src/config/config.ts';
import { type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { Metrics } from '../../../src/http/metrics.ts';
import { type JobDeps, startJobs } from '../../../src/jobs/queue.ts';
import {
  purgeExpired,
  RETENTION_KIND_NAMES,
  runRetentionPurge,
} from '../../../src/personal-data/retention.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { freshDatabase } from '../../support/db.ts';

/**
 * The retention purge removes exactly what is past each kind's retention: rows planted a minute
 * either side of every cutoff, and only those a minute before it go. It counts them in one audit
 * entry and in the metrics, runs from the job queue on either database, and runs once when two
 * instances share a PostgreSQL database.
 */

const t = sharedTestApp();
const MINUTE = 60_000;
const DAY = 86_400_000;
const quiet = { info() {}, error() {} };

type Database = DbHandle['db'];

/** A marker in each planted row: what stays is read back by it. */
interface Planted {
  table: string;
  name: string;
  /** Past retention: the purge must take it. */
  expired: boolean;
}

async function adminCode(db: Database): Promise<string> {
  const [row] = await rowsOf<{ userCode: string }>(
    db,
    sql`select user_code as "userCode" from users where username = 'admin'`,
  );
  if (!row) throw new Error('no admin');
  return row.userCode;
}

/**
 * Rows a minute before and a minute after each kind's cutoff at `now`, with the settings `config`
 * holds, and a few the purge must leave whatever their age. Their markers (`ret-...`) say which.
 */
async function plant(db: Database, config: Config, now: Date, tag: string): Promise<Planted[]> {
  const planted: Planted[] = [];
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const cutoff = (days: number) => days * DAY;
  const user = await adminCode(db);

  const audit = async (action: string, ageMs: number, expired: boolean) => {
    const name = `ret-${tag}-audit-${action}-${expired ? 'old' : 'new'}-${planted.length}`;
    await db.execute(sql`insert into audits (audit_code, action, collection, record_code, created_at)
      values (${name}, ${action}, 'auth', ${name}, ${at(ageMs)}::timestamptz)`);
    planted.push({ table: 'audits', name, expired });
  };
  const audited = cutoff(config.RETENTION_AUDIT_DAYS);
  const signIns = cutoff(config.RETENTION_SIGN_IN_DAYS);
  await audit('UPDATE', audited + MINUTE, true);
  await audit('UPDATE', audited - MINUTE, false);
  await audit('PERSONAL_DATA_EXPORTED', audited + MINUTE, true);
  // Past both settings, but an erasure's entry is never purged.
  await audit('ERASURE', audited + 30 * DAY, false);
  await audit('LOGIN_FAILED', signIns + MINUTE, true);
  await audit('LOGIN_FAILED', signIns - MINUTE, false);
  await audit('ACCESS_DENIED', signIns + MINUTE, true);
  await audit('LOGIN', signIns + MINUTE, true);
  // Older than the sign-in events' days, younger than the audit log's: an account event, kept.
  await audit('PASSWORD_CHANGED', signIns + DAY, false);

  const idle = config.SESSION_IDLE_MINUTES * MINUTE;
  const absolute = config.SESSION_ABSOLUTE_HOURS * 3_600_000;
  const sessionsCut = cutoff(config.RETENTION_SESSION_DAYS);
  const session = async (createdAgo: number, lastSeenAgo: number, expired: boolean) => {
    const name = `ret-${tag}-session-${planted.length}`;
    await db.execute(sql`insert into sessions (id_hash, session_code, user_code, created_at, last_seen_at, expires_at)
      values (${name}, ${name}, ${user}, ${at(createdAgo)}::timestamptz, ${at(lastSeenAgo)}::timestamptz,
        ${at(createdAgo - absolute)}::timestamptz)`);
    planted.push({ table: 'sessions', name, expired });
  };
  // Ended by idleness a minute before the cutoff, and a minute after it.
  await session(sessionsCut + idle + 2 * 3_600_000, sessionsCut + idle + MINUTE, true);
  await session(sessionsCut + idle + 2 * 3_600_000, sessionsCut + idle - MINUTE, false);
  // Ended by the absolute lifetime, though seen until its last minute.
  await session(sessionsCut + absolute + MINUTE, sessionsCut + 2 * MINUTE, true);
  await session(sessionsCut + absolute - MINUTE, sessionsCut, false);
  // Alive.
  await session(MINUTE, 0, false);

  const challenge = async (expiredAgo: number, expired: boolean) => {
    const name = `ret-${tag}-mfa-${planted.length}`;
    await db.execute(sql`insert into mfa_challenges (id_hash, user_code, expires_at)
      values (${name}, ${user}, ${at(expiredAgo)}::timestamptz)`);
    planted.push({ table: 'mfa_challenges', name, expired });
  };
  await challenge(sessionsCut + MINUTE, true);
  await challenge(sessionsCut - MINUTE, false);
  const ssoLogin = async (expiredAgo: number, expired: boolean) => {
    const name = `ret-${tag}-sso-${planted.length}`;
    await db.execute(sql`insert into oidc_logins (id_hash, state, nonce, code_verifier, return_to, expires_at)
      values (${name}, 's', 'n', 'v', '/', ${at(expiredAgo)}::timestamptz)`);
    planted.push({ table: 'oidc_logins', name, expired });
  };
  await ssoLogin(sessionsCut + MINUTE, true);
  await ssoLogin(sessionsCut - MINUTE, false);

  const window = config.LOGIN_THROTTLE_MINUTES * MINUTE;
  const throttleCut = cutoff(config.RETENTION_THROTTLE_DAYS);
  const known = 30 * DAY;
  const throttle = async (
    lastAttemptAgo: number,
    blockedUntilAgo: number | null,
    signedInAgo: number | null,
    expired: boolean,
  ) => {
    const name = `ret-${tag}-throttle-${planted.length}`;
    await db.execute(sql`insert into login_throttle (key, max_attempts, attempts, last_attempt_at, blocked_until, signed_in_at)
      values (${name}, 5, 3, ${at(lastAttemptAgo)}::timestamptz,
        ${blockedUntilAgo === null ? null : at(blockedUntilAgo)}::timestamptz,
        ${signedInAgo === null ? null : at(signedInAgo)}::timestamptz)`);
    planted.push({ table: 'login_throttle', name, expired });
  };
  await throttle(throttleCut + window + MINUTE, null, null, true);
  await throttle(throttleCut + window - MINUTE, null, null, false);
  // Blocked until later than the last attempt: the window counts from the block's end.
  await throttle(throttleCut + window + DAY, throttleCut + window - MINUTE, null, false);
  await throttle(throttleCut + window + DAY, throttleCut + window + MINUTE, null, true);
  // A sign-in keeps the address known for the account for 30 days.
  await throttle(throttleCut + window + DAY, null, throttleCut + known - MINUTE, false);
  await throttle(throttleCut + window + DAY, null, throttleCut + known + MINUTE, true);

  const binCut = cutoff(config.RECYCLE_BIN_DAYS);
  const binned = async (deletedAgo: number, expired: boolean) => {
    const name = `ret-${tag}-bin-${planted.length}`;
    await db.execute(sql`insert into deleted_records (collection, record_code, name, record, rows, deleted_at)
      values ('departments', ${name}, ${name}, '{}'::jsonb, '{}'::jsonb, ${at(deletedAgo)}::timestamptz)`);
    planted.push({ table: 'deleted_records', name, expired });
  };
  await binned(binCut + MINUTE, true);
  await binned(binCut - MINUTE, false);

  const webhookCut = cutoff(config.RETENTION_WEBHOOK_DAYS);
  const webhookEvent = async (createdAgo: number, expired: boolean) => {
    const name = `ret-${tag}-webhook-${planted.length}`;
    await db.execute(sql`insert into webhook_events (event_id, type, payload, created_at)
      values (${name}, 'employee.created', '{}'::jsonb, ${at(createdAgo)}::timestamptz)`);
    planted.push({ table: 'webhook_events', name, expired });
  };
  await webhookEvent(webhookCut + MINUTE, true);
  await webhookEvent(webhookCut - MINUTE, false);

  const importCut = cutoff(config.RETENTION_IMPORT_DAYS);
  const importRow = async (changedAgo: number, expired: boolean) => {
    const name = `ret-${tag}-import-${planted.length}`;
    await db.execute(sql`insert into imports (import_code, module, mode, file_name, format, status, updated_at)
      values (${name}, 'employee', 'upsert', 'people.csv', 'csv', 'committed', ${at(changedAgo)}::timestamptz)`);
    planted.push({ table: 'imports', name, expired });
  };
  await importRow(importCut + MINUTE, true);
  await importRow(importCut - MINUTE, false);
  return planted;
}

const MARKER: Record<string, string> = {
  audits: 'audit_code',
  sessions: 'id_hash',
  mfa_challenges: 'id_hash',
  oidc_logins: 'id_hash',
  login_throttle: 'key',
  deleted_records: 'record_code',
  webhook_events: 'event_id',
  imports: 'import_code',
};

/** The planted rows still there, by marker. */
async function remaining(db: Database, tag: string): Promise<string[]> {
  const names: string[] = [];
  for (const [table, column] of Object.entries(MARKER)) {
    const rows = await rowsOf<{ name: string }>(
      db,
      sql`select ${sql.identifier(column)} as name from ${sql.identifier(table)}
          where ${sql.identifier(column)} like ${`ret-${tag}-%`}`,
    );
    names.push(...rows.map((r) => r.name));
  }
  return names.sort();
}

/** Every row of the tables the purge reads, but the planted ones: the purge must leave them. */
async function unplantedCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, column] of Object.entries(MARKER)) {
    const ownEntry = table === 'audits' ? sql` and action <> 'RETENTION_PURGE'` : sql``;
    const [row] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${sql.identifier(table)}
          where ${sql.identifier(column)} not like 'ret-%'${ownEntry}`,
    );
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

const purgeEntries = (db: Database) =>
  rowsOf<{ after: { purged: Record<string, number>; total: number; days: Record<string, number> } }>(
    db,
    sql`select after, collection, user_code as "userCode" from audits where action = 'RETENTION_PURGE' order by id`,
  );

const expectedCounts = (planted: Planted[]) => ({
  audit: planted.filter((p) => p.expired && p.table === 'audits' && /-(UPDATE|PERSONAL_DATA)/.test(p.name))
    .length,
  sign_in_events: planted.filter((p) => p.expired && p.table === 'audits' && /-(LOGIN|ACCESS)/.test(p.name))
    .length,
  sessions: planted.filter((p) => p.expired && p.table === 'sessions').length,
  mfa_challenges: planted.filter((p) => p.expired && p.table === 'mfa_challenges').length,
  sso_logins: planted.filter((p) => p.expired && p.table === 'oidc_logins').length,
  login_throttle: planted.filter((p) => p.expired && p.table === 'login_throttle').length,
  recycle_bin: planted.filter((p) => p.expired && p.table === 'deleted_records').length,
  webhook_events: planted.filter((p) => p.expired && p.table === 'webhook_events').length,
  imports: planted.filter((p) => p.expired && p.table === 'imports').length,
});

describe('the retention purge', () => {
  it('removes exactly the rows past their retention, counts them in one audit entry and the metrics', async () => {
    const { db } = t.handle;
    const config = t.services.config;
    const now = new Date();
    const before = await unplantedCounts(db);
    const planted = await plant(db, config, now, 'exact');

    const run = await runRetentionPurge({ db, config, metrics: t.services.metrics }, { now });

    const expected = expectedCounts(planted);
    expect(run).toEqual({ purged: expected, audited: true });
    expect(Object.values(expected).every((n) => n > 0)).toBe(true);
    expect(await remaining(db, 'exact')).toEqual(
      planted
        .filter((p) => !p.expired)
        .map((p) => p.name)
        .sort(),
    );
    expect(await unplantedCounts(db)).toEqual(before);

    const entries = await rowsOf<{ after: unknown; collection: string; userCode: string | null }>(
      db,
      sql`select after, collection, user_code as "userCode" from audits where action = 'RETENTION_PURGE'`,
    );
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    expect(entries).toEqual([
      {
        collection: 'retention',
        userCode: null,
        after: {
          purged: expected,
          total,
          days: {
            audit: 730,
            sign_in_events: 90,
            sessions: 30,
            mfa_challenges: 30,
            sso_logins: 30,
            login_throttle: 1,
            recycle_bin: 30,
            webhook_events: 30,
            imports: 30,
          },
        },
      },
    ]);

    // The audit log lists it under its own action and module.
    const listed = await t.get('GetAudits', await t.login(), {
      action: 'RETENTION_PURGE',
      collection: 'retention',
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1 });

    const { body } = await t.services.metrics.text();
    for (const [kind, n] of Object.entries(expected)) {
      expect(body).toContain(`wfc_retention_purged_rows_total{kind="${kind}"} ${n}`);
    }

    // Nothing left past retention: no rows go, and no entry is written.
    const again = await runRetentionPurge({ db, config, metrics: t.services.metrics }, { now });
    expect(again.audited).toBe(false);
    expect(Object.values(again.purged).every((n) => n === 0)).toBe(true);
    expect(await purgeEntries(db)).toHaveLength(1);
    await db.execute(sql`delete from audits where action = 'RETENTION_PURGE'`);
  });

  it('deletes in batches until nothing past retention is left, and keeps a kind set to 0 forever', async () => {
    const { db } = t.handle;
    const config = t.services.config;
    const now = new Date();
    for (let i = 0; i < 7; i++) {
      await db.execute(sql`insert into audits (audit_code, action, collection, created_at)
        values (${`ret-batch-${i}`}, 'UPDATE', 'roles', ${new Date(now.getTime() - 800 * DAY).toISOString()}::timestamptz)`);
    }
    const kept = await purgeExpired(db, { ...config, RETENTION_AUDIT_DAYS: 0 }, { now, batchRows: 3 });
    expect(kept.audit).toBeUndefined();
    expect(await remaining(db, 'batch')).toHaveLength(7);

    // Walked by key: expired and live rows interleaved, the batches go on from the last key.
    for (let i = 0; i < 10; i++) {
      const live = i % 3 === 0;
      const ago = live ? 0 : 3 * DAY;
      await db.execute(sql`insert into login_throttle (key, max_attempts, attempts, last_attempt_at)
        values (${`ret-batch-throttle-${i}`}, 5, 1, ${new Date(now.getTime() - ago).toISOString()}::timestamptz)`);
    }

    const purged = await purgeExpired(db, config, { now, batchRows: 3 });
    expect(purged.audit).toBe(7);
    expect(purged.login_throttle).toBe(6);
    expect(await remaining(db, 'batch')).toEqual([
      'ret-batch-throttle-0',
      'ret-batch-throttle-3',
      'ret-batch-throttle-6',
      'ret-batch-throttle-9',
    ]);
    await db.execute(sql`delete from login_throttle where key like 'ret-batch-%'`);
  });

  it('stops between two batches when told to', async () => {
    const { db } = t.handle;
    const stop = new AbortController();
    stop.abort();
    await expect(purgeExpired(db, t.services.config, { signal: stop.signal })).rejects.toThrow();
  });

  it('runs as a scheduled job of the queue on this database', async () => {
    const { db } = t.handle;
    const config = t.services.config;
    const planted = await plant(db, config, new Date(), 'queued');
    const metrics = new Metrics({
      cache: () => ({ hits: 0, misses: 0, bytes: 0 }),
      sessions: () => ({ hits: 0, misses: 0 }),
      retentionKinds: RETENTION_KIND_NAMES,
    });
    const runs: string[] = [];
    const queue = await startJobs(
      { db, config, metrics, log: quiet },
      // Every second, so that the test need not wait for the night.
      {
        databaseUrl: t.handle.url,
        purgeCron: '* * * * * *',
        cronSeconds: 1,
        pollSeconds: 0.5,
        onRun: (r) => runs.push(r.jobId),
      },
    );
    try {
      await expect.poll(() => runs.length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    } finally {
      await queue.stop();
    }
    expect(await remaining(db, 'queued')).toEqual(
      planted
        .filter((p) => !p.expired)
        .map((p) => p.name)
        .sort(),
    );
    const entries = await purgeEntries(db);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.after.purged).toEqual(expectedCounts(planted));
    await db.execute(sql`delete from audits where action = 'RETENTION_PURGE'`);
  });
});

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database (needs DATABASE_URL)', () => {
  let shared: DbHandle & { url?: string };
  let second: DbHandle;

  beforeAll(async () => {
    shared = await freshDatabase();
    await bootstrap(shared.db, ADMIN_PASSWORD);
    second = await openDatabase({ dataDir: 'memory://', databaseUrl: shared.url, poolSize: 3 });
  });
  afterAll(async () => {
    await second?.close();
    await shared?.close();
  });

  it('the purge runs on one of them only', async () => {
    const config = testConfig();
    const planted = await plant(shared.db, config, new Date(), 'twice');
    const runs: { instance: string; jobId: string; purged: Record<string, number> }[] = [];
    const instance = (db: Database): JobDeps => ({
      db,
      config,
      metrics: { retentionPurged() {} },
      log: quiet,
    });
    const options = (name: string) => ({
      databaseUrl: shared.url,
      purgeCron: '* * * * * *',
      cronSeconds: 1,
      pollSeconds: 0.5,
      onRun: (r: { jobId: string; purged: Record<string, number> }) => runs.push({ instance: name, ...r }),
    });
    const [a, b] = await Promise.all([
      startJobs(instance(shared.db), options('a')),
      startJobs(instance(second.db), options('b')),
    ]);
    try {
      await expect.poll(() => runs.length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
      // Time for the other instance to run it too, if the queue let it.
      await sleep(3000);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    // A new minute may bring the next occurrence, which finds nothing left; no job runs twice.
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(runs.length);
    const purged = runs.map((r) => Object.values(r.purged).reduce((x, y) => x + y, 0));
    expect(purged.filter((n) => n > 0)).toEqual([planted.filter((p) => p.expired).length]);
    expect(await purgeEntries(shared.db)).toHaveLength(1);
    expect(await remaining(shared.db, 'twice')).toEqual(
      planted
        .filter((p) => !p.expired)
        .map((p) => p.name)
        .sort(),
    );
  });
});

describe.runIf(!onPostgres)('two instances', () => {
  it.skip('need DATABASE_URL: the embedded database lives inside one process', () => {});
});
