import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuditAction } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { audits } from '../db/schema/index.ts';
import { eventsOfAudits, queueEvents } from '../webhooks/events.ts';
import { auditContext } from './context.ts';
import { diff, scrub } from './diff.ts';

export interface AuditActor {
  userCode: string;
  username: string;
}

export interface AuditEntry {
  /** One of the contract's list, which the audit log's Action filter offers. */
  action: AuditAction;
  collection: string;
  /** The code of the record the entry is about. */
  recordCode?: string;
  before?: unknown;
  after?: unknown;
  actor: AuditActor | null;
}

function auditRow(entry: AuditEntry) {
  const before = entry.before === undefined ? null : scrub(entry.before);
  const after = entry.after === undefined ? null : scrub(entry.after);
  return {
    auditCode: newCode('AUDIT-'),
    action: entry.action,
    collection: entry.collection,
    recordCode: entry.recordCode ?? null,
    before,
    after,
    changes: diff(before, after),
    userCode: entry.actor?.userCode ?? null,
    username: entry.actor?.username ?? null,
    // The request the entry was made in (`withAuditContext`), so that its log lines can be found.
    requestId: auditContext()?.requestId ?? null,
  };
}

/**
 * The webhook events the entries are (webhooks/events.ts), queued with the same executor: an
 * event exists exactly when its change committed. One statement for any number of entries, and
 * none for entries that are no event.
 */
async function queueWebhookEvents(db: Executor, rows: readonly ReturnType<typeof auditRow>[]) {
  const events = eventsOfAudits(
    rows.map((r) => ({
      action: r.action,
      collection: r.collection,
      recordCode: r.recordCode,
      after: r.after,
      actor: r.userCode && r.username ? { userCode: r.userCode, username: r.username } : null,
    })),
  );
  await queueEvents(db, events);
}

/** Written with the same executor as the change, so both commit or neither does. */
export async function recordAudit(db: Executor, entry: AuditEntry) {
  const row = auditRow(entry);
  await db.insert(audits).values(row);
  await queueWebhookEvents(db, [row]);
}

/** Entries made into rows between two turns of the event loop. */
const ROWS_PER_TURN = 100;

/**
 * Many records in one statement, for bulk changes. The rows travel as one JSON parameter, so a
 * batch of any size is a single round trip and never meets the 65,535-parameter limit.
 */
export async function recordAudits(db: Executor, entries: readonly AuditEntry[]) {
  if (!entries.length) return;
  // An entry's differences take about 0.1 ms to find: other requests get a turn between slices.
  const rows: ReturnType<typeof auditRow>[] = [];
  for (let i = 0; i < entries.length; i += ROWS_PER_TURN) {
    if (i > 0) await nextTurn();
    for (const entry of entries.slice(i, i + ROWS_PER_TURN)) rows.push(auditRow(entry));
  }
  await db.execute(sql`
    insert into ${audits} (audit_code, action, collection, record_code, before, after, changes, user_code, username,
      request_id)
    select x."auditCode", x.action, x.collection, x."recordCode", x.before, x.after, x.changes, x."userCode",
      x.username, x."requestId"
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
      "auditCode" text, action text, collection text, "recordCode" text, before jsonb, after jsonb, changes jsonb,
      "userCode" text, username text, "requestId" text)`);
  await queueWebhookEvents(db, rows);
}
