import { DISABLED_USER_MESSAGE, type SessionTiming, type SessionUser } from '@wfc/contract';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordAudit } from '../audit/recorder.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { loadSessionUser } from '../auth/session-user.ts';
import { createSession, type SessionPolicy, sessionCookieOptions, touchAfterMs } from '../auth/sessions.ts';
import {
  type Attempt,
  attemptSucceeded,
  beginAttempt,
  giveBackAttempt,
  throttleKeys,
} from '../auth/throttle.ts';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { sessionCookieName } from '../http/routes.ts';
import type { Services } from '../services.ts';
import { tellAccountLocked } from '../webhooks/events.ts';

/**
 * The session's timing from this moment on, for the browser's idle warning: the same sums the
 * server makes when it decides whether the session is alive (`sessionAlive`), as durations rather
 * than times, so that a browser whose clock is off still counts down correctly.
 */
export function sessionTiming(
  policy: SessionPolicy,
  times: { createdAt: Date; lastSeenAt: Date },
  now: number,
): SessionTiming {
  return {
    idleMs: Math.floor(policy.idleMs),
    touchIntervalMs: Math.ceil(touchAfterMs(policy)),
    idleExpiresInMs: Math.floor(times.lastSeenAt.getTime() + policy.idleMs - now),
    absoluteExpiresInMs: Math.floor(times.createdAt.getTime() + policy.absoluteMs - now),
  };
}

export const tooManyAttempts = (retryAfter: number) =>
  new ApiError(429, 'Too many failed sign-in attempts; try again later', undefined, {
    'Retry-After': String(retryAfter),
  });

/**
 * Counts an attempt at a secret of the account (a password or a code) on the sign-in throttle's
 * keys, before it is checked; refused with a 429 while a key is blocked.
 */
export async function countAttempt(services: Services, username: string, ip: string): Promise<Attempt> {
  const attempt = await beginAttempt(services.db, throttleKeys(username, ip), services.throttlePolicy);
  if (attempt.retryAfter > 0) {
    services.metrics.signIn('throttled');
    throw tooManyAttempts(attempt.retryAfter);
  }
  return attempt;
}

/**
 * Runs what follows a counted attempt. Only a wrong secret is a failure (`run` calls `failed` once
 * it knows): an attempt the server fails to answer (the database busy or gone) is given back, so
 * that a slow Monday morning of sign-ins through one office address does not use up its allowance.
 */
export async function answeredOrGivenBack<T>(
  services: Services,
  attempt: Attempt,
  run: (failed: () => void) => Promise<T>,
) {
  let wrongSecret = false;
  try {
    return await run(() => {
      wrongSecret = true;
      if (attempt.locksAccount) void tellAccountLocked(services.db, attempt.keys.account);
    });
  } catch (err) {
    if (!wrongSecret && !(err instanceof ApiError && err.statusCode < 500))
      // Best effort: a database that failed the sign-in may fail this too; the window clears it.
      await giveBackAttempt(services.db, attempt).catch(() => undefined);
    throw err;
  }
}

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/**
 * Re-authentication before a sensitive change (ASVS 7.5.1): the signed-in user's password, counted
 * like a sign-in, so a session left open cannot be used to guess it. A wrong one is a 400 on
 * `currentPassword`, audited as a failed sign-in. With `codeFollows` a right one is, as at a
 * sign-in awaiting its second factor, only given back, not a success: a success would start the
 * account's count afresh, and so let a known password wipe out the wrong codes that follow it.
 */
export async function confirmPassword(
  services: Services,
  req: FastifyRequest,
  user: { userCode: string; username: string; passwordHash: string },
  password: string,
  { codeFollows = false }: { codeFollows?: boolean } = {},
) {
  const attempt = await countAttempt(services, user.username, req.ip);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAudit(services.db, {
      action: 'LOGIN_FAILED',
      collection: 'auth',
      after: { username: user.username, ip: req.ip, reason: 'current password' },
      actor: { userCode: user.userCode, username: user.username },
    });
    throw badRequest('Invalid input', [{ field: 'currentPassword', message: WRONG_CURRENT_PASSWORD }]);
  }
  if (codeFollows) await giveBackAttempt(services.db, attempt);
  else await attemptSucceeded(services.db, attempt, services.throttlePolicy);
}

/** `confirmPassword` for the signed-in user, read from their session's user: the account it checked. */
export async function confirmOwnPassword(
  services: Services,
  req: FastifyRequest,
  userCode: string,
  password: string,
) {
  const [account] = await services.db
    .select({ userCode: users.userCode, username: users.username, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.userCode, userCode));
  if (!account) throw new ApiError(401, 'Not signed in');
  await confirmPassword(services, req, account, password);
  return account;
}

export type SignInMethod = 'password' | 'two-factor' | 'single sign-on';

/**
 * Whether the user may sign in: false when it is disabled (or gone). With `lock` the row is
 * share-locked until the transaction ends, so that a concurrent disable waits for the sign-in
 * and then ends the session it made, or the sign-in waits for the disable and sees it.
 */
export async function userActive(db: Executor, userCode: string, { lock = false } = {}) {
  const query = db.select({ active: users.active }).from(users).where(eq(users.userCode, userCode));
  const [row] = lock ? await query.for('share') : await query;
  return row?.active === true;
}

/**
 * The refusal of a sign-in as a disabled user (403), audited as a failed sign-in. Only ever made
 * once the user's secret was verified: to whoever does not know the password, a disabled user
 * looks like any other (a wrong password is the same 401 either way).
 */
export async function disabledRefusal(
  services: Services,
  req: FastifyRequest,
  user: { userCode: string; username: string },
  method: SignInMethod,
) {
  await recordAudit(services.db, {
    action: 'LOGIN_FAILED',
    collection: 'auth',
    after: { username: user.username, ip: req.ip, reason: 'disabled', method },
    actor: user,
  });
  services.metrics.signIn('failure');
  return new ApiError(403, DISABLED_USER_MESSAGE);
}

/** What `startSession`'s transaction answers for a user disabled meanwhile. */
const DISABLED = Symbol('disabled');

/**
 * What every way of signing in ends with: a new session (a fresh id, whatever cookie the client
 * brought), its audit entry and cookie, and the signed-in user with the session's timing.
 */
export async function startSession(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  user: { userCode: string; username: string },
  method: SignInMethod,
): Promise<SessionUser | undefined> {
  const { db, sessionPolicy, config } = services;
  const sessionUser = await db.transaction(async (tx) => {
    // Each way of signing in has refused a disabled user already; this closes the race with a
    // disable made meanwhile.
    if (!(await userActive(tx, user.userCode, { lock: true }))) return DISABLED;
    const id = await createSession(tx, user.userCode, sessionPolicy, {
      ip: req.ip,
      userAgent: req.headers['user-agent'],
    });
    await recordAudit(tx, {
      action: 'LOGIN',
      collection: 'auth',
      after: { username: user.username, ...(method === 'password' ? {} : { method }) },
      actor: user,
    });
    reply.setCookie(sessionCookieName(config.COOKIE_SECURE), id, {
      ...sessionCookieOptions(config.COOKIE_SECURE),
      maxAge: Math.floor(sessionPolicy.absoluteMs / 1000),
    });
    return loadSessionUser(tx, user.userCode);
  });
  if (sessionUser === DISABLED) throw await disabledRefusal(services, req, user, method);
  services.metrics.signIn('success');
  const now = Date.now();
  const fresh = { createdAt: new Date(now), lastSeenAt: new Date(now) };
  return sessionUser && { ...sessionUser, session: sessionTiming(sessionPolicy, fresh, now) };
}
