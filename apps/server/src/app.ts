import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { DestinationStream } from 'pino';
import { authRoutes } from './account/routes.ts';
import type { Config } from './config/config.ts';
import { BODY_LIMIT, registerBodyParsers } from './http/body.ts';
import { registerErrorHandling } from './http/errors.ts';
import { safeLogging } from './http/logging.ts';
import { MULTIPART_LIMITS } from './http/multipart.ts';
import { buildOpenApi } from './http/openapi.ts';
import { echoRequestIds, REQUEST_ID_HEADER, requestIdFor } from './http/request-id.ts';
import { API_PREFIX, type ApiRoute, registerApiRoutes } from './http/routes.ts';
import { API_HEADERS, newNonce, normalisePath, registerSecurity, writeClientError } from './http/security.ts';
import { importRoutes } from './imports/routes.ts';
import { importTemplateRoutes } from './imports/template-routes.ts';
import { operationsRoutes } from './operations/routes.ts';
import { registerStartingGate } from './operations/starting.ts';
import { DEFAULT_WEB_DIST } from './paths.ts';
import { performanceRoutes } from './performance/routes.ts';
import { personalDataRoutes } from './personal-data/routes.ts';
import { registryRoutes } from './resources/index.ts';
import { scimRoutes } from './scim/routes.ts';
import type { Services } from './services.ts';

/** Every API route: the one table that the router, the guard tests and OpenAPI all read. */
export const allRoutes = (): ApiRoute[] => [
  ...authRoutes,
  ...registryRoutes(),
  ...importRoutes(),
  ...importTemplateRoutes(),
  ...performanceRoutes,
  ...personalDataRoutes,
  ...operationsRoutes,
];

/**
 * Log lines: readable and coloured (pino-pretty) when stdout is a terminal, JSON lines otherwise;
 * into `stream` instead when given (tests read them). Every line of a request carries its id.
 */
function loggerOptions(config: Config, stream?: DestinationStream): FastifyServerOptions['logger'] {
  // No secret or personal data in any line: requests by method and path, errors without the
  // values they carry, secret-named fields redacted (http/logging.ts).
  const common = { level: config.LOG_LEVEL, ...safeLogging };
  if (stream) return { ...common, stream };
  if (!process.stdout.isTTY || config.LOG_LEVEL === 'silent') return common;
  return {
    ...common,
    transport: {
      target: 'pino-pretty',
      options: {
        colorize: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,requestId',
        messageFormat: '{if requestId}[{requestId}] {end}{msg}',
      },
    },
  };
}

export interface AppOptions {
  /** Where log lines go instead of stdout, as JSON lines. */
  logStream?: DestinationStream;
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    // Socket-level guard against slow clients; request handlers themselves stay bounded by the DB timeouts.
    requestTimeout: 60_000,
    // Every spelling of a path is routed, checked and logged as one.
    rewriteUrl: (req) => normalisePath(req.url ?? '/'),
    // The client's (or proxy's) X-Request-Id when well formed, else a new UUID: in every log line
    // of the request, in its answer and in the audit entries it makes.
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // The router's own refusals (an over-long path parameter, a malformed URL) in the envelope.
    frameworkErrors: (err, req, reply: FastifyReply) => {
      const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'Request URL is too long' : 'Malformed request URL';
      return reply
        .code(status)
        .headers(API_HEADERS)
        .header(REQUEST_ID_HEADER, req.id)
        .send({
          statusCode: status,
          message,
          ...(status === 400 ? { errors: [{ field: '_', message }] } : {}),
        });
    },
    // Refusals Node makes before any request exists (headers too large, a broken request line).
    clientErrorHandler: writeClientError,
    logger: loggerOptions(config, options.logStream),
  });
  echoRequestIds(app);
  registerStartingGate(app, services.startup);
  app.addHook('onResponse', async (req, reply) => {
    services.metrics.observe(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  await app.register(cookie);
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  registerBodyParsers(app);
  registerSecurity(app, config);
  registerErrorHandling(app, services);
  app.addHook('onClose', () => services.stop());

  const routes = allRoutes();
  registerApiRoutes(app, routes, services);
  // SCIM provisioning: a protocol of its own (RFC 7644), outside the API and its description.
  await scimRoutes(app, services);

  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi(routes) as never } });
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs` });

  const webDist = config.WEB_DIST ?? DEFAULT_WEB_DIST;
  // A resolved WEB_DIST has no trailing slash.
  const indexFile = join(webDist, 'index.html');
  const apiNotFound = (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(404)
      .send({ statusCode: 404, message: `No such endpoint: ${req.method} ${req.url.split('?')[0]}` });
  if (!existsSync(indexFile)) {
    app.setNotFoundHandler(apiNotFound);
  } else {
    const indexHtml = readFileSync(indexFile, 'utf8');
    await app.register(fastifyStatic, {
      root: webDist,
      // The shell carries a nonce placeholder and must never be cached for long: asked for by
      // name, it is refused here and sent by the not-found handler as for any app path.
      allowedPath: (path) => !/^\/index\.html(\.(gz|br))?$/.test(path),
      index: false,
      wildcard: false,
      preCompressed: true,
      maxAge: '1y',
      immutable: true,
    });
    const sendShell = (reply: FastifyReply) => {
      const nonce = newNonce();
      return reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header(
          'Content-Security-Policy',
          [
            "default-src 'self'",
            `script-src 'self' 'nonce-${nonce}'`,
            `style-src 'self' 'nonce-${nonce}'`,
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            `connect-src 'self' ${config.CORS_ORIGINS.join(' ')}`.trim(),
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
          ].join('; '),
        )
        .send(indexHtml.replaceAll('__CSP_NONCE__', nonce));
    };
    app.get('/', (_req, reply) => sendShell(reply));
    app.setNotFoundHandler((req, reply) => {
      if (req.url.startsWith(`${API_PREFIX}/`) || req.method !== 'GET') return apiNotFound(req, reply);
      // The SPA decides unknown paths (it sends them home).
      return sendShell(reply);
    });
  }
  return app;
}
