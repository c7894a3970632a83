import { type SessionTiming, sessionUserSchema } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit/recorder.ts';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords.ts';
import { loadSessionUser } from '../auth/session-user.ts';
import {
  createSession,
  revokeSession,
  type SessionPolicy,
  sessionCookieOptions,
  touchAfterMs,
} from '../auth/sessions.ts';
import { attemptSucceeded, beginAttempt, throttleKeys } from '../auth/throttle.ts';
import { sessions, users } from '../db/schema/index.ts';
import { ApiError } from '../http/envelope.ts';
import { defineRoute, publicAccess, sessionAccess, sessionCookieName } from '../http/routes.ts';

const loginBody = z.object({
  username: z.string({ error: 'Username is required' }).max(200, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).max(200, 'Password is too long'),
});

const INVALID_LOGIN = 'Invalid username or password';

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

export const authRoutes = [
  defineRoute({
    method: 'POST',
    path: 'login',
    summary: 'Sign in; sets the session cookie and returns the user with its role and permissions',
    tag: 'Auth',
    access: publicAccess,
    response: sessionUserSchema,
    // Anyone may call it, so nobody may make it read much: a name and a password fit many times over.
    bodyLimit: 16 * 1024,
    body: loginBody,
    async handler({ body, req, reply, services }) {
      const { db, throttlePolicy, sessionPolicy, config } = services;
      // Counted before the password is checked: a burst in flight cannot outrun the count.
      const attempt = await beginAttempt(db, throttleKeys(body.username, req.ip), throttlePolicy);
      if (attempt.retryAfter > 0) {
        services.metrics.signIn('throttled');
        throw new ApiError(429, 'Too many failed sign-in attempts; try again later', undefined, {
          'Retry-After': String(attempt.retryAfter),
        });
      }
      const [user] = await db
        .select({ userCode: users.userCode, username: users.username, passwordHash: users.passwordHash })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${body.username.trim()})`);
      const ok = user
        ? await verifyPassword(user.passwordHash, body.password)
        : await burnPasswordCheck(body.password);
      if (!user || !ok) {
        // The attempt stays counted: that is the failure.
        await recordAudit(db, {
          action: 'LOGIN_FAILED',
          collection: 'auth',
          after: { username: body.username.slice(0, 100), ip: req.ip },
          actor: user ? { userCode: user.userCode, username: user.username } : null,
        });
        services.metrics.signIn('failure');
        throw new ApiError(401, INVALID_LOGIN);
      }
      const sessionUser = await db.transaction(async (tx) => {
        // A fresh id at every sign-in: a planted cookie never becomes a signed-in session.
        const id = await createSession(tx, user.userCode, sessionPolicy, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        const actor = { userCode: user.userCode, username: user.username };
        await recordAudit(tx, {
          action: 'LOGIN',
          collection: 'auth',
          after: { username: user.username },
          actor,
        });
        reply.setCookie(sessionCookieName(config.COOKIE_SECURE), id, {
          ...sessionCookieOptions(config.COOKIE_SECURE),
          maxAge: Math.floor(sessionPolicy.absoluteMs / 1000),
        });
        return loadSessionUser(tx, user.userCode);
      });
      await attemptSucceeded(db, attempt, throttlePolicy);
      services.metrics.signIn('success');
      const now = Date.now();
      const fresh = { createdAt: new Date(now), lastSeenAt: new Date(now) };
      return {
        message: 'Logged in successfully',
        data: sessionUser && { ...sessionUser, session: sessionTiming(sessionPolicy, fresh, now) },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'logout',
    summary: 'Sign out: revokes the session and clears the cookie',
    tag: 'Auth',
    access: sessionAccess,
    changes: true,
    async handler({ session, actor, reply, services }) {
      await services.db.transaction(async (tx) => {
        await revokeSession(tx, session.idHash);
        await recordAudit(tx, {
          action: 'LOGOUT',
          collection: 'auth',
          after: { username: actor.username },
          actor,
        });
      });
      const secure = services.config.COOKIE_SECURE;
      reply.clearCookie(sessionCookieName(secure), sessionCookieOptions(secure));
      return { message: 'Logged out successfully' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetSession',
    summary: 'The signed-in user, as the login answer gives it, with the session timing',
    tag: 'Auth',
    access: sessionAccess,
    response: sessionUserSchema,
    async handler({ session, services }) {
      const [user, [times]] = await Promise.all([
        loadSessionUser(services.db, session.userCode),
        // Read after the request's own touch: the idle expiry this call has just extended.
        services.db
          .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
          .from(sessions)
          .where(eq(sessions.idHash, session.idHash)),
      ]);
      return {
        message: 'Session fetched successfully',
        data:
          user && times
            ? { ...user, session: sessionTiming(services.sessionPolicy, times, Date.now()) }
            : user,
      };
    },
  }),
];
