import type { PgBoss } from 'pg-boss';
import { loadSecretKey } from '../auth/secret-box.ts';
import type { JobDeps } from '../jobs/queue.ts';
import { anyDue, type DeliveryResult, type DeliveryTiming, deliverDue } from './delivery.ts';

/*
 * The webhook delivery worker, on the job queue (docs/architecture.md, "Background jobs"): a
 * sweep on every instance with JOBS on asks every few seconds whether a delivery is due (one
 * indexed query) and, if so, queues a run; the queue keeps at most one run waiting and one
 * running, and each run sends everything due. The claims (`for update skip locked`) keep two runs,
 * on two instances, from ever sending one delivery twice at once.
 */

export const WEBHOOK_DELIVERY_JOB = 'webhook-deliveries';

export interface WebhookWorkerOptions {
  /** How often the sweep asks whether a delivery is due; by default every 2 s. */
  sweepMs?: number;
  /** How often the queue's worker asks for a run (at least 0.5 s); by default 1 s. */
  pollSeconds?: number;
  /** Retry and lease timing (delivery.ts); tests shorten it. */
  timing?: Partial<DeliveryTiming>;
  /** Told of each attempt's outcome (tests wait on them). */
  onAttempt?: (result: DeliveryResult) => void;
}

export async function startWebhookDelivery(
  boss: PgBoss,
  deps: JobDeps,
  options: WebhookWorkerOptions,
): Promise<{ stop(): void }> {
  const key = await loadSecretKey(deps.config);
  const stopping = new AbortController();
  await boss.createQueue(WEBHOOK_DELIVERY_JOB, {
    policy: 'stately',
    expireInSeconds: 15 * 60,
    retryLimit: 0,
  });
  await boss.work(WEBHOOK_DELIVERY_JOB, { pollingIntervalSeconds: options.pollSeconds ?? 1 }, async () => {
    const attempted = await deliverDue(deps.db, {
      key,
      allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE,
      timing: options.timing,
      signal: stopping.signal,
      onAttempt: (result) => {
        deps.metrics.webhookDelivery?.(result);
        options.onAttempt?.(result);
      },
    });
    if (attempted) deps.log.info({ attempted }, 'Webhook deliveries sent');
  });
  let sweeping = false;
  const sweep = async () => {
    if (sweeping || stopping.signal.aborted) return;
    sweeping = true;
    try {
      if (await anyDue(deps.db)) await boss.send(WEBHOOK_DELIVERY_JOB, null);
    } catch (err) {
      if (!stopping.signal.aborted) deps.log.error({ err }, 'Webhook deliveries: the sweep failed');
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.sweepMs ?? 2000);
  timer.unref();
  void sweep();
  return {
    stop() {
      stopping.abort();
      clearInterval(timer);
    },
  };
}
