import { DEFAULT_UNEXPECTED_MESSAGE, type FieldError } from '@wfc/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { withAuditContext } from '../audit/context.ts';
import { RefusalLimiter, recordRefusal } from '../audit/refusals.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import type { Services } from '../services.ts';
import { ApiError, zodFieldErrors } from './envelope.ts';
import { API_PREFIX, sessionCookieName } from './routes.ts';

interface PgLikeError {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

/** Drizzle wraps driver errors; the PostgreSQL error (with its SQLSTATE) is somewhere in `cause`. */
export function pgError(err: unknown): PgLikeError | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const c = (e as PgLikeError).code;
    if (typeof c === 'string' && /^[0-9A-Z]{5}$/.test(c)) return e as PgLikeError;
    e = (e as PgLikeError).cause;
  }
  return undefined;
}

/** Constraint name -> the field it guards and the message a user should read. */
const uniqueMessages = new Map<string, FieldError>();
export function registerUniqueMessage(constraint: string, field: string, message: string) {
  uniqueMessages.set(constraint, { field, message });
}

/**
 * Values PostgreSQL refused as data (bad number or date text, out of range, too long, bytes it
 * cannot store): the input's fault, so a 400, never a 500 that would hide a client bug.
 */
const INVALID_INPUT_CODES = new Set(['22P02', '22007', '22008', '22003', '22001', '22021', '22P05']);

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return new ApiError(400, 'Invalid input', zodFieldErrors(err));
  const pge = pgError(err);
  if (pge?.code === '23505') {
    const known = pge.constraint ? uniqueMessages.get(pge.constraint) : undefined;
    return new ApiError(
      409,
      known?.message ?? 'A record with the same value already exists',
      known ? [known] : undefined,
    );
  }
  if (pge?.code === '23503') return new ApiError(409, 'The record is still referenced by other records');
  if (pge?.code && INVALID_INPUT_CODES.has(pge.code)) return new ApiError(400, 'Invalid input');
  // Whatever keeps the database from answering passes: a load balancer retries elsewhere.
  if (databaseUnavailable(err))
    return new ApiError(503, 'Service temporarily unavailable', undefined, { 'Retry-After': '5' });
  const fe = err as FastifyError;
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const messages: Record<number, string> = {
      413: 'Request body is too large',
      415: 'Unsupported media type',
    };
    return new ApiError(
      fe.statusCode,
      messages[fe.statusCode] ?? (fe.statusCode === 400 ? 'Malformed request' : fe.message),
    );
  }
  return new ApiError(500, DEFAULT_UNEXPECTED_MESSAGE);
}

/**
 * Not refusals worth a record of their own: a failed sign-in has its own (LOGIN_FAILED), and the
 * app asks whether anyone is signed in each time it opens, without a session cookie.
 */
const isRoutine = (req: FastifyRequest, cookieName: string) =>
  req.routeOptions.url === `${API_PREFIX}/login` ||
  (req.routeOptions.url === `${API_PREFIX}/GetSession` && !req.cookies?.[cookieName]);

async function recordIfRefused(
  req: FastifyRequest,
  api: ApiError,
  services: Services,
  limiter: RefusalLimiter,
) {
  if (api.statusCode !== 401 && api.statusCode !== 403) return;
  if (isRoutine(req, sessionCookieName(services.config.COOKIE_SECURE))) return;
  const session = req.session;
  try {
    await withAuditContext({ requestId: req.id }, () =>
      recordRefusal(services.db, limiter, {
        status: api.statusCode,
        reason: api.message,
        method: req.method,
        route: (req.routeOptions.url ?? req.url.split('?')[0] ?? '').slice(0, 200),
        ip: req.ip,
        actor: session ? { userCode: session.userCode, username: session.username } : null,
      }),
    );
  } catch (err) {
    // The refusal stands whether or not it could be recorded.
    req.log.error({ err }, 'could not record a refused request');
  }
}

/**
 * More field errors than anyone can read or a screen can mark: a bulk save naming 100,000 unknown
 * cells would otherwise spend a tenth of a second writing them out while every other request waits.
 */
export const MAX_FIELD_ERRORS = 1000;

export function registerErrorHandling(app: FastifyInstance, services: Services) {
  const limiter = new RefusalLimiter();
  app.setErrorHandler(async (err, req, reply) => {
    const api = toApiError(err);
    if (api.statusCode >= 500) req.log.error({ err }, 'request failed');
    await recordIfRefused(req, api, services, limiter);
    if (api.headers) reply.headers(api.headers);
    // docs/product.md section 2: a 400 always says which field; '_' when it is the body as a whole.
    const errors =
      api.errors?.slice(0, MAX_FIELD_ERRORS) ??
      (api.statusCode === 400 ? [{ field: '_', message: api.message }] : undefined);
    return reply.code(api.statusCode).send({
      statusCode: api.statusCode,
      message: api.message,
      ...(api.answer ? { data: api.answer.data } : {}),
      ...(errors ? { errors } : {}),
    });
  });
}
