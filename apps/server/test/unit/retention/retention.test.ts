import { AUDIT_ACTIONS } from '@wfc/contract';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, testConfig } from '../../../src/config/config.ts';
import * as schema from '../../../src/db/schema/index.ts';
import { dailyAt } from '../../../src/jobs/queue.ts';
import { PERSONAL_TABLES } from '../../../src/personal-data/catalogue.ts';
import {
  cutoffFor,
  KEPT_AUDIT_ACTIONS,
  purgePlan,
  RETENTION_KINDS,
  SIGN_IN_EVENT_ACTIONS,
} from '../../../src/personal-data/retention.ts';

const NOW = new Date('2026-11-27T03:00:00Z');
const DAY = 86_400_000;

const tables = new Map(
  Object.values(schema)
    .filter((v: unknown): v is PgTable => is(v, PgTable))
    .map((table) => {
      const config = getTableConfig(table);
      return [config.name, config] as const;
    }),
);

describe('what is past retention', () => {
  it('is what ended more than its days before now; 0 days keeps it forever', () => {
    expect(cutoffFor(30, NOW)).toEqual(new Date(NOW.getTime() - 30 * DAY));
    expect(cutoffFor(1, NOW)).toEqual(new Date('2026-11-26T03:00:00Z'));
    expect(cutoffFor(0, NOW)).toBeNull();
  });

  it('plans every kind with the days its setting holds, and leaves out a kind kept forever', () => {
    const config = testConfig();
    const plan = purgePlan(config, NOW);
    expect(plan.map((p) => [p.kind.kind, p.days])).toEqual([
      ['audit', 730],
      ['sign_in_events', 90],
      ['sessions', 30],
      ['mfa_challenges', 30],
      ['sso_logins', 30],
      ['login_throttle', 1],
      ['recycle_bin', 30],
      ['webhook_events', 30],
      ['imports', 30],
    ]);
    for (const p of plan) expect(p.cutoff.getTime()).toBe(NOW.getTime() - p.days * DAY);

    const forever = purgePlan({ ...config, RETENTION_AUDIT_DAYS: 0, RETENTION_SESSION_DAYS: 0 }, NOW);
    expect(forever.map((p) => p.kind.kind)).toEqual([
      'sign_in_events',
      'login_throttle',
      'recycle_bin',
      'webhook_events',
      'imports',
    ]);
  });

  it('splits the audit log between its two settings, and keeps erasures out of both', () => {
    const signIn = new Set<string>(SIGN_IN_EVENT_ACTIONS);
    const kept = new Set<string>(KEPT_AUDIT_ACTIONS);
    expect([...signIn].filter((a) => kept.has(a))).toEqual([]);
    for (const action of [...signIn, ...kept]) expect(AUDIT_ACTIONS).toContain(action);
    expect(kept).toEqual(new Set(['ERASURE']));
    // The purge's own entry ages with the rest of the log.
    expect(signIn.has('RETENTION_PURGE') || kept.has('RETENTION_PURGE')).toBe(false);
  });

  it('names stored tables and unique columns, and a setting for each kind', () => {
    const settings = Object.keys(testConfig());
    for (const kind of RETENTION_KINDS) {
      const table = tables.get(kind.table);
      expect(table, kind.table).toBeDefined();
      const key = table?.columns.find((c) => c.name === kind.key);
      const unique =
        key?.primary ||
        key?.isUnique ||
        table?.primaryKeys.some((pk) => pk.columns.length === 1 && pk.columns[0]?.name === kind.key);
      expect(unique, `${kind.table}.${kind.key}`).toBeTruthy();
      expect(settings).toContain(kind.setting);
    }
  });

  it('decides for every table about a person: kept with its record, or purged by age', () => {
    // Each row here lives as long as the person's record (or its performance day) does: their
    // record's delete or an erasure removes it, never its age.
    const keptWithRecord = new Set([
      'users',
      'profiles',
      'profile_pictures',
      'employees',
      'department_managers',
      'mfa_recovery_codes',
      'user_mfa',
      'sso_identities',
    ]);
    const purged = new Set(RETENTION_KINDS.map((k) => k.table));
    for (const table of Object.keys(PERSONAL_TABLES)) {
      if (keptWithRecord.has(table) || table.startsWith('performance')) continue;
      expect(purged, `${table}: kept with its record, or a kind of the purge?`).toContain(table);
    }
  });
});

describe('the retention settings', () => {
  it('default as documented, take whole days from 0, and refuse anything else', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      JOBS: true,
      RETENTION_PURGE_HOUR: 3,
      RETENTION_AUDIT_DAYS: 730,
      RETENTION_SIGN_IN_DAYS: 90,
      RETENTION_SESSION_DAYS: 30,
      RETENTION_THROTTLE_DAYS: 1,
      RECYCLE_BIN_DAYS: 30,
    });
    expect(
      loadConfig({ RETENTION_AUDIT_DAYS: '0', RECYCLE_BIN_DAYS: '', RETENTION_PURGE_HOUR: '' }),
    ).toMatchObject({
      RETENTION_AUDIT_DAYS: 0,
      RECYCLE_BIN_DAYS: 30,
      RETENTION_PURGE_HOUR: 3,
    });
    expect(loadConfig({ JOBS: 'false' }).JOBS).toBe(false);
    for (const bad of ['-1', '1.5', 'never', '36501']) {
      expect(() => loadConfig({ RETENTION_SIGN_IN_DAYS: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ RETENTION_PURGE_HOUR: '24' })).toThrow(ConfigError);
  });

  it('schedule the purge daily at the hour set, in UTC', () => {
    expect(dailyAt(3)).toBe('0 3 * * *');
    expect(dailyAt(0)).toBe('0 0 * * *');
  });
});
