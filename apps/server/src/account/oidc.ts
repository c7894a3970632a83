import { randomBytes } from 'node:crypto';
import { safeReturnPath, signInOptionsSchema } from '@wfc/contract';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { recordAudit } from '../audit/recorder.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hashSessionId, newSessionId, sessionCookieOptions } from '../auth/sessions.ts';
import type { Config } from '../config/config.ts';
import { newCode } from '../db/codes.ts';
import { oidcLogins, roles, users } from '../db/schema/index.ts';
import { ApiError } from '../http/envelope.ts';
import { defineRoute, publicAccess } from '../http/routes.ts';
import type { Services } from '../services.ts';
import { recordAccountEvent } from './events.ts';
import { mfaEnabled, openChallenge } from './mfa.ts';
import { startSession, userActive } from './sign-in.ts';
import { identityUsed, linkedUser, linkIdentity, provisionedUser, userByName } from './sso-links.ts';
import { providerCheckedSecondFactor, providerUsername } from './sso-rules.ts';

/*
 * Single sign-on through an OpenID Connect provider: the authorization code flow with PKCE, state
 * and nonce, through openid-client (OpenID Certified), which checks the ID token's issuer,
 * audience, signature, expiry and nonce, and the state, before any claim is read here.
 */

/** How long the provider's page may take: after that the callback is refused. */
const LOGIN_TTL_MS = 10 * 60_000;
/** ID token timestamps: a provider's clock a little off is tolerated, no more. */
const CLOCK_TOLERANCE_S = 30;

export const SSO_CALLBACK_PATH = '/api/oidc/callback';
const loginCookieName = (secure: boolean) => (secure ? '__Host-wfc-oidc' : 'wfc-oidc');

/** Why a single sign-on ended on the sign-in page; the page words each (`?sso=...`). */
export type SsoFailure = 'unknown-user' | 'not-linked' | 'disabled' | 'expired' | 'failed';

type Configured = Config & { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
const configured = (config: Config): config is Configured =>
  Boolean(config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET);

/** Plain HTTP only to a provider on this machine (a development or test provider), never elsewhere. */
const loopback = (url: URL) =>
  url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/** The configured provider's issuer as its metadata names it (and its ID tokens' `iss`). */
export async function providerIssuer(config: Config): Promise<string> {
  if (!configured(config)) throw new ApiError(503, 'Single sign-on is not configured');
  return (await providerOf(config)).serverMetadata().issuer;
}

const discovered = new WeakMap<Config, Promise<oidc.Configuration>>();

/** The provider's metadata and keys, fetched once per server; a failed fetch is tried again next time. */
function providerOf(config: Configured): Promise<oidc.Configuration> {
  let found = discovered.get(config);
  if (!found) {
    const issuer = new URL(config.OIDC_ISSUER);
    found = oidc
      .discovery(
        issuer,
        config.OIDC_CLIENT_ID,
        { client_secret: config.OIDC_CLIENT_SECRET, [oidc.clockTolerance]: CLOCK_TOLERANCE_S },
        undefined,
        loopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        discovered.delete(config);
        throw err;
      });
    discovered.set(config, found);
  }
  return found;
}

const redirectUri = (config: Config, req: FastifyRequest) =>
  config.OIDC_REDIRECT_URI ?? `${req.protocol}://${req.host}${SSO_CALLBACK_PATH}`;

/** The handler's answer when it has written a redirect itself (no envelope). */
function redirectTo(reply: FastifyReply, location: string): undefined {
  reply.redirect(location, 302);
  return undefined;
}

const toLoginPage = (reply: FastifyReply, failure: SsoFailure) => redirectTo(reply, `/login?sso=${failure}`);

/** What became of the provider account at this console. */
type Match = { user: { userCode: string; username: string } } | { failure: SsoFailure; reason: string };

/**
 * The console user a verified provider account reaches: the one it is linked to, found by
 * (issuer, subject) alone; else, on its first sign-in, the user provisioning gave this subject as
 * identity provider id (SCIM `externalId`); else the user of the same name where that user
 * may be linked by name (the link is made then); else, with OIDC_DEFAULT_ROLE, a new user. Never an
 * existing user by any other way.
 */
async function matchUser(services: Services, claims: Record<string, unknown>, name: string): Promise<Match> {
  const { db } = services;
  const issuer = String(claims.iss);
  const subject = String(claims.sub);
  const linked = await linkedUser(db, issuer, subject);
  if (linked) {
    await identityUsed(db, issuer, subject, name);
    return { user: linked };
  }
  const provisioned = await provisionedUser(db, subject);
  if (provisioned) return linkOnce(db, provisioned, { issuer, subject, name, by: 'externalId' });
  const folded = providerUsername(name);
  if (!folded)
    return {
      failure: 'unknown-user',
      reason: `${services.config.OIDC_USERNAME_CLAIM} is not a console username`,
    };
  const named = await userByName(db, folded);
  if (!named) return createUser(services, claims, name.normalize('NFKC'));
  if (!named.linkAllowed) {
    return { failure: 'not-linked', reason: 'the user of that name may not be linked by name' };
  }
  const user = { userCode: named.userCode, username: named.username };
  return linkOnce(db, user, { issuer, subject, name, by: 'name' });
}

/**
 * Links the provider account to the user it was matched with (by name, or by the identity
 * provider id provisioning stored), at its first sign-in.
 */
async function linkOnce(
  db: Services['db'],
  user: { userCode: string; username: string },
  link: { issuer: string; subject: string; name: string; by: 'name' | 'externalId' },
): Promise<Match> {
  const { issuer, subject, name, by } = link;
  const done = await db.transaction(async (tx) => {
    if (!(await linkIdentity(tx, { issuer, subject, userCode: user.userCode, providerUsername: name })))
      return false;
    await identityUsed(tx, issuer, subject, name);
    await recordAccountEvent(tx, 'SSO_LINKED', user, user, { issuer, subject, by });
    return true;
  });
  return done
    ? { user }
    : {
        failure: 'not-linked',
        reason: `the user of that ${by === 'name' ? 'name' : 'identity provider id'} is linked to another account of this provider`,
      };
}

/** With OIDC_DEFAULT_ROLE, an unknown provider account becomes a new user, linked to it. */
async function createUser(
  services: Services,
  claims: Record<string, unknown>,
  username: string,
): Promise<Match> {
  const { db, config } = services;
  const unknown = {
    failure: 'unknown-user',
    reason: `no user matches ${config.OIDC_USERNAME_CLAIM}`,
  } as const;
  if (!config.OIDC_DEFAULT_ROLE) return unknown;
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  if (!email) return unknown;
  const [role] = await db
    .select({ roleCode: roles.roleCode })
    .from(roles)
    .where(sql`lower(${roles.roleName}) = lower(${config.OIDC_DEFAULT_ROLE})`);
  if (!role) return unknown;
  const created = { userCode: newCode('USER-'), username };
  const issuer = String(claims.iss);
  const subject = String(claims.sub);
  // Nobody knows this password: the account signs in through the provider until one is set.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ ...created, email, passwordHash, roleCode: role.roleCode });
      await recordAudit(tx, {
        action: 'CREATE',
        collection: 'users',
        recordCode: created.userCode,
        after: { ...created, email, roleCode: role.roleCode, via: 'single sign-on' },
        actor: created,
      });
      if (
        !(await linkIdentity(tx, { issuer, subject, userCode: created.userCode, providerUsername: username }))
      ) {
        throw new Error('the provider account was linked meanwhile');
      }
      await identityUsed(tx, issuer, subject, username);
    });
  } catch (err) {
    // A user of that name or email made meanwhile (a unique key) is never taken over: no sign-in.
    return { failure: 'unknown-user', reason: `no new user could be made: ${refusal(err)}` };
  }
  return { user: created };
}

/** The library's reason, with the check that failed (its cause names the claim or parameter). */
function refusal(err: unknown): string {
  if (!(err instanceof Error)) return 'refused';
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`.slice(0, 300);
}

/**
 * The ID token's claims (already verified), and, when it lacks the claim that names the user, the
 * provider's userinfo for the same subject: many providers put profile claims there only.
 */
async function withUserInfo(
  provider: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  claim: string,
): Promise<Record<string, unknown>> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('The provider sent no ID token');
  if (idClaims[claim] !== undefined || !provider.serverMetadata().userinfo_endpoint) return idClaims;
  const info = await oidc.fetchUserInfo(provider, tokens.access_token, idClaims.sub);
  return { ...info, ...idClaims };
}

async function ssoFailed(services: Services, req: FastifyRequest, reason: string, username?: string) {
  await recordAudit(services.db, {
    action: 'SSO_FAILED',
    collection: 'auth',
    after: { reason, ip: req.ip, ...(username ? { username: username.slice(0, 100) } : {}) },
    actor: null,
  });
  services.metrics.signIn('failure');
}

const notConfigured = () => new ApiError(404, 'Single sign-on is not configured');

export const oidcRoutes = [
  defineRoute({
    method: 'GET',
    path: 'GetSignInOptions',
    summary: 'What the sign-in page offers besides the password: single sign-on when configured',
    tag: 'Auth',
    access: publicAccess,
    response: signInOptionsSchema,
    async handler({ services }) {
      const { config } = services;
      return {
        message: 'Sign-in options fetched successfully',
        data: {
          sso: configured(config) ? { label: config.OIDC_BUTTON_LABEL, loginUrl: '/api/oidc/login' } : null,
        },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'oidc/login',
    summary:
      'Starts single sign-on: redirects to the identity provider (code flow with PKCE, state and nonce)',
    tag: 'Auth',
    access: publicAccess,
    query: z.object({ next: z.string().max(2000).optional() }),
    answers: { 302: 'To the identity provider', 404: 'Single sign-on is not configured' },
    async handler({ query, req, reply, services }) {
      const { config, db } = services;
      if (!configured(config)) throw notConfigured();
      const provider = await providerOf(config);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const id = newSessionId();
      await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, new Date()));
      await db.insert(oidcLogins).values({
        idHash: hashSessionId(id),
        state,
        nonce,
        codeVerifier,
        returnTo: safeReturnPath(query.next),
        expiresAt: new Date(Date.now() + LOGIN_TTL_MS),
      });
      // Bound to this browser: a callback carried to another one (login CSRF) finds nothing.
      reply.setCookie(loginCookieName(config.COOKIE_SECURE), id, {
        ...sessionCookieOptions(config.COOKIE_SECURE),
        maxAge: LOGIN_TTL_MS / 1000,
      });
      const url = oidc.buildAuthorizationUrl(provider, {
        redirect_uri: redirectUri(config, req),
        scope: 'openid profile email',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return redirectTo(reply, url.href);
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'oidc/callback',
    summary:
      'Where the identity provider returns: checks the answer and its ID token, signs the matching user in, redirects',
    tag: 'Auth',
    access: publicAccess,
    changes: true,
    answers: {
      302: 'To the page first asked for, signed in; or to the sign-in page with `sso` naming the failure',
      404: 'Single sign-on is not configured',
    },
    async handler({ req, reply, services }) {
      const { config, db } = services;
      if (!configured(config)) throw notConfigured();
      const secure = config.COOKIE_SECURE;
      const id = req.cookies?.[loginCookieName(secure)];
      reply.clearCookie(loginCookieName(secure), sessionCookieOptions(secure));
      // Used once: whatever happens next, this sign-in cannot be completed twice.
      const [pending] = id
        ? await db
            .delete(oidcLogins)
            .where(and(eq(oidcLogins.idHash, hashSessionId(id)), gt(oidcLogins.expiresAt, new Date())))
            .returning()
        : [];
      if (!pending) {
        await ssoFailed(services, req, 'no sign-in under way in this browser, or it expired');
        return toLoginPage(reply, 'expired');
      }
      let claims: Record<string, unknown>;
      try {
        const current = new URL(redirectUri(config, req));
        current.search = new URL(req.url, 'http://callback').search;
        const tokens = await oidc.authorizationCodeGrant(await providerOf(config), current, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        claims = await withUserInfo(await providerOf(config), tokens, config.OIDC_USERNAME_CLAIM);
      } catch (err) {
        req.log.warn({ err }, 'single sign-on refused');
        await ssoFailed(services, req, refusal(err));
        return toLoginPage(reply, 'failed');
      }
      const claim = claims[config.OIDC_USERNAME_CLAIM];
      const name = typeof claim === 'string' ? claim : '';
      const match = await matchUser(services, claims, name);
      if ('failure' in match) {
        await ssoFailed(services, req, match.reason, name);
        return toLoginPage(reply, match.failure);
      }
      const { user } = match;
      // After the provider vouched for the account, as a password sign-in refuses only once the
      // password is right.
      if (!(await userActive(db, user.userCode))) {
        await ssoFailed(services, req, 'the user is disabled', name);
        return toLoginPage(reply, 'disabled');
      }
      if (
        (await mfaEnabled(db, user.userCode)) &&
        !providerCheckedSecondFactor(claims, { amr: config.OIDC_MFA_AMR, acr: config.OIDC_MFA_ACR })
      ) {
        // The provider did not say it checked a second factor: the console's own, as after a password.
        await openChallenge(services, reply, user.userCode);
        return redirectTo(
          reply,
          `/login?${new URLSearchParams({ sso: 'mfa-required', next: pending.returnTo })}`,
        );
      }
      await startSession(services, req, reply, user, 'single sign-on');
      // The web app learns of the new session on its sign-in page, which then opens the page asked for.
      return redirectTo(reply, `/login?${new URLSearchParams({ sso: 'signed-in', next: pending.returnTo })}`);
    },
  }),
];
