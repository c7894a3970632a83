import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../http/routes.ts';
import { isApiPath } from '../http/security.ts';

/*
 * The server listens as soon as it can, before its database is migrated and loaded: a probe then
 * meets a 503 that says what is happening instead of a closed port. Until the database is ready,
 * one gate answers every request but the health checks with 503 and Retry-After, so that nothing
 * is ever served from a schema half migrated or a database half loaded.
 */

/** What the server is doing before it can serve; nothing once it serves. */
export class Startup {
  #phase: string | undefined;

  /** Without a phase the server serves at once (tests, tools that prepare the database first). */
  constructor(phase?: string) {
    this.#phase = phase;
  }

  /** 'migrating the database', 'loading demo data', ...; undefined once the server serves. */
  get phase(): string | undefined {
    return this.#phase;
  }

  set(phase: string) {
    this.#phase = phase;
  }

  ready() {
    this.#phase = undefined;
  }
}

export const STARTING_MESSAGE = 'Starting: the database is being prepared';
export const RETRY_AFTER_SECONDS = '5';

/** The probes that answer for themselves while the server starts: liveness 200, readiness 503. */
const OPEN_WHILE_STARTING = new Set([`${API_PREFIX}/health/live`, `${API_PREFIX}/health/ready`]);

/** A browser opening the console meanwhile gets a page that reloads itself, not JSON. */
const STARTING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<title>Workforce Console is starting</title></head>
<body><h1>Workforce Console is starting</h1>
<p>The database is being prepared; on a first start this includes the demo data and takes a few seconds. This page reloads by itself.</p></body></html>
`;

const wantsPage = (req: FastifyRequest) =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  !isApiPath(req.url) &&
  String(req.headers.accept ?? '').includes('text/html');

/** Pure: whether a request, by the route it matched, must wait for the database. */
export const waitsForStart = (route: string | undefined) => !OPEN_WHILE_STARTING.has(route ?? '');

/** The one gate: before every other hook reads a session or a body, while the server starts. */
export function registerStartingGate(app: FastifyInstance, startup: Startup) {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (startup.phase === undefined || !waitsForStart(req.routeOptions.url)) return;
    reply.code(503).header('Retry-After', RETRY_AFTER_SECONDS);
    if (wantsPage(req)) return reply.type('text/html; charset=utf-8').send(STARTING_PAGE);
    return reply.send({ statusCode: 503, message: STARTING_MESSAGE });
  });
}
