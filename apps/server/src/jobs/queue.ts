import { PGlite } from '@electric-sql/pglite';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Config } from '../config/config.ts';
import { APPLICATION_NAME, type Database } from '../db/client.ts';
import type { Metrics } from '../http/metrics.ts';
import { runRetentionPurge } from '../personal-data/retention.ts';
import { startWebhookDelivery, type WebhookWorkerOptions } from '../webhooks/worker.ts';
import { type ImportJobOptions, startImportJobs } from './imports.ts';

/*
 * Background jobs (docs/architecture.md, "Background jobs"): pg-boss, in the database the console
 * already uses, on the embedded database and on PostgreSQL alike. Each instance with JOBS on
 * schedules the jobs and works them; the queue's locks give each run to one instance.
 */

export const RETENTION_PURGE_JOB = 'retention-purge';

/** What a job's handler may use: the instance's own database, settings and metrics. */
export interface JobDeps {
  db: Database;
  config: Config;
  metrics: Pick<Metrics, 'retentionPurged'> & Partial<Pick<Metrics, 'webhookDelivery'>>;
  log: {
    info(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

export interface JobQueueOptions {
  /** The PostgreSQL database `db` is on; unset, `db` must be the embedded database. */
  databaseUrl?: string;
  /** How often a worker asks for a job; a daily job can wait that long. */
  pollSeconds?: number;
  /** How often the schedules are checked for a time that has come. */
  cronSeconds?: number;
  /** The purge's schedule (cron, UTC); by default daily at RETENTION_PURGE_HOUR. */
  purgeCron?: string;
  /** Told of each run, with the job's id and what it purged (tests count runs). */
  onRun?: (run: { jobId: string; purged: Record<string, number> }) => void;
  /** The webhook delivery worker's timing (tests make it fast); `false`: no worker here. */
  webhooks?: WebhookWorkerOptions | false;
  /** The import worker's timing; `false`: large imports are not worked here. */
  imports?: ImportJobOptions | false;
}

export interface JobQueue {
  /** Stops scheduling and working; a purge under way stops between two of its batches. */
  stop(): Promise<void>;
}

/** Pure: the daily schedule at a given hour, in cron's terms. */
export const dailyAt = (hourUtc: number) => `0 ${hourUtc} * * *`;

/** The embedded client under Drizzle: pg-boss runs its statements on it directly. */
function embeddedClient(db: Database): PGlite {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite))
    throw new Error('The job queue needs DATABASE_URL or the embedded database');
  return client;
}

function makeBoss(db: Database, options: JobQueueOptions): PgBoss {
  const common = {
    cronMonitorIntervalSeconds: options.cronSeconds ?? 30,
    cronWorkerIntervalSeconds: options.cronSeconds ?? 30,
  };
  if (options.databaseUrl) {
    // A pool of its own: two connections at most, besides PG_POOL_SIZE.
    return new PgBoss({
      ...common,
      connectionString: options.databaseUrl,
      max: 2,
      application_name: `${APPLICATION_NAME} jobs`,
    });
  }
  return new PgBoss({ ...common, db: fromPglite(embeddedClient(db)), backend: 'pglite' });
}

/**
 * Starts the queue: its own schema (`pgboss`, created or upgraded by pg-boss under its own lock),
 * the purge's queue, its daily schedule and a worker. Run once the console's migrations are done.
 */
export async function startJobs(deps: JobDeps, options: JobQueueOptions = {}): Promise<JobQueue> {
  const boss = makeBoss(deps.db, options);
  boss.on('error', (err) => deps.log.error({ err }, 'Background jobs: the queue failed a step'));
  await boss.start();
  const stopping = new AbortController();
  // One purge at a time across every instance, for up to four hours; a failed one is tried twice
  // more, ten minutes apart.
  await boss.createQueue(RETENTION_PURGE_JOB, {
    policy: 'singleton',
    expireInSeconds: 4 * 3600,
    retryLimit: 2,
    retryDelay: 600,
  });
  await boss.work(
    RETENTION_PURGE_JOB,
    { pollingIntervalSeconds: options.pollSeconds ?? 30 },
    async ([job]) => {
      const started = performance.now();
      const { purged, audited } = await runRetentionPurge(deps, { signal: stopping.signal });
      const ms = Math.round(performance.now() - started);
      deps.log.info({ purged, audited, ms }, 'Retention purge done');
      if (job) options.onRun?.({ jobId: job.id, purged });
    },
  );
  // Every instance writes the same schedule; a run missed while none was up is made once.
  const cron = options.purgeCron ?? dailyAt(deps.config.RETENTION_PURGE_HOUR);
  await boss.schedule(RETENTION_PURGE_JOB, cron, null, { tz: 'UTC', missed: 'once' });
  const webhooks =
    options.webhooks === false ? undefined : await startWebhookDelivery(boss, deps, options.webhooks ?? {});
  const importJobs =
    options.imports === false ? undefined : await startImportJobs(boss, deps, options.imports ?? {});
  deps.log.info({ cron }, `Background jobs started: the retention purge runs at '${cron}' (cron, UTC)`);
  return {
    async stop() {
      stopping.abort();
      webhooks?.stop();
      importJobs?.stop();
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
