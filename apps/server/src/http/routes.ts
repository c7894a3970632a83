import { API_TOKEN_MESSAGES, MFA_SETUP_REQUIRED_MESSAGE } from '@wfc/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType, z } from 'zod';
import { withAuditContext } from '../audit/context.ts';
import type { AuditActor } from '../audit/recorder.ts';
import { addressAllowed, bearerToken, resolveApiToken, TokenRateLimiter } from '../auth/api-tokens.ts';
import { type ActiveSession, resolveSession, sessionCookieOptions } from '../auth/sessions.ts';
import type { Services } from '../services.ts';
import { ApiError, zodFieldErrors } from './envelope.ts';
import type { UploadedFile, UploadLimit } from './multipart.ts';
import { readMultipart } from './multipart.ts';

/** What a route needs: every route must say, so nothing is open by accident. */
export type Access =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'any'; permissions: readonly string[] }
  | { kind: 'all'; permissions: readonly string[] };

type PublicAccess = Extract<Access, { kind: 'public' }>;
type GuardedAccess = Exclude<Access, PublicAccess>;

export const publicAccess: PublicAccess = { kind: 'public' };
export const sessionAccess: GuardedAccess = { kind: 'session' };
export const anyOf = (...permissions: readonly string[]): GuardedAccess => ({ kind: 'any', permissions });
export const allOf = (...permissions: readonly string[]): GuardedAccess => ({ kind: 'all', permissions });

/** Pure: may a holder of `held` call a route guarded by `access`? */
export function allows(access: Access, held: ReadonlySet<string> | null): boolean {
  if (access.kind === 'public') return true;
  if (!held) return false;
  if (access.kind === 'session') return true;
  if (access.kind === 'any') return access.permissions.some((p) => held.has(p));
  return access.permissions.every((p) => held.has(p));
}

export interface RouteContext<B = unknown, Q = unknown> {
  req: FastifyRequest;
  reply: FastifyReply;
  session: ActiveSession | null;
  actor: AuditActor | null;
  body: B;
  query: Q;
  /** Files of a multipart body. */
  files?: UploadedFile[];
  services: Services;
}

/** What a route that needs a session sees: the access check has already refused anyone without one. */
export interface SessionContext<B = unknown, Q = unknown> extends RouteContext<B, Q> {
  session: ActiveSession;
  actor: AuditActor;
}

/** A public route may be called without a session; every other route is given one. */
type ContextFor<A extends Access, B, Q> = [A] extends [GuardedAccess]
  ? SessionContext<B, Q>
  : RouteContext<B, Q>;

/**
 * An answer's data as JSON text the database wrote, sent as it is: parsing it into objects only to
 * write them out again cost a year-long trend (15 KB) a fifth of its time in the server.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface HandlerResult {
  message: string;
  data?: unknown;
  total?: number;
}

/** The envelope of a successful answer, written around data that is already JSON. */
export const envelopeText = ({ message, data, total }: HandlerResult & { data: JsonText }) =>
  `{"statusCode":200,"message":${JSON.stringify(message)},"data":${data.text}${total === undefined ? '' : `,"total":${total}`}}`;

export interface ApiRoute<
  B extends ZodType = ZodType,
  Q extends ZodType = ZodType,
  A extends Access = Access,
> {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  tag: string;
  access: A;
  body?: B;
  query?: Q;
  /** Multipart bodies are parsed by the handler itself (files). */
  multipart?: boolean;
  /** A multipart route's file, where it is not a profile picture (an imported spreadsheet). */
  upload?: UploadLimit;
  /** Bytes, for the few routes whose bodies are bulk data; otherwise the app's limit. */
  bodyLimit?: number;
  /**
   * Whether the route writes (by default: POST does, GET does not). A writing route waits, before
   * it answers, until this instance has seen the changes it committed, so that its client's next
   * read is not served from what was cached before them.
   */
  changes?: boolean;
  /**
   * What a success's `data` holds, for the API description: a record, or with `listed` a page of
   * records beside `total`. Routes that answer something other than JSON name its media type.
   */
  response?: ZodType;
  listed?: boolean;
  /** What a list's items are for a caller who may only pick from it (a selector's options). */
  lookup?: ZodType;
  /** The sort fields a list accepts besides `_id`, for the description. */
  sortFields?: readonly string[];
  /**
   * A success that is not the JSON envelope: a file download (`spreadsheet`: CSV or XLSX, as the
   * route's `format` parameter asks), an image or metrics.
   */
  produces?: 'text/csv' | 'spreadsheet' | 'image/*' | 'text/plain' | 'application/zip';
  /**
   * Refusals this route gives besides those its declaration implies, or with a meaning of its
   * own, for the API description: status and what it means here.
   */
  answers?: Readonly<Partial<Record<number, string>>>;
  /**
   * Open to a session whose role requires a second factor the user has not set up yet (setting it
   * up, the session itself, sign-out); every other route refuses such a session with a 403.
   */
  duringMfaSetup?: boolean;
  /**
   * Refused (403) to an API token: calls about a person's own account and sessions, users'
   * sign-in security (passwords, second factors, sessions, single sign-on links), and tokens
   * themselves. A token that could mint tokens or reset a sign-in would outlive its revocation.
   */
  sessionOnly?: boolean;
  /**
   * Completes the body before it is parsed, from what is stored (an edit by someone who cannot
   * see some fields keeps them as they are). Runs after the access check.
   */
  prepareBody?(body: unknown, ctx: { session: ActiveSession | null; services: Services }): Promise<unknown>;
  /** Returns the envelope's message and data, or nothing when it wrote the reply itself. */
  handler(ctx: ContextFor<A, z.output<B>, z.output<Q>>): Promise<HandlerResult | undefined>;
}

/**
 * Types a route's handler by its schemas and access, then erases them for the route table: the
 * registrar parses body and query with those very schemas and refuses a missing session before
 * the handler runs, which is what makes the handler's types true.
 */
export const defineRoute = <
  B extends ZodType = ZodType,
  Q extends ZodType = ZodType,
  A extends Access = Access,
>(
  r: ApiRoute<B, Q, A>,
) => r as unknown as ApiRoute;

export const API_PREFIX = '/api';

export function sessionCookieName(secure: boolean) {
  return secure ? '__Host-sid' : 'sid';
}

/** Removes the session cookie with the attributes it was set with (else browsers keep it). */
export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(sessionCookieName(secure), sessionCookieOptions(secure));
}

function parseWith(schema: ZodType | undefined, value: unknown): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new ApiError(400, 'Invalid input', zodFieldErrors(parsed.error));
  return parsed.data;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a route's access check, before any body is read: null when not signed in. */
    session: ActiveSession | null;
  }
}

/** One bucket per token, per app instance (auth/api-tokens.ts says why in memory). */
const tokenLimiters = new WeakMap<Services, TokenRateLimiter>();
function tokenLimiter(services: Services): TokenRateLimiter {
  let limiter = tokenLimiters.get(services);
  if (!limiter) {
    limiter = new TokenRateLimiter(services.config.API_TOKEN_RATE_PER_MINUTE);
    tokenLimiters.set(services, limiter);
  }
  return limiter;
}

/**
 * A call with `Authorization: Bearer`: the token stands for the caller, with its role's
 * permissions. Both a cookie and a token is refused rather than one silently chosen: whoever
 * sent both cannot know whose rights the call would have. SCIM provisioning (scim/) checks its
 * calls with it too.
 */
export async function tokenCheck(
  route: Pick<ApiRoute, 'access' | 'sessionOnly'>,
  services: Services,
  req: FastifyRequest,
  secret: string,
  sid?: string,
) {
  if (sid) throw new ApiError(400, API_TOKEN_MESSAGES.both);
  const principal = await resolveApiToken(services.db, secret, new Date(), services.sessions);
  if (!principal) throw new ApiError(401, API_TOKEN_MESSAGES.invalid);
  if (principal.apiToken.creatorDisabled) throw new ApiError(403, API_TOKEN_MESSAGES.creatorDisabled);
  req.session = principal;
  // The address as the app computes it everywhere: only a trusted proxy's X-Forwarded-For counts.
  if (!addressAllowed(principal.apiToken.allowedAddresses, req.ip)) {
    throw new ApiError(403, API_TOKEN_MESSAGES.address);
  }
  // Counted before the permission check: refused calls cost the server too.
  const wait = tokenLimiter(services).take(principal.apiToken.tokenCode);
  if (wait > 0)
    throw new ApiError(429, API_TOKEN_MESSAGES.rateLimited, undefined, { 'Retry-After': String(wait) });
  if (route.sessionOnly) throw new ApiError(403, API_TOKEN_MESSAGES.sessionOnly);
  if (!allows(route.access, principal.permissions)) {
    throw new ApiError(403, 'You do not have permission to do this');
  }
}

/**
 * Who may call the route is decided in `onRequest`, before the body is read or parsed: an
 * anonymous or unauthorised client cannot make the server parse (or even receive) a large body.
 * A public route never reads a bearer token (`/api/metrics` has a bearer of its own).
 */
function accessCheck(route: ApiRoute, services: Services, cookieName: string) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const sid = req.cookies?.[cookieName];
    const bearer = route.access.kind === 'public' ? undefined : bearerToken(req.headers.authorization);
    if (bearer !== undefined) return tokenCheck(route, services, req, bearer, sid);
    const { db, sessionPolicy, sessions } = services;
    const session = (sid && (await resolveSession(db, sid, sessionPolicy, new Date(), sessions))) || null;
    req.session = session;
    if (!session && route.access.kind !== 'public') {
      if (sid) clearSessionCookie(reply, services.config.COOKIE_SECURE);
      throw new ApiError(401, 'Not signed in');
    }
    if (session?.mfaSetupRequired && !route.duringMfaSetup) {
      throw new ApiError(403, MFA_SETUP_REQUIRED_MESSAGE);
    }
    if (!allows(route.access, session?.permissions ?? null)) {
      throw new ApiError(403, 'You do not have permission to do this');
    }
  };
}

export function registerApiRoutes(app: FastifyInstance, routes: readonly ApiRoute[], services: Services) {
  const cookieName = sessionCookieName(services.config.COOKIE_SECURE);
  app.decorateRequest('session', null);
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route declared twice: ${key}`);
    seen.add(key);
    if (!route.access) throw new Error(`Route without access rule: ${key}`);
    app.route({
      method: route.method,
      url: `${API_PREFIX}/${route.path}`,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      onRequest: accessCheck(route, services, cookieName),
      handler: async (req, reply) => {
        const session = req.session;
        const multipart =
          route.multipart && req.isMultipart() ? await readMultipart(req, route.upload) : undefined;
        const sent = multipart ? multipart.fields : req.body;
        const body = route.prepareBody ? await route.prepareBody(sent, { session, services }) : sent;
        const ctx: RouteContext = {
          req,
          reply,
          session,
          actor: session ? { userCode: session.userCode, username: session.username } : null,
          body: parseWith(route.body, body),
          files: multipart?.files,
          query: parseWith(route.query, req.query),
          services,
        };
        const settles = route.changes ?? route.method === 'POST';
        let result: HandlerResult | undefined;
        try {
          // Every audit entry the handler records names this request (audit/context.ts).
          result = await withAuditContext({ requestId: req.id }, () => route.handler(ctx));
        } finally {
          if (settles) await services.settle();
        }
        if (!result) return reply;
        if (result.data instanceof JsonText) {
          return reply
            .code(200)
            .type('application/json; charset=utf-8')
            .send(envelopeText({ ...result, data: result.data }));
        }
        return reply.code(200).send({
          statusCode: 200,
          message: result.message,
          data: result.data,
          ...(result.total === undefined ? {} : { total: result.total }),
        });
      },
    });
  }
}
