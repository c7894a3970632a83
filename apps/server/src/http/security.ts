import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.ts';
import { API_PREFIX } from './routes.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sign-out is a GET (SPEC.md section 7) yet ends the session: a foreign page must not trigger it. */
const STATE_CHANGING_GETS = new Set([`${API_PREFIX}/logout`]);

/** Pure: does this request change state, so that a cross-site origin must be refused? */
export const changesState = (method: string, path: string) =>
  !SAFE_METHODS.has(method) || STATE_CHANGING_GETS.has(path);

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
    if (
      req.url.startsWith(`${API_PREFIX}/`) &&
      isCrossSite(
        changesState(req.method, req.url.split('?')[0]),
        req.headers as Record<string, string>,
        config.CORS_ORIGINS,
        req.protocol,
      )
    ) {
      return reply.code(403).send({ statusCode: 403, message: 'Cross-site request refused' });
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (config.COOKIE_SECURE)
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (req.url.startsWith(`${API_PREFIX}/`)) {
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

/** A per-response nonce for the HTML shell's CSP. */
export const newNonce = () => randomBytes(16).toString('base64');
