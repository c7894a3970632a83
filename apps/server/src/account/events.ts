import type { AuditAction } from '@wfc/contract';
import type { AuditActor } from '../audit/recorder.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';

/**
 * An event of one account (its password, sessions or second factor) in the audit log: under
 * 'auth', about that user's record, naming the user, with what else the event needs said.
 */
export function recordAccountEvent(
  tx: Executor,
  action: AuditAction,
  account: { userCode: string; username: string },
  actor: AuditActor,
  details: Record<string, unknown> = {},
) {
  return recordAudit(tx, {
    action,
    collection: 'auth',
    recordCode: account.userCode,
    after: { username: account.username, ...details },
    actor,
  });
}

/** Pure: '1 session', '3 sessions'. */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
