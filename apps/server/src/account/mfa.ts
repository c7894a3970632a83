import {
  confirmMfaEnrollmentSchema,
  disableMfaSchema,
  mfaEnrollmentSchema,
  recoveryCodesSchema,
  sessionUserSchema,
  startMfaEnrollmentSchema,
  verifyMfaSchema,
} from '@wfc/contract';
import { and, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordAudit } from '../audit/recorder.ts';
import { loadSecretKey, open, type SecretKey, seal } from '../auth/secret-box.ts';
import { hashSessionId, newSessionId, sessionCookieOptions } from '../auth/sessions.ts';
import { type Attempt, attemptSucceeded, giveBackAttempt } from '../auth/throttle.ts';
import { hashRecoveryCode, matchTotp, newRecoveryCodes, newTotpSecret, otpauthUrl } from '../auth/totp.ts';
import type { Executor } from '../db/client.ts';
import { mfaChallenges, mfaRecoveryCodes, roles, userMfa, users } from '../db/schema/index.ts';
import { ApiError, badRequest, conflict } from '../http/envelope.ts';
import { defineRoute, publicAccess, sessionAccess } from '../http/routes.ts';
import type { Services } from '../services.ts';
import { recordAccountEvent } from './events.ts';
import {
  answeredOrGivenBack,
  confirmPassword,
  countAttempt,
  disabledRefusal,
  startSession,
  userActive,
} from './sign-in.ts';

/** How long the second step of a sign-in may wait after the password. */
export const MFA_CHALLENGE_MS = 5 * 60_000;

const keys = new WeakMap<Services['config'], Promise<SecretKey | undefined>>();

/** The key TOTP secrets are sealed with; a 503 where none is configured (PostgreSQL without SECRET_KEY). */
async function secretKey(services: Services): Promise<SecretKey> {
  let key = keys.get(services.config);
  if (!key) {
    key = loadSecretKey(services.config);
    keys.set(services.config, key);
  }
  const loaded = await key;
  if (!loaded) {
    throw new ApiError(503, 'Two-factor sign-in is not available: SECRET_KEY is not set on this server');
  }
  return loaded;
}

const challengeCookieName = (secure: boolean) => (secure ? '__Host-wfc-mfa' : 'wfc-mfa');

type CodeField = 'code' | 'recoveryCode';

const invalidCode = (field: CodeField) =>
  badRequest('Invalid input', [
    {
      field,
      message: field === 'code' ? 'This code is not valid' : 'This recovery code is not valid or was used',
    },
  ]);

/**
 * Checks a code of the account's second factor (or a recovery code) as a password is checked:
 * counted on the sign-in throttle's keys first, so that wrong codes meet the same limit wherever
 * they are tried (six digits are guessed far sooner than a password), and a wrong one stays
 * counted and is audited as a failed sign-in. `accept` checks the code and may make the change it
 * allows. Answers the attempt, for the caller to mark a success, or undefined for a wrong code.
 */
async function countedCode(
  services: Services,
  req: FastifyRequest,
  user: { userCode: string; username: string },
  field: CodeField,
  accept: () => Promise<boolean>,
): Promise<Attempt | undefined> {
  const attempt = await countAttempt(services, user.username, req.ip);
  // A check the server fails to answer (its database busy or gone) is given back, as a sign-in's is.
  return answeredOrGivenBack(services, attempt, async (failed) => {
    if (await accept()) return attempt;
    failed();
    await recordAudit(services.db, {
      action: 'LOGIN_FAILED',
      collection: 'auth',
      after: {
        username: user.username,
        ip: req.ip,
        reason: field === 'code' ? 'two-factor code' : 'recovery code',
      },
      actor: { userCode: user.userCode, username: user.username },
    });
    return undefined;
  });
}

async function accountOf(db: Executor, userCode: string) {
  const [user] = await db
    .select({
      userCode: users.userCode,
      username: users.username,
      passwordHash: users.passwordHash,
      requireMfa: roles.requireMfa,
    })
    .from(users)
    .innerJoin(roles, eq(roles.roleCode, users.roleCode))
    .where(eq(users.userCode, userCode));
  if (!user) throw new ApiError(401, 'Not signed in');
  return user;
}

/** Whether the user signs in with a second factor (an enrolment awaiting its first code does not count). */
export async function mfaEnabled(db: Executor, userCode: string): Promise<boolean> {
  const [row] = await db
    .select({ userCode: userMfa.userCode })
    .from(userMfa)
    .where(and(eq(userMfa.userCode, userCode), isNotNull(userMfa.enabledAt)));
  return row !== undefined;
}

/**
 * Accepts a code of the user's second factor once: the step it belongs to is stored by a
 * conditional update, so the same code (or an older one) fails afterwards, on any instance.
 * `pending`: the code of an enrolment not yet confirmed.
 */
async function acceptCode(
  db: Executor,
  key: SecretKey,
  userCode: string,
  code: string,
  pending = false,
): Promise<boolean> {
  const state = pending ? isNull(userMfa.enabledAt) : isNotNull(userMfa.enabledAt);
  const [row] = await db
    .select({ secret: userMfa.secret })
    .from(userMfa)
    .where(and(eq(userMfa.userCode, userCode), state));
  if (!row) return false;
  const step = matchTotp(open(key, row.secret), code, Date.now());
  if (step === null) return false;
  const taken = await db
    .update(userMfa)
    .set({ lastStep: step, ...(pending ? { enabledAt: new Date() } : {}) })
    .where(
      and(eq(userMfa.userCode, userCode), state, or(isNull(userMfa.lastStep), lt(userMfa.lastStep, step))),
    )
    .returning({ userCode: userMfa.userCode });
  return taken.length === 1;
}

/** A recovery code works once: its row is deleted by the statement that accepts it. */
async function useRecoveryCode(db: Executor, userCode: string, code: string): Promise<boolean> {
  const used = await db
    .delete(mfaRecoveryCodes)
    .where(
      and(eq(mfaRecoveryCodes.userCode, userCode), eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(code))),
    )
    .returning({ userCode: mfaRecoveryCodes.userCode });
  return used.length === 1;
}

/** Removes a user's second factor altogether: disabled by the user or reset by an administrator. */
export async function removeMfa(db: Executor, userCode: string): Promise<boolean> {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userCode, userCode));
  await db.delete(mfaChallenges).where(eq(mfaChallenges.userCode, userCode));
  const removed = await db
    .delete(userMfa)
    .where(and(eq(userMfa.userCode, userCode), isNotNull(userMfa.enabledAt)))
    .returning({ userCode: userMfa.userCode });
  // An enrolment never confirmed goes too.
  await db.delete(userMfa).where(eq(userMfa.userCode, userCode));
  return removed.length === 1;
}

/**
 * The password was right and the account has a second factor: instead of a session, a challenge
 * bound to this browser by a cookie of its own, which VerifyMfa completes within 5 minutes.
 */
export async function openChallenge(services: Services, reply: FastifyReply, userCode: string) {
  const id = newSessionId();
  const { db, config } = services;
  // One pending sign-in per browser is enough; stale ones of anyone are swept on the way.
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, new Date()));
  await db.insert(mfaChallenges).values({
    idHash: hashSessionId(id),
    userCode,
    expiresAt: new Date(Date.now() + MFA_CHALLENGE_MS),
  });
  reply.setCookie(challengeCookieName(config.COOKIE_SECURE), id, {
    ...sessionCookieOptions(config.COOKIE_SECURE),
    maxAge: MFA_CHALLENGE_MS / 1000,
  });
}

const EXPIRED = 'Your sign-in has expired; sign in again';

async function pendingChallenge(services: Services, req: FastifyRequest) {
  const id = req.cookies?.[challengeCookieName(services.config.COOKIE_SECURE)];
  if (!id) throw new ApiError(401, EXPIRED);
  const [row] = await services.db
    .select({ idHash: mfaChallenges.idHash, userCode: users.userCode, username: users.username })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.userCode, mfaChallenges.userCode))
    .where(and(eq(mfaChallenges.idHash, hashSessionId(id)), gt(mfaChallenges.expiresAt, new Date())));
  if (!row) throw new ApiError(401, EXPIRED);
  return row;
}

export const mfaRoutes = [
  defineRoute({
    method: 'POST',
    path: 'VerifyMfa',
    summary:
      'The second step of a sign-in with two-factor: a code from the app or a recovery code; signs in as login does',
    tag: 'Auth',
    access: publicAccess,
    bodyLimit: 16 * 1024,
    body: verifyMfaSchema,
    response: sessionUserSchema,
    answers: {
      400: 'The code or recovery code is not valid (or was already used)',
      401: 'No sign-in awaits a second factor in this browser, or it expired (5 minutes)',
      429: 'Too many attempts: see Retry-After',
    },
    async handler({ body, req, reply, services }) {
      const challenge = await pendingChallenge(services, req);
      const key = await secretKey(services);
      const user = { userCode: challenge.userCode, username: challenge.username };
      const field: CodeField = body.code ? 'code' : 'recoveryCode';
      const attempt = await countedCode(services, req, user, field, () =>
        body.code
          ? acceptCode(services.db, key, user.userCode, body.code)
          : useRecoveryCode(services.db, user.userCode, body.recoveryCode ?? ''),
      );
      if (!attempt) {
        services.metrics.signIn('failure');
        throw invalidCode(field);
      }
      // The code was right: a failure from here on is the server's, and gives the attempt back.
      const sessionUser = await answeredOrGivenBack(services, attempt, async () => {
        await services.db.delete(mfaChallenges).where(eq(mfaChallenges.idHash, challenge.idHash));
        const secure = services.config.COOKIE_SECURE;
        reply.clearCookie(challengeCookieName(secure), sessionCookieOptions(secure));
        // Disabled since the password was checked: the code is no failure, and no sign-in either.
        if (!(await userActive(services.db, user.userCode))) {
          await giveBackAttempt(services.db, attempt);
          throw await disabledRefusal(services, req, user, 'two-factor');
        }
        const started = await startSession(services, req, reply, user, 'two-factor');
        await attemptSucceeded(services.db, attempt, services.throttlePolicy);
        return started;
      });
      return {
        message: body.code ? 'Logged in successfully' : 'Logged in successfully with a recovery code',
        data: sessionUser,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'StartMfaEnrollment',
    summary: 'Begins setting up two-factor sign-in: a new secret, as text and as an otpauth:// address',
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    duringMfaSetup: true,
    body: startMfaEnrollmentSchema,
    response: mfaEnrollmentSchema,
    answers: {
      409: 'Two-factor sign-in is already on',
      429: 'Too many wrong passwords or codes: see Retry-After',
    },
    async handler({ body, req, session, services }) {
      const account = await accountOf(services.db, session.userCode);
      // The enrolment is done only by its first code, which is throttled in its turn.
      await confirmPassword(services, req, account, body.currentPassword, { codeFollows: true });
      if (await mfaEnabled(services.db, account.userCode)) {
        throw conflict('Two-factor sign-in is already on; turn it off first to set it up again');
      }
      const key = await secretKey(services);
      const secret = newTotpSecret();
      const sealed = seal(key, secret);
      // A restarted enrolment replaces the one never confirmed.
      await services.db
        .insert(userMfa)
        .values({ userCode: account.userCode, secret: sealed })
        .onConflictDoUpdate({
          target: userMfa.userCode,
          set: { secret: sealed, lastStep: null, enabledAt: null, createdAt: new Date() },
        });
      return {
        message: 'Scan the code with your authenticator app, then enter the code it shows',
        data: { secret, otpauthUrl: otpauthUrl(secret, account.username) },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'ConfirmMfaEnrollment',
    summary:
      'Turns two-factor sign-in on with a first code from the app; answers 10 single-use recovery codes',
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    duringMfaSetup: true,
    body: confirmMfaEnrollmentSchema,
    response: recoveryCodesSchema,
    answers: { 409: 'No set-up was started', 429: 'Too many wrong codes: see Retry-After' },
    async handler({ body, req, session, actor, services }) {
      const key = await secretKey(services);
      const [pending] = await services.db
        .select({ userCode: userMfa.userCode })
        .from(userMfa)
        .where(and(eq(userMfa.userCode, session.userCode), isNull(userMfa.enabledAt)));
      if (!pending) throw conflict('Start setting up two-factor sign-in first');
      const recoveryCodes = newRecoveryCodes();
      const attempt = await countedCode(services, req, actor, 'code', () =>
        services.db.transaction(async (tx) => {
          // Confirmed meanwhile elsewhere, the enrolment is no longer pending: the code fails.
          if (!(await acceptCode(tx, key, session.userCode, body.code, true))) return false;
          await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userCode, session.userCode));
          await tx
            .insert(mfaRecoveryCodes)
            .values(
              recoveryCodes.map((c) => ({ userCode: session.userCode, codeHash: hashRecoveryCode(c) })),
            );
          await recordAccountEvent(tx, 'MFA_ENABLED', actor, actor);
          return true;
        }),
      );
      if (!attempt) throw invalidCode('code');
      await attemptSucceeded(services.db, attempt, services.throttlePolicy);
      return { message: 'Two-factor sign-in is on', data: { recoveryCodes } };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'DisableMfa',
    summary: 'Turns two-factor sign-in off, with the password and a current code',
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    body: disableMfaSchema,
    answers: {
      409: 'Two-factor sign-in is not on, or the role requires it',
      429: 'Too many wrong passwords or codes: see Retry-After',
    },
    async handler({ body, req, session, actor, services }) {
      const account = await accountOf(services.db, session.userCode);
      await confirmPassword(services, req, account, body.currentPassword, { codeFollows: true });
      if (!(await mfaEnabled(services.db, account.userCode))) {
        throw conflict('Two-factor sign-in is not on');
      }
      if (account.requireMfa) throw conflict('Your role requires two-factor sign-in');
      const key = await secretKey(services);
      const attempt = await countedCode(services, req, account, 'code', () =>
        services.db.transaction(async (tx) => {
          if (!(await acceptCode(tx, key, account.userCode, body.code))) return false;
          await removeMfa(tx, account.userCode);
          await recordAccountEvent(tx, 'MFA_DISABLED', account, actor);
          return true;
        }),
      );
      if (!attempt) throw invalidCode('code');
      await attemptSucceeded(services.db, attempt, services.throttlePolicy);
      return { message: 'Two-factor sign-in is off' };
    },
  }),
];
