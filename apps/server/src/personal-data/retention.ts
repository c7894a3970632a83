import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AuditAction } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/recorder.ts';
import { KNOWN_ADDRESS_DAYS } from '../auth/throttle.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { firstRow } from '../db/rows.ts';

/*
 * Retention (docs/privacy.md, "Retention"): each kind of record is kept for the days its setting
 * says, counted from the moment the record stopped serving anything, and the daily purge deletes
 * what is older, in small batches.
 */

/** The settings that say how long a kind is kept, in days; 0 keeps it forever. */
export type RetentionSetting =
  | 'RETENTION_AUDIT_DAYS'
  | 'RETENTION_SIGN_IN_DAYS'
  | 'RETENTION_SESSION_DAYS'
  | 'RETENTION_THROTTLE_DAYS'
  | 'RECYCLE_BIN_DAYS'
  | 'RETENTION_WEBHOOK_DAYS'
  | 'RETENTION_IMPORT_DAYS';

/** What the SQL of a kind may depend on besides its cutoff: the policies that end a row's use. */
export type RetentionPolicy = Pick<
  Config,
  RetentionSetting | 'SESSION_IDLE_MINUTES' | 'SESSION_ABSOLUTE_HOURS' | 'LOGIN_THROTTLE_MINUTES'
>;

export interface RetentionKind {
  /** The name the audit entry and the metric's `kind` label use. */
  kind: string;
  setting: RetentionSetting;
  table: string;
  /** A unique column: the batched delete picks its rows by it. */
  key: string;
  /**
   * When a row stopped serving anything (its creation, for a record of an event): its days are
   * counted from there.
   */
  endedAt(policy: RetentionPolicy): SQL;
  /** The rows of the table this kind covers, when not all of them. */
  where?: SQL;
  /**
   * No index serves `endedAt`: batches walk the key's index instead, each from where the last
   * stopped, so that no batch scans again the rows (and dead rows) an earlier one passed.
   */
  walkByKey?: boolean;
}

/**
 * Sign-in and refusal events: kept for less time than the rest of the audit log, since they are
 * many, name addresses and browsers, and are read for recent security questions.
 */
export const SIGN_IN_EVENT_ACTIONS = [
  'LOGIN',
  'LOGIN_FAILED',
  'LOGOUT',
  'SSO_FAILED',
  'ACCESS_DENIED',
  'UNAUTHENTICATED',
] as const satisfies readonly AuditAction[];

/**
 * Never purged: an erasure's entry names only codes and counts, and it is the list of people to
 * erase again when a backup taken before it is restored.
 */
export const KEPT_AUDIT_ACTIONS = ['ERASURE'] as const satisfies readonly AuditAction[];

const actionList = (actions: readonly string[]) =>
  sql.join(
    actions.map((a) => sql`${a}`),
    sql`, `,
  );
const minutes = (n: number) => sql`(${n}::float8 * interval '1 minute')`;

/**
 * Every kind the purge knows, in the order it runs them. A new kind of record is one entry here
 * and its setting in config.ts.
 */
export const RETENTION_KINDS: readonly RetentionKind[] = [
  {
    kind: 'audit',
    setting: 'RETENTION_AUDIT_DAYS',
    table: 'audits',
    key: 'id',
    endedAt: () => sql`created_at`,
    where: sql`action not in (${actionList([...SIGN_IN_EVENT_ACTIONS, ...KEPT_AUDIT_ACTIONS])})`,
  },
  {
    kind: 'sign_in_events',
    setting: 'RETENTION_SIGN_IN_DAYS',
    table: 'audits',
    key: 'id',
    endedAt: () => sql`created_at`,
    where: sql`action in (${actionList(SIGN_IN_EVENT_ACTIONS)})`,
  },
  {
    // Revoked sessions are deleted at once; an expired one stays until its user comes back.
    kind: 'sessions',
    setting: 'RETENTION_SESSION_DAYS',
    table: 'sessions',
    key: 'id_hash',
    walkByKey: true,
    // The same two ends as `sessionAlive`, whichever comes first.
    endedAt: (p) =>
      sql`least(created_at + ${minutes(p.SESSION_ABSOLUTE_HOURS * 60)}, last_seen_at + ${minutes(p.SESSION_IDLE_MINUTES)})`,
  },
  {
    kind: 'mfa_challenges',
    setting: 'RETENTION_SESSION_DAYS',
    table: 'mfa_challenges',
    key: 'id_hash',
    walkByKey: true,
    endedAt: () => sql`expires_at`,
  },
  {
    kind: 'sso_logins',
    setting: 'RETENTION_SESSION_DAYS',
    table: 'oidc_logins',
    key: 'id_hash',
    walkByKey: true,
    endedAt: () => sql`expires_at`,
  },
  {
    kind: 'login_throttle',
    setting: 'RETENTION_THROTTLE_DAYS',
    table: 'login_throttle',
    key: 'key',
    walkByKey: true,
    // A key counts from zero again once quiet for a window, and a sign-in makes its address known
    // for the account for KNOWN_ADDRESS_DAYS (auth/throttle.ts); before both, the row still
    // matters. `greatest` skips the nulls of a key never blocked or never signed in on.
    endedAt: (p) => sql`greatest(last_attempt_at + ${minutes(p.LOGIN_THROTTLE_MINUTES)},
      blocked_until + ${minutes(p.LOGIN_THROTTLE_MINUTES)}, signed_in_at + ${`${KNOWN_ADDRESS_DAYS} days`}::interval)`,
  },
  {
    kind: 'recycle_bin',
    setting: 'RECYCLE_BIN_DAYS',
    table: 'deleted_records',
    key: 'id',
    endedAt: () => sql`deleted_at`,
  },
  {
    // An event's deliveries go with it (on delete cascade); every one is settled within a day.
    kind: 'webhook_events',
    setting: 'RETENTION_WEBHOOK_DAYS',
    table: 'webhook_events',
    key: 'id',
    endedAt: () => sql`created_at`,
  },
  {
    // An import's preview and errors quote the file's cells (names, dates of birth); its file goes
    // with it (on delete cascade), and goes as soon as the import ends anyway.
    kind: 'imports',
    setting: 'RETENTION_IMPORT_DAYS',
    table: 'imports',
    key: 'id',
    endedAt: () => sql`updated_at`,
  },
];

const DAY_MS = 86_400_000;

/** Pure: the moment before which a kind's records are past retention, or null when kept forever. */
export function cutoffFor(days: number, now: Date): Date | null {
  return days > 0 ? new Date(now.getTime() - days * DAY_MS) : null;
}

export interface PlannedKind {
  kind: RetentionKind;
  days: number;
  /** Rows that ended before it are purged. */
  cutoff: Date;
}

/** Pure: the kinds to purge now, each with its cutoff; a kind kept forever is left out. */
export function purgePlan(
  policy: RetentionPolicy,
  now: Date,
  kinds: readonly RetentionKind[] = RETENTION_KINDS,
): PlannedKind[] {
  return kinds.flatMap((kind) => {
    const days = policy[kind.setting];
    const cutoff = cutoffFor(days, now);
    return cutoff ? [{ kind, days, cutoff }] : [];
  });
}

/** Small enough that one statement holds its row locks for milliseconds. */
export const PURGE_BATCH_ROWS = 1000;

/**
 * One batch of a kind: at most `limit` rows past the cutoff (after the key `after`, for a kind
 * walked by key), skipping rows a request holds locked (the next run takes them), in a statement
 * of its own. Answers how many went and the last key it reached.
 */
export function batchStatement(
  planned: PlannedKind,
  policy: RetentionPolicy,
  limit: number,
  after?: string,
): SQL {
  const { kind, cutoff } = planned;
  const table = sql.identifier(kind.table);
  const key = sql.identifier(kind.key);
  const condition = kind.where ? sql` and (${kind.where})` : sql``;
  const from = after === undefined ? sql`` : sql` and ${key} > ${after}`;
  const order = kind.walkByKey ? sql` order by ${key}` : sql``;
  return sql`with doomed as (
      select ${key} as key from ${table}
      where ${kind.endedAt(policy)} < ${cutoff.toISOString()}::timestamptz${condition}${from}${order}
      limit ${limit} for update skip locked),
    gone as (delete from ${table} t using doomed where t.${key} = doomed.key)
  select count(*)::int as n, max(key)::text as last from doomed`;
}

export interface PurgeOptions {
  now?: Date;
  batchRows?: number;
  /** Stops between two batches (the server is stopping): what was purged so far stays purged. */
  signal?: AbortSignal;
}

/** Deletes every row past its kind's retention; the number deleted, by kind. */
export async function purgeExpired(
  db: Database,
  policy: RetentionPolicy,
  options: PurgeOptions = {},
): Promise<Record<string, number>> {
  const now = options.now ?? new Date();
  const limit = options.batchRows ?? PURGE_BATCH_ROWS;
  const counts: Record<string, number> = {};
  for (const planned of purgePlan(policy, now)) {
    let total = 0;
    let after: string | undefined;
    for (;;) {
      options.signal?.throwIfAborted();
      const batch = await firstRow<{ n: number; last: string | null }>(
        db,
        batchStatement(planned, policy, limit, after),
      );
      const n = batch?.n ?? 0;
      total += n;
      if (n < limit) break;
      if (planned.kind.walkByKey) after = batch?.last ?? undefined;
      // Requests waiting for the embedded database's one connection go first.
      await yieldToEventLoop();
    }
    counts[planned.kind.kind] = (counts[planned.kind.kind] ?? 0) + total;
  }
  return counts;
}

export interface PurgeRun {
  purged: Record<string, number>;
  /** Whether a RETENTION_PURGE entry was written: only when something was purged. */
  audited: boolean;
}

/**
 * The daily job: purges, counts what went by kind in the metrics, and records one audit entry
 * with the counts and the settings (no record's values) when anything went. Written after the
 * purge, so the purge never meets its own entry.
 */
export async function runRetentionPurge(
  deps: {
    db: Database;
    config: RetentionPolicy;
    metrics: { retentionPurged(kind: string, rows: number): void };
  },
  options: PurgeOptions = {},
): Promise<PurgeRun> {
  const purged = await purgeExpired(deps.db, deps.config, options);
  for (const [kind, rows] of Object.entries(purged)) deps.metrics.retentionPurged(kind, rows);
  const total = Object.values(purged).reduce((a, b) => a + b, 0);
  if (total === 0) return { purged, audited: false };
  const days = Object.fromEntries(RETENTION_KINDS.map((k) => [k.kind, deps.config[k.setting]]));
  await recordAudit(deps.db, {
    action: 'RETENTION_PURGE',
    collection: 'retention',
    after: { purged, total, days },
    actor: null,
  });
  return { purged, audited: true };
}

/** The kinds' names, for the metric's labels. */
export const RETENTION_KIND_NAMES = [...new Set(RETENTION_KINDS.map((k) => k.kind))];
