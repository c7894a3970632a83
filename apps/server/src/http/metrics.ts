import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { VERSION } from '../version.ts';

/** The PostgreSQL pool at one moment. */
export interface PoolUse {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface MetricSources {
  /** The pool's use now; absent for the embedded database, which has no pool. */
  pool?: () => PoolUse;
  /** The query cache's counts since it was made (`QueryCache.stats`) and the bytes it holds. */
  cache: () => { hits: number; misses: number; bytes: number };
  /** The session cache's counts since it was made. */
  sessions: () => { hits: number; misses: number };
  /** The retention purge's kinds of record, counted from 0 so that a dashboard sees each at once. */
  retentionKinds?: readonly string[];
}

export type SignInOutcome = 'success' | 'failure' | 'throttled';
const SIGN_IN_OUTCOMES: readonly SignInOutcome[] = ['success', 'failure', 'throttled'];

export type WebhookOutcome = 'succeeded' | 'retrying' | 'failed';
const WEBHOOK_OUTCOMES: readonly WebhookOutcome[] = ['succeeded', 'retrying', 'failed'];

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, heap, event loop lag, garbage collection, handles): one
 * set per process, started by the first scrape, so that apps that are never scraped (tests) start
 * no monitors.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type RequestLabels = 'method' | 'route' | 'status';

/** One app's metrics, in a registry of its own: several apps in one process (tests) never mix. */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requests: Counter<RequestLabels>;
  private readonly durations: Histogram<RequestLabels>;
  private readonly signIns: Counter<'outcome'>;
  private readonly purgedRows: Counter<'kind'>;
  private readonly webhookAttempts: Counter<'outcome'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new Counter({
      name: 'wfc_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern (never the raw URL; "unmatched" for none) and status',
      labelNames,
      registers,
    });
    this.durations = new Histogram({
      name: 'wfc_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.signIns = new Counter({
      name: 'wfc_sign_ins_total',
      help: 'Sign-in attempts by outcome: success, failure (wrong name or password) or throttled (429)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of SIGN_IN_OUTCOMES) this.signIns.inc({ outcome }, 0);
    this.purgedRows = new Counter({
      name: 'wfc_retention_purged_rows_total',
      help: 'Rows the retention purge deleted on this instance, by kind of record (docs/privacy.md, "Retention")',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of sources.retentionKinds ?? []) this.purgedRows.inc({ kind }, 0);
    this.webhookAttempts = new Counter({
      name: 'wfc_webhook_deliveries_total',
      help: 'Webhook delivery attempts this instance made, by outcome (succeeded, retrying: failed and tried again later, failed: out of retries)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookAttempts.inc({ outcome }, 0);
    // Always 1: its labels say which release runs on which Node.js, so a dashboard can join them
    // to any other series of the instance (a rolling upgrade shows both releases side by side).
    new Gauge({
      name: 'wfc_build_info',
      help: 'The release this instance runs (version) and the Node.js running it (node); always 1',
      labelNames: ['version', 'node'],
      registers,
    }).set({ version: VERSION, node: process.versions.node }, 1);
    const { cache, sessions, pool } = sources;
    // A cache's hits and misses since the app was made, read at each scrape.
    const hitsAndMisses = (
      cacheName: string,
      read: () => { hits: number; misses: number },
      help: { hits: string; misses: string },
    ) => {
      for (const kind of ['hits', 'misses'] as const) {
        new Counter({
          name: `wfc_${cacheName}_${kind}_total`,
          help: help[kind],
          registers,
          collect() {
            this.reset();
            this.inc(read()[kind]);
          },
        });
      }
    };
    hitsAndMisses('query_cache', cache, {
      hits: 'Kept reads (list pages, totals) answered without a query of their own',
      misses: 'Kept reads that went to the database (all of them while the cache is off or blind)',
    });
    hitsAndMisses('session_cache', sessions, {
      hits: 'Requests whose session was checked from the kept lookup (none of its tables changed since)',
      misses: 'Requests whose session was looked up in the database',
    });
    new Gauge({
      name: 'wfc_query_cache_bytes',
      help: 'Memory the query cache holds, roughly (QUERY_CACHE_MB is its budget)',
      registers,
      collect() {
        this.set(cache().bytes);
      },
    });
    if (!pool) return;
    new Gauge({
      name: 'wfc_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state (busy: running a query or transaction)',
      labelNames: ['state'],
      registers,
      collect() {
        const use = pool();
        this.set({ state: 'busy' }, use.total - use.idle);
        this.set({ state: 'idle' }, use.idle);
      },
    });
    new Gauge({
      name: 'wfc_db_pool_max_connections',
      help: 'Size of the PostgreSQL pool (PG_POOL_SIZE)',
      registers,
      collect() {
        this.set(pool().max);
      },
    });
    new Gauge({
      name: 'wfc_db_pool_waiting_queries',
      help: 'Queries waiting for a free connection of the PostgreSQL pool',
      registers,
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  /** One answered request; `route` is the matched route's pattern. */
  observe(method: string, route: string | undefined, status: number, seconds: number) {
    const labels = { method, route: route ?? 'unmatched', status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  signIn(outcome: SignInOutcome) {
    this.signIns.inc({ outcome });
  }

  retentionPurged(kind: string, rows: number) {
    this.purgedRows.inc({ kind }, rows);
  }

  webhookDelivery(outcome: WebhookOutcome) {
    this.webhookAttempts.inc({ outcome });
  }

  /** Everything, the process's metrics included, in Prometheus's text format. */
  async text(): Promise<{ contentType: string; body: string }> {
    const all = Registry.merge([processMetrics(), this.registry]);
    return { contentType: all.contentType, body: await all.metrics() };
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** Pure: does the Authorization header carry this bearer token? Compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(sha256(sent), sha256(token));
}
