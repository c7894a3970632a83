import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { pendingMigrations } from '../db/migrate.ts';
import { ApiError } from '../http/envelope.ts';
import { pgError } from '../http/errors.ts';
import { bearerMatches } from '../http/metrics.ts';
import { defineRoute, publicAccess } from '../http/routes.ts';
import { VERSION } from '../version.ts';
import { RETRY_AFTER_SECONDS } from './starting.ts';

/*
 * What operators and their tools call: health checks for process managers and load balancers,
 * and metrics for a Prometheus scraper.
 */

/** Whether the server answers and reaches its database: for load balancers and process managers. */
const healthRoute = defineRoute({
  method: 'GET',
  path: 'health',
  summary: 'Whether the server and its database answer, and which release the server is',
  tag: 'Health',
  access: publicAccess,
  response: z.object({ version: z.string().describe('The release, a semantic version (CHANGELOG.md)') }),
  async handler({ services }) {
    try {
      await services.db.execute(sql`select 1`);
    } catch {
      throw new ApiError(503, 'Database unavailable');
    }
    return { message: 'OK', data: { version: VERSION } };
  },
});

/** For a process manager's liveness probe: the process answers; nothing else is asked. */
const liveRoute = defineRoute({
  method: 'GET',
  path: 'health/live',
  summary: 'Whether the server process answers (liveness)',
  tag: 'Health',
  access: publicAccess,
  async handler() {
    return { message: 'OK' };
  },
});

const notReady = (message: string) => new ApiError(503, message, undefined, { 'Retry-After': '5' });

/**
 * For a load balancer's readiness probe: the server has finished starting (migrations, demo data),
 * and the database answers and holds every migration this build carries (an instance started
 * against a database another, older build migrated is not).
 */
const readyRoute = defineRoute({
  method: 'GET',
  path: 'health/ready',
  summary:
    'Whether the server can serve: started, and its database answers and has every migration applied (readiness)',
  tag: 'Health',
  access: publicAccess,
  answers: {
    503: 'Not ready: the server is starting, or the database is unreachable or lacks migrations; see Retry-After',
  },
  async handler({ reply, services }) {
    // While it starts the database is busy being prepared: what is happening is the answer, and
    // an expected one, not an error to log at every probe.
    const phase = services.startup.phase;
    if (phase !== undefined) {
      await reply
        .code(503)
        .header('Retry-After', RETRY_AFTER_SECONDS)
        .send({ statusCode: 503, message: `Starting: ${phase}` });
      return undefined;
    }
    let pending: string[];
    try {
      pending = await pendingMigrations(services.db);
    } catch (err) {
      // 42P01: no such table, so a database that was never migrated.
      if (pgError(err)?.code === '42P01') {
        throw notReady('Database migrations not applied');
      }
      throw notReady('Database unavailable');
    }
    if (pending.length) {
      throw notReady(`Database migrations not applied: ${pending.length} pending (${pending.join(', ')})`);
    }
    return { message: 'Ready' };
  },
});

/**
 * For a Prometheus scraper holding METRICS_TOKEN. Without the token configured, or with a wrong
 * one, the answer is the very 404 of an unknown path, so a prober cannot tell metrics are on.
 */
const metricsRoute = defineRoute({
  method: 'GET',
  path: 'metrics',
  summary: 'Prometheus metrics in the text format; send `Authorization: Bearer` with METRICS_TOKEN',
  tag: 'Operations',
  access: publicAccess,
  produces: 'text/plain',
  answers: {
    404: 'METRICS_TOKEN is not set, or the bearer token is missing or wrong: the same answer as an unknown path',
  },
  async handler({ req, reply, services }) {
    const token = services.config.METRICS_TOKEN;
    if (!token || !bearerMatches(req.headers.authorization, token)) {
      throw new ApiError(404, `No such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    }
    const { contentType, body } = await services.metrics.text();
    await reply.code(200).header('Content-Type', contentType).send(body);
    return undefined;
  },
});

export const operationsRoutes = [healthRoute, liveRoute, readyRoute, metricsRoute];
