import type { Executor } from '../db/client.ts';
import { type AuditActor, recordAudit } from './recorder.ts';

/**
 * Refused requests are security events, but a flood of them must not fill the audit table: per
 * instance, one record a minute for the same refusal (reason, route, address and user) and at most
 * `perMinute` in all. Memory stays bounded by the same number.
 */
export class RefusalLimiter {
  private window = -1;
  private count = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly perMinute = 60,
    private readonly windowMs = 60_000,
  ) {}

  /** Whether this refusal may be recorded now; counts it when it may. */
  allow(key: string, now = Date.now()): boolean {
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.count = 0;
      this.seen.clear();
    }
    if (this.seen.has(key) || this.count >= this.perMinute) return false;
    this.seen.add(key);
    this.count++;
    return true;
  }
}

export interface Refusal {
  status: number;
  reason: string;
  method: string;
  route: string;
  ip: string;
  actor: AuditActor | null;
}

/** The audit record of a refused request: who, what, why and from where. */
export async function recordRefusal(db: Executor, limiter: RefusalLimiter, refusal: Refusal) {
  const { actor, ...event } = refusal;
  const key = [event.status, event.reason, event.method, event.route, event.ip, actor?.userCode ?? ''].join(
    '\u0000',
  );
  if (!limiter.allow(key)) return;
  await recordAudit(db, {
    action: refusal.status === 401 ? 'UNAUTHENTICATED' : 'ACCESS_DENIED',
    collection: 'security',
    after: event,
    actor,
  });
}
