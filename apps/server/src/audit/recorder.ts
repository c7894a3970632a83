import type { Executor } from '../db/client.ts';
import { audits } from '../db/schema/index.ts';
import { newCode } from '../resources/codes.ts';
import { diff, scrub } from './diff.ts';

export interface AuditActor {
  userCode: string;
  username: string;
}

export interface AuditEntry {
  action: string;
  collection: string;
  before?: unknown;
  after?: unknown;
  actor: AuditActor | null;
}

/** Written with the same executor as the change, so both commit or neither does. */
export async function recordAudit(db: Executor, entry: AuditEntry) {
  const before = entry.before === undefined ? null : scrub(entry.before);
  const after = entry.after === undefined ? null : scrub(entry.after);
  await db.insert(audits).values({
    auditCode: newCode('AUDIT-'),
    action: entry.action,
    collection: entry.collection,
    before,
    after,
    changes: diff(before, after),
    userCode: entry.actor?.userCode ?? null,
    username: entry.actor?.username ?? null,
  });
}
