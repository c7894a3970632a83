import { loginAnswerSchema, sessionUserSchema } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit/recorder.ts';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords.ts';
import { loadSessionUser } from '../auth/session-user.ts';
import { revokeSession } from '../auth/sessions.ts';
import { attemptSucceeded, giveBackAttempt } from '../auth/throttle.ts';
import { sessions, users } from '../db/schema/index.ts';
import { ApiError } from '../http/envelope.ts';
import { clearSessionCookie, defineRoute, publicAccess, sessionAccess } from '../http/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { apiTokenRoutes } from './api-tokens.ts';
import { mfaEnabled, mfaRoutes, openChallenge } from './mfa.ts';
import { myAccountRoutes } from './my-account.ts';
import { oidcRoutes } from './oidc.ts';
import {
  answeredOrGivenBack,
  countAttempt,
  disabledRefusal,
  sessionTiming,
  startSession,
} from './sign-in.ts';
import { ssoIdentityRoutes } from './sso-identities.ts';
import { userSecurityRoutes } from './user-security.ts';

const loginBody = z.object({
  username: z.string({ error: 'Username is required' }).max(200, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).max(200, 'Password is too long'),
});

const INVALID_LOGIN = 'Invalid username or password';

const signInRoutes = [
  defineRoute({
    method: 'POST',
    path: 'login',
    summary: 'Sign in; sets the session cookie and returns the user with its role and permissions',
    tag: 'Auth',
    access: publicAccess,
    response: loginAnswerSchema,
    // Anyone may call it, so nobody may make it read much: a name and a password fit many times over.
    bodyLimit: 16 * 1024,
    body: loginBody,
    async handler({ body, req, reply, services }) {
      const { db, throttlePolicy } = services;
      // Counted before the password is checked: a burst in flight cannot outrun the count.
      const attempt = await countAttempt(services, body.username, req.ip);
      return answeredOrGivenBack(services, attempt, async (failed) => {
        const [user] = await db
          .select({
            userCode: users.userCode,
            username: users.username,
            passwordHash: users.passwordHash,
            active: users.active,
          })
          .from(users)
          .where(sql`lower(${users.username}) = lower(${body.username.trim()})`);
        const ok = user
          ? await verifyPassword(user.passwordHash, body.password)
          : await burnPasswordCheck(body.password);
        if (!user || !ok) {
          // The attempt stays counted: that is the failure.
          failed();
          await recordAudit(db, {
            action: 'LOGIN_FAILED',
            collection: 'auth',
            after: { username: body.username.slice(0, 100), ip: req.ip },
            actor: user ? { userCode: user.userCode, username: user.username } : null,
          });
          services.metrics.signIn('failure');
          throw new ApiError(401, INVALID_LOGIN);
        }
        const account = { userCode: user.userCode, username: user.username };
        if (!user.active) {
          // The password was right: no failure to count, and no sign-in either.
          await giveBackAttempt(db, attempt);
          throw await disabledRefusal(services, req, account, 'password');
        }
        if (await mfaEnabled(db, user.userCode)) {
          // The password is no failure, but no sign-in either until the second factor (VerifyMfa).
          await giveBackAttempt(db, attempt);
          await openChallenge(services, reply, user.userCode);
          return { message: 'Enter the code from your authenticator app', data: { mfaRequired: true } };
        }
        const sessionUser = await startSession(services, req, reply, account, 'password');
        await attemptSucceeded(db, attempt, throttlePolicy);
        return { message: 'Logged in successfully', data: sessionUser };
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'logout',
    summary: 'Sign out: revokes the session and clears the cookie',
    tag: 'Auth',
    access: sessionAccess,
    sessionOnly: true,
    duringMfaSetup: true,
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
      clearSessionCookie(reply, services.config.COOKIE_SECURE);
      return { message: 'Logged out successfully' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetSession',
    summary: 'The signed-in user, as the login answer gives it, with the session timing',
    tag: 'Auth',
    access: sessionAccess,
    sessionOnly: true,
    duringMfaSetup: true,
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

export const authRoutes = [
  ...signInRoutes,
  ...mfaRoutes,
  ...oidcRoutes,
  ...myAccountRoutes,
  ...userSecurityRoutes,
  ...ssoIdentityRoutes,
  ...apiTokenRoutes,
  ...webhookRoutes,
];
