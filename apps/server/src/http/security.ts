import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_TOKEN_PREFIX } from '@wfc/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/api-tokens.ts';
import type { Config } from '../config/config.ts';
import { ApiError } from './envelope.ts';
import { API_PREFIX } from './routes.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sign-out is a GET yet ends the session: a foreign page must not trigger it. */
const STATE_CHANGING_GETS = new Set([`${API_PREFIX}/logout`]);

/**
 * Pure: does this request change state, so that a cross-site origin must be refused? `route` is
 * the matched route's pattern, not the URL as sent: the router decodes percent-escapes, so a test
 * on the raw URL could be passed by spelling the same path another way.
 */
export const changesState = (method: string, route: string | undefined) =>
  !SAFE_METHODS.has(method) || (route !== undefined && STATE_CHANGING_GETS.has(route));

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Pure: the path with percent-escapes of unreserved characters decoded (RFC 3986 section 6.2.2.2),
 * so that every spelling of a path reaches the router, the API headers and the logs as one.
 * Other escapes are kept, with upper-case hex; the query string is left as it is.
 */
export function normalisePath(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes('%')) return url;
  const normal = path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
  return q === -1 ? normal : normal + url.slice(q);
}

/** Pure: is this (normalised) path the API's, whose answers are data and carry the API headers? */
export const isApiPath = (url: string) =>
  url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/**
 * Pure: should a state-changing request be refused as cross-site? The browser says so through
 * Sec-Fetch-Site, or an Origin that is neither ours nor on the allow-list.
 */
export function isCrossSite(
  changes: boolean,
  headers: { origin?: string; host?: string; 'sec-fetch-site'?: string },
  allowed: readonly string[],
  protocol: string,
): boolean {
  if (!changes) return false;
  const origin = headers.origin;
  if (origin && allowed.includes(origin)) return false;
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  if (origin && origin !== 'null') {
    return origin !== `${protocol}://${headers.host}`;
  }
  return origin === 'null';
}

/**
 * Pure: an API token call, which the cross-site check leaves alone: it carries no ambient
 * credential (a browser adds no Authorization header by itself, and a foreign page cannot set one
 * without a CORS preflight, which allows no such header), so it cannot be forged. With any cookie
 * it is checked as a browser's request.
 */
export const isTokenCall = (headers: { cookie?: string; authorization?: string }) =>
  !headers.cookie && (bearerToken(headers.authorization)?.startsWith(API_TOKEN_PREFIX) ?? false);

/** For answers that are data, not documents: nothing in them may load or run anything. */
const DENY_ALL_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Swagger UI loads its own scripts and styles and sets inline style attributes. */
const DOCS_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function registerSecurity(app: FastifyInstance, config: Config) {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin && config.CORS_ORIGINS.includes(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Allow-Credentials', 'true');
      reply.header('Vary', 'Origin');
      if (req.method === 'OPTIONS') {
        reply.header('Access-Control-Allow-Methods', 'GET, POST');
        reply.header('Access-Control-Allow-Headers', 'Content-Type');
        reply.header('Access-Control-Max-Age', '600');
        return reply.code(204).send();
      }
    }
    // Every state-changing request is checked, whatever its path: one that no route serves is
    // refused below anyway, and no spelling of a path can slip past a test on its prefix.
    if (
      !isTokenCall(req.headers) &&
      isCrossSite(
        changesState(req.method, req.routeOptions.url),
        req.headers as Record<string, string>,
        config.CORS_ORIGINS,
        req.protocol,
      )
    ) {
      throw new ApiError(403, 'Cross-site request refused');
    }
    // A write to no route is answered before its body is read.
    if (req.is404 && !SAFE_METHODS.has(req.method)) {
      throw new ApiError(404, `No such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (config.COOKIE_SECURE)
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const json = String(reply.getHeader('Content-Type') ?? '').startsWith('application/json');
    if (isApiPath(req.url) || json) {
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
      reply.header(
        'Content-Security-Policy',
        req.url.startsWith(`${API_PREFIX}/docs`) ? DOCS_CSP : DENY_ALL_CSP,
      );
    } else if (!reply.hasHeader('Content-Security-Policy')) {
      // Scripts, styles and images of the web app: the HTML shell sets its own policy.
      reply.header('Content-Security-Policy', DENY_ALL_CSP);
    }
    return payload;
  });
}

/** What every API answer carries; the hooks add the same to routed answers. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': DENY_ALL_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  HPE_URI_TOO_LONG: [414, 'Request URL is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
};

/**
 * Node refuses some requests before Fastify sees them; they get the envelope and the API
 * headers like any other answer, then the connection is closed as Node would.
 */
export function writeClientError(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Malformed request'];
  const body = JSON.stringify({
    statusCode: status,
    message,
    ...(status === 400 ? { errors: [{ field: '_', message }] } : {}),
  });
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(API_HEADERS).map(([name, value]) => `${name}: ${value}`),
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(err);
}

/** A per-response nonce for the HTML shell's CSP. */
export const newNonce = () => randomBytes(16).toString('base64');
