import http from 'node:http';
import https from 'node:https';
import {
  RESOURCES,
  type Viewer,
  visibleRecord,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_TIMEOUT_SECONDS,
} from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { open, type SecretKey } from '../auth/secret-box.ts';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { isPublicAddress, literalAddress, PrivateAddressError, publicOnlyLookup } from './addresses.ts';
import type { WebhookPayload } from './events.ts';

/*
 * Webhook delivery (docs/operations.md, "Webhooks"): each due delivery is claimed by one worker on
 * one instance (`for update skip locked`), POSTed signed in the Standard Webhooks format, and
 * marked succeeded, retried later with exponential backoff, or failed a day after it was queued.
 * Deliveries about one record to one subscription go out one at a time, oldest first.
 */

export interface DeliveryTiming {
  /** The wait after the first failed attempt; each further one doubles it. */
  retryBaseMs: number;
  /** The longest wait between two attempts. */
  retryCapMs: number;
  /** How long after it was queued a delivery is still tried; then it is failed. */
  retryWindowMs: number;
  /**
   * How long a claimed delivery is left to its worker: a worker that dies mid-send leaves it to
   * be tried again after this.
   */
  leaseMs: number;
  timeoutMs: number;
}

export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = {
  retryBaseMs: 30_000,
  retryCapMs: 3_600_000,
  retryWindowMs: WEBHOOK_RETRY_HOURS * 3_600_000,
  leaseMs: 60_000,
  timeoutMs: WEBHOOK_TIMEOUT_SECONDS * 1000,
};

/** Pure: the wait before the next attempt after `attempts` failed ones (30 s, 1 min, 2 min, ... 1 h). */
export function retryDelayMs(attempts: number, timing: Pick<DeliveryTiming, 'retryBaseMs' | 'retryCapMs'>) {
  const exponent = Math.min(Math.max(attempts, 1) - 1, 30);
  return Math.min(timing.retryCapMs, timing.retryBaseMs * 2 ** exponent);
}

/** Pure: after a failed attempt, when to try again, or null when the delivery is out of time. */
export function nextAttemptAfterFailure(
  attempts: number,
  queuedAt: Date,
  now: Date,
  timing: Pick<DeliveryTiming, 'retryBaseMs' | 'retryCapMs' | 'retryWindowMs'>,
): Date | null {
  const next = now.getTime() + retryDelayMs(attempts, timing);
  return next > queuedAt.getTime() + timing.retryWindowMs ? null : new Date(next);
}

/** A receiver that leaves out personal details: no permission, and no record is about it. */
const NO_DETAILS: Viewer = { permissions: new Set(), userCode: '' };
const BY_KEY = new Map<string, (typeof RESOURCES)[number]>(RESOURCES.map((def) => [def.key, def]));

/**
 * Pure: the payload as a subscription gets it. Without `includePersonalData` a record's detail
 * fields (docs/privacy.md) are left out, as for a user who may not see them.
 */
export function payloadFor(payload: WebhookPayload, includePersonalData: boolean): WebhookPayload {
  const data = payload.data;
  const def = typeof data.module === 'string' ? BY_KEY.get(data.module) : undefined;
  if (includePersonalData || !def || typeof data.record !== 'object' || data.record === null) return payload;
  return { ...payload, data: { ...data, record: visibleRecord(NO_DETAILS, def, data.record) } };
}

export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Of an answer, only this much is read: it is not kept, and a receiver could send without end. */
const ANSWER_BYTES = 4096;

/**
 * One signed POST. A 2xx is success; anything else, a redirect included (never followed), a
 * timeout or a refused address is a failure. Only public addresses are connected to unless
 * `allowPrivate`.
 */
export function sendWebhook(
  target: { url: string; secret: string },
  payload: WebhookPayload,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<SendOutcome> {
  const body = JSON.stringify(payload);
  const url = new URL(target.url);
  const literal = literalAddress(url.hostname);
  if (!options.allowPrivate && literal && !isPublicAddress(literal)) {
    return Promise.resolve({ ok: false, statusCode: null, error: new PrivateAddressError(literal).message });
  }
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'workforce-console-webhooks',
    'webhook-id': payload.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(target.secret).sign(payload.id, at, body),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers,
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        agent: false,
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        let read = 0;
        const finish = () => {
          const ok = statusCode >= 200 && statusCode < 300;
          const redirect = statusCode >= 300 && statusCode < 400;
          done({
            ok,
            statusCode,
            error: ok ? null : redirect ? `Redirect (${statusCode}) not followed` : `Answered ${statusCode}`,
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= ANSWER_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      const cause = (err as { cause?: Error }).cause;
      const message =
        err instanceof PrivateAddressError
          ? err.message
          : timedOut
            ? `No answer within ${Math.round(options.timeoutMs / 1000)} s`
            : `${err.code ?? err.name}: ${err.message}${cause ? ` (${cause.message})` : ''}`;
      done({ ok: false, statusCode: null, error: message.slice(0, 500) });
    });
    req.end(body);
  });
}

/**
 * Deliveries due now: pending, their time come, of an active subscription, and the oldest pending
 * one of their subscription and record.
 */
const DUE = sql.raw(`from webhook_deliveries d
  join webhooks w on w.webhook_code = d.webhook_code and w.active
  where d.status = 'pending' and d.next_attempt_at <= now()
    and not exists (
      select 1 from webhook_deliveries o
      where o.webhook_code = d.webhook_code and o.order_key = d.order_key and o.status = 'pending'
        and (o.event_seq < d.event_seq or (o.event_seq = d.event_seq and o.id < d.id)))`);

interface Claimed {
  deliveryCode: string;
  webhookCode: string;
  attempts: number;
  createdAt: string;
  url: string;
  secret: string;
  includePersonalData: boolean;
  payload: WebhookPayload;
}

/**
 * Claims up to `limit` due deliveries for this worker: each the oldest pending one of its
 * subscription and record (so a later event for the record waits for an earlier one, even one
 * waiting for a retry), of an active subscription, not claimed by another worker. A claim counts
 * as an attempt and moves the next attempt a lease ahead.
 */
async function claimDue(db: Database, limit: number, leaseMs: number): Promise<Claimed[]> {
  return rowsOf<Claimed>(
    db,
    sql`
    with due as (
      select d.id ${DUE}
      order by d.next_attempt_at, d.id
      limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d
      set attempts = d.attempts + 1, last_attempt_at = now(),
        next_attempt_at = now() + (${leaseMs}::float8 * interval '1 millisecond')
      from due where d.id = due.id
      returning d.delivery_code, d.webhook_code, d.event_id, d.attempts, d.created_at
    )
    select c.delivery_code as "deliveryCode", c.webhook_code as "webhookCode", c.attempts,
      c.created_at as "createdAt", w.url, w.secret, w.include_personal_data as "includePersonalData",
      e.payload
    from claimed c
    join webhooks w on w.webhook_code = c.webhook_code
    join webhook_events e on e.event_id = c.event_id`,
  );
}

/** What the worker reports of each attempt (the metrics count them). */
export type DeliveryResult = 'succeeded' | 'retrying' | 'failed';

export interface DeliverOptions {
  key: SecretKey | undefined;
  allowPrivate: boolean;
  timing?: Partial<DeliveryTiming>;
  /** Deliveries sent at once by this worker. */
  concurrency?: number;
  signal?: AbortSignal;
  onAttempt?: (result: DeliveryResult) => void;
}

async function attempt(db: Database, claimed: Claimed, options: DeliverOptions, timing: DeliveryTiming) {
  let outcome: SendOutcome;
  if (!options.key) {
    outcome = { ok: false, statusCode: null, error: 'SECRET_KEY is not set: the secret cannot be read' };
  } else {
    let secret: string | undefined;
    try {
      secret = open(options.key, claimed.secret);
    } catch {
      secret = undefined;
    }
    const payload = payloadFor(claimed.payload, claimed.includePersonalData);
    outcome = secret
      ? await sendWebhook({ url: claimed.url, secret }, payload, {
          allowPrivate: options.allowPrivate,
          timeoutMs: timing.timeoutMs,
        })
      : { ok: false, statusCode: null, error: 'The secret cannot be read with this SECRET_KEY' };
  }
  const now = new Date();
  let result: DeliveryResult;
  if (outcome.ok) {
    result = 'succeeded';
    await db.execute(sql`
      update webhook_deliveries set status = 'succeeded', last_status_code = ${outcome.statusCode},
        last_error = null, completed_at = now()
      where delivery_code = ${claimed.deliveryCode} and status = 'pending'`);
  } else {
    const next = nextAttemptAfterFailure(claimed.attempts, new Date(claimed.createdAt), now, timing);
    result = next ? 'retrying' : 'failed';
    await db.execute(sql`
      update webhook_deliveries set last_status_code = ${outcome.statusCode}, last_error = ${outcome.error},
        status = ${next ? 'pending' : 'failed'},
        next_attempt_at = ${(next ?? now).toISOString()}::timestamptz,
        completed_at = ${next ? null : now.toISOString()}::timestamptz
      where delivery_code = ${claimed.deliveryCode} and status = 'pending'`);
  }
  options.onAttempt?.(result);
}

/**
 * Sends every delivery that is due, a few at a time, until none is left (or the signal stops it
 * between two rounds). Answers how many were attempted.
 */
export async function deliverDue(db: Database, options: DeliverOptions): Promise<number> {
  const timing = { ...DEFAULT_DELIVERY_TIMING, ...options.timing };
  const concurrency = options.concurrency ?? 8;
  let attempted = 0;
  while (!options.signal?.aborted) {
    const claimed = await claimDue(db, concurrency, timing.leaseMs);
    if (!claimed.length) break;
    await Promise.all(claimed.map((c) => attempt(db, c, options, timing)));
    attempted += claimed.length;
  }
  return attempted;
}

/** Whether any delivery is due now: the cheap question a sweep asks before it queues a run. */
export async function anyDue(db: Database): Promise<boolean> {
  const rows = await rowsOf<{ due: boolean }>(db, sql`select exists (select 1 ${DUE}) as due`);
  return rows[0]?.due === true;
}
