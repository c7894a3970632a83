import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audits, oidcLogins, roles, ssoIdentities, users } from '../../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type ProviderAccount,
  startProvider,
  type TestProvider,
  throughProvider,
} from '../../support/oidc.ts';
import { awayFromStepEdge, codeAt, cookieOf, enrol, verify } from './support.ts';

const REDIRECT_URI = 'http://console.test/api/oidc/callback';
let provider: TestProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startProvider(REDIRECT_URI);
  t = await createTestApp({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_REDIRECT_URI: REDIRECT_URI,
    OIDC_BUTTON_LABEL: 'Acme ID',
    OIDC_MFA_ACR: 'urn:example:mfa',
  });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** The console's side of a browser: starts single sign-on; the provider's address and the pending cookie. */
async function begin(next?: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/oidc/login', query: next ? { next } : {} });
  expect(res.statusCode, res.body).toBe(302);
  return { location: String(res.headers.location), pending: cookieOf(res, 'wfc-oidc') };
}

const callback = (url: URL, cookie?: string) =>
  t.app.inject({ method: 'GET', url: `/api/oidc/callback${url.search}`, headers: cookie ? { cookie } : {} });

const failures = async () =>
  (
    await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(eq(audits.action, 'SSO_FAILED'))
      .orderBy(audits.id)
  ).map((a) => a.after as { reason: string; username?: string });

/** A whole single sign-on in one browser, as `account` at the provider: the console's last answer. */
async function signInThroughProvider(account: string | ProviderAccount, app: TestApp = t) {
  provider.signInAs = account;
  const start = await app.app.inject({ method: 'GET', url: '/api/oidc/login' });
  expect(start.statusCode, start.body).toBe(302);
  const back = await throughProvider(String(start.headers.location), REDIRECT_URI);
  return app.app.inject({
    method: 'GET',
    url: `/api/oidc/callback${back.search}`,
    headers: { cookie: cookieOf(start, 'wfc-oidc') ?? '' },
  });
}

/** The username a callback's answer signed in, or undefined when it signed nobody in. */
async function signedInAs(res: LightMyRequestResponse, app: TestApp = t) {
  const sid = cookieOf(res, 'sid');
  if (!sid) return undefined;
  return (expectEnvelope(await app.get('GetSession', sid), 200).data as { username: string }).username;
}

const identitiesOf = (userCode: string) =>
  t.handle.db
    .select({ issuer: ssoIdentities.issuer, subject: ssoIdentities.subject })
    .from(ssoIdentities)
    .where(eq(ssoIdentities.userCode, userCode));

const adminCode = async () =>
  (await t.handle.db.select({ userCode: users.userCode }).from(users).where(eq(users.username, 'admin')))[0]
    ?.userCode ?? '';

function expectToLoginPage(res: LightMyRequestResponse, failure: string) {
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers.location).toBe(`/login?sso=${failure}`);
  expect(cookieOf(res, 'sid')).toBeUndefined();
}

describe('single sign-on through an OpenID provider', () => {
  it('GetSignInOptions offers it with its label', async () => {
    const res = await t.get('GetSignInOptions');
    expect(expectEnvelope(res, 200).data).toEqual({ sso: { label: 'Acme ID', loginUrl: '/api/oidc/login' } });
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const { location, pending } = await begin();
    const url = new URL(location);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(pending).toBeDefined();
  });

  it('signs the matching user in with the same session a password gives, and returns to the page asked for', async () => {
    await t.userWith(['VIEW_GENDERS'], { signIn: 'none', username: 'plain.person' });
    provider.signInAs = 'plain.person';
    const { location, pending } = await begin('/registry/genders?page=2');
    const back = await throughProvider(location, REDIRECT_URI);
    const res = await callback(back, pending);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/login?sso=signed-in&next=%2Fregistry%2Fgenders%3Fpage%3D2');
    const sid = cookieOf(res, 'sid');
    expect(res.cookies.find((c) => c.name === 'sid')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    const session = expectEnvelope(await t.get('GetSession', sid), 200).data as { username: string };
    expect(session.username).toBe('plain.person');
    const [login] = await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(sql`${audits.action} = 'LOGIN'`)
      .orderBy(sql`${audits.id} desc`)
      .limit(1);
    expect(login?.after).toEqual({ username: 'plain.person', method: 'single sign-on' });
    // The pending sign-in is spent: the same answer cannot sign in twice.
    expectToLoginPage(await callback(back, pending), 'expired');
  });

  it('refuses a wrong state', async () => {
    const { location, pending } = await begin();
    const back = await throughProvider(location, REDIRECT_URI);
    back.searchParams.set('state', 'not-the-state-we-sent-0123456789');
    expectToLoginPage(await callback(back, pending), 'failed');
    expect((await failures()).at(-1)?.reason).toMatch(/state/i);
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const { location, pending } = await begin();
    const back = await throughProvider(location, REDIRECT_URI);
    await t.handle.db.update(oidcLogins).set({ nonce: 'another-nonce-0123456789abcdef' });
    expectToLoginPage(await callback(back, pending), 'failed');
    expect((await failures()).at(-1)?.reason).toMatch(/nonce/i);
  });

  it('refuses an expired ID token', async () => {
    const { location, pending } = await begin();
    const back = await throughProvider(location, REDIRECT_URI);
    // The provider's clock two hours behind: the token it signs expired an hour ago.
    provider.clockOffsetMs = -2 * 3_600_000;
    try {
      expectToLoginPage(await callback(back, pending), 'failed');
    } finally {
      provider.clockOffsetMs = 0;
    }
    expect((await failures()).at(-1)?.reason).toMatch(/exp/i);
  });

  it('refuses a callback without the browser-bound pending sign-in (login CSRF)', async () => {
    const { location } = await begin();
    const back = await throughProvider(location, REDIRECT_URI);
    expectToLoginPage(await callback(back), 'expired');
  });

  it('an unknown user gets no session and no account', async () => {
    provider.signInAs = 'nobody.here';
    const { location, pending } = await begin();
    const back = await throughProvider(location, REDIRECT_URI);
    expectToLoginPage(await callback(back, pending), 'unknown-user');
    expect(await t.handle.db.$count(users, sql`lower(${users.username}) = 'nobody.here'`)).toBe(0);
    expect((await failures()).at(-1)).toMatchObject({ username: 'nobody.here' });
  });

  it('answers 404 where it is not configured', async () => {
    const plain = await createTestApp();
    try {
      expect(expectEnvelope(await plain.get('oidc/login'), 404).message).toBe(
        'Single sign-on is not configured',
      );
      expect((await plain.get('oidc/callback')).statusCode).toBe(404);
      expect(expectEnvelope(await plain.get('GetSignInOptions'), 200).data).toEqual({ sso: null });
    } finally {
      await plain.close();
    }
  });

  it('with OIDC_DEFAULT_ROLE, creates an unknown user with that role', async () => {
    const withRole = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_DEFAULT_ROLE: 'administrator',
    });
    try {
      provider.signInAs = 'new.person';
      const start = await withRole.app.inject({ method: 'GET', url: '/api/oidc/login' });
      const back = await throughProvider(String(start.headers.location), REDIRECT_URI);
      const res = await withRole.app.inject({
        method: 'GET',
        url: `/api/oidc/callback${back.search}`,
        headers: { cookie: cookieOf(start, 'wfc-oidc') ?? '' },
      });
      expect(res.headers.location).toBe('/login?sso=signed-in&next=%2F');
      const [created] = await withRole.handle.db.select().from(users).where(eq(users.username, 'new.person'));
      expect(created?.email).toBe('new.person@idp.example.com');
      expect((await withRole.get('GetSession', cookieOf(res, 'sid'))).statusCode).toBe(200);
    } finally {
      await withRole.close();
    }
  });
});

describe("accounts linked to the provider's identity", () => {
  it('links a plain user by name at the first sign-in; renamed at the provider, it still reaches the same user', async () => {
    const user = await t.userWith(['VIEW_GENDERS'], { signIn: 'none', username: 'rename.me' });
    const first = await signInThroughProvider({ sub: 'subject-rename-1', username: 'rename.me' });
    expect(first.headers.location).toBe('/login?sso=signed-in&next=%2F');
    expect(await signedInAs(first)).toBe('rename.me');
    expect(await identitiesOf(user.userCode)).toEqual([
      { issuer: provider.issuer, subject: 'subject-rename-1' },
    ]);
    const [linked] = await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(and(eq(audits.action, 'SSO_LINKED'), eq(audits.recordCode, user.userCode)));
    expect(linked?.after).toMatchObject({ username: 'rename.me', subject: 'subject-rename-1', by: 'name' });
    // The owner renames the account at the provider, even to the administrator's name.
    for (const name of ['someone.else', 'admin']) {
      const again = await signInThroughProvider({ sub: 'subject-rename-1', username: name });
      expect(await signedInAs(again)).toBe('rename.me');
    }
  });

  it('ADMIN, "Admin ", admİn, ａｄｍｉｎ and admin at the provider never reach the local admin', async () => {
    const before = await t.handle.db.$count(users);
    for (const [i, name] of [
      'ADMIN',
      'Admin ',
      'adm\u0130n',
      '\uff41\uff44\uff4d\uff49\uff4e',
      'admin',
    ].entries()) {
      const res = await signInThroughProvider({ sub: `attacker-${i}`, username: name });
      expect(cookieOf(res, 'sid'), name).toBeUndefined();
      expect(res.headers.location, name).toMatch(/^\/login\?sso=(not-linked|unknown-user)$/);
    }
    expect(await identitiesOf(await adminCode())).toEqual([]);
    expect(await t.handle.db.$count(users)).toBe(before);
    const reasons = (await failures()).slice(-5).map((f) => f.reason);
    expect(reasons).toEqual([
      'the user of that name may not be linked by name',
      'preferred_username is not a console username',
      'preferred_username is not a console username',
      'the user of that name may not be linked by name',
      'the user of that name may not be linked by name',
    ]);
  });

  it('a user manager allows linking by name; once linked, another account of the provider cannot take the user', async () => {
    const manager = await t.userWith(ALL_PERMISSION_NAMES);
    const target = await t.userWith(ALL_PERMISSION_NAMES, { signIn: 'none', username: 'second.admin' });
    const refused = await signInThroughProvider({ sub: 'second-admin-sub', username: 'second.admin' });
    expectToLoginPage(refused, 'not-linked');
    const allowed = await t.post(
      'SetSsoLinking',
      { userCode: target.userCode, linking: 'allowed' },
      manager.cookie,
    );
    expect(expectEnvelope(allowed, 200).data).toEqual({
      linking: 'allowed',
      linkingAllowedNow: true,
      identities: [],
    });
    const first = await signInThroughProvider({ sub: 'second-admin-sub', username: 'Second.Admin' });
    expect(await signedInAs(first)).toBe('second.admin');
    const other = await signInThroughProvider({ sub: 'another-sub', username: 'second.admin' });
    expectToLoginPage(other, 'not-linked');
    expect((await failures()).at(-1)?.reason).toBe(
      'the user of that name is linked to another account of this provider',
    );
  });

  it('with OIDC_DEFAULT_ROLE, a name already taken is refused, never given the existing user', async () => {
    const withRole = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_DEFAULT_ROLE: 'administrator',
    });
    try {
      const before = await withRole.handle.db.$count(users);
      const res = await signInThroughProvider({ sub: 'taken-sub', username: 'ADMIN' }, withRole);
      expect(cookieOf(res, 'sid')).toBeUndefined();
      expect(await withRole.handle.db.$count(users)).toBe(before);
      const made = await signInThroughProvider({ sub: 'fresh-sub', username: 'fresh.person' }, withRole);
      expect(await signedInAs(made, withRole)).toBe('fresh.person');
      const [created] = await withRole.handle.db
        .select({ subject: ssoIdentities.subject })
        .from(ssoIdentities)
        .innerJoin(users, eq(users.userCode, ssoIdentities.userCode))
        .where(eq(users.username, 'fresh.person'));
      expect(created?.subject).toBe('fresh-sub');
      // Renamed at the provider, the account still reaches the user made for it, not a new one.
      const renamed = await signInThroughProvider({ sub: 'fresh-sub', username: 'renamed.person' }, withRole);
      expect(await signedInAs(renamed, withRole)).toBe('fresh.person');
      expect(await withRole.handle.db.$count(users)).toBe(before + 1);
    } finally {
      await withRole.close();
    }
  });

  it('LinkSsoIdentity, GetSsoByUserCode and UnlinkSsoIdentity: a user manager links and removes an account', async () => {
    const manager = await t.userWith(['UPDATE_USER', 'VIEW_GENDERS']);
    const user = await t.userWith(['VIEW_GENDERS'], { signIn: 'none', username: 'linked.by.hand' });
    const link = await t.post(
      'LinkSsoIdentity',
      { userCode: user.userCode, subject: 'hand-sub' },
      manager.cookie,
    );
    const linked = expectEnvelope(link, 200).data as { issuer: string; subject: string; lastUsedAt: null };
    expect(linked).toMatchObject({ subject: 'hand-sub', lastUsedAt: null, providerUsername: null });
    // Any name at the provider: the subject decides.
    const res = await signInThroughProvider({ sub: 'hand-sub', username: 'whatever.name' });
    expect(await signedInAs(res)).toBe('linked.by.hand');
    const shown = expectEnvelope(
      await t.post('GetSsoByUserCode', { userCode: user.userCode }, manager.cookie),
      200,
    ).data as {
      linking: string;
      identities: { subject: string; providerUsername: string; lastUsedAt: string }[];
    };
    expect(shown.linking).toBe('role');
    expect(shown.identities).toEqual([
      expect.objectContaining({
        subject: 'hand-sub',
        providerUsername: 'whatever.name',
        lastUsedAt: expect.any(String),
      }),
    ]);
    // The same account cannot be linked twice, nor a second one of the provider to the same user.
    expect(
      expectEnvelope(
        await t.post('LinkSsoIdentity', { userCode: user.userCode, subject: 'hand-sub' }, manager.cookie),
        409,
      ).message,
    ).toMatch(/linked to a user already/);
    expect(
      (await t.post('LinkSsoIdentity', { userCode: user.userCode, subject: 'other-sub' }, manager.cookie))
        .statusCode,
    ).toBe(409);
    const unlink = await t.post(
      'UnlinkSsoIdentity',
      { userCode: user.userCode, issuer: linked.issuer, subject: 'hand-sub' },
      manager.cookie,
    );
    expect(expectEnvelope(unlink, 200).message).toBe('The account was unlinked');
    expect(await identitiesOf(user.userCode)).toEqual([]);
    expectToLoginPage(
      await signInThroughProvider({ sub: 'hand-sub', username: 'whatever.name' }),
      'unknown-user',
    );
    const actions = (
      await t.handle.db
        .select({ action: audits.action })
        .from(audits)
        .where(eq(audits.recordCode, user.userCode))
        .orderBy(audits.id)
    ).map((a) => a.action);
    expect(actions).toEqual(['SSO_LINKED', 'LOGIN', 'SSO_UNLINKED'].filter((a) => a !== 'LOGIN'));
  });

  it("refuses linking oneself, users beyond the caller's permissions, bad input and unknown users", async () => {
    const manager = await t.userWith(['UPDATE_USER', 'VIEW_GENDERS']);
    const self = await t.post(
      'LinkSsoIdentity',
      { userCode: manager.userCode, subject: 'self-sub' },
      manager.cookie,
    );
    expect(expectEnvelope(self, 403).message).toBe(
      "Another user manager must change your own account's single sign-on",
    );
    const selfRule = await t.post(
      'SetSsoLinking',
      { userCode: manager.userCode, linking: 'allowed' },
      manager.cookie,
    );
    expect(selfRule.statusCode).toBe(403);
    const admin = await adminCode();
    for (const [path, body] of [
      ['LinkSsoIdentity', { userCode: admin, subject: 'beyond-sub' }],
      ['SetSsoLinking', { userCode: admin, linking: 'allowed' }],
      ['GetSsoByUserCode', { userCode: admin }],
      ['UnlinkSsoIdentity', { userCode: admin, issuer: provider.issuer, subject: 'x' }],
    ] as const) {
      expect(expectEnvelope(await t.post(path, body, manager.cookie), 403).message, path).toBe(
        'You cannot change a user whose role has permissions you do not hold',
      );
    }
    expect(await identitiesOf(admin)).toEqual([]);
    const [adminRow] = await t.handle.db
      .select({ linking: users.ssoLinking })
      .from(users)
      .where(eq(users.userCode, admin));
    expect(adminRow?.linking).toBe('role');
    const other = await t.userWith(['VIEW_GENDERS'], { signIn: 'none' });
    const missing = await t.post('LinkSsoIdentity', { userCode: other.userCode }, manager.cookie);
    expect(expectEnvelope(missing, 400).errors).toEqual([
      { field: 'subject', message: 'Subject is required' },
    ]);
    const badRule = await t.post(
      'SetSsoLinking',
      { userCode: other.userCode, linking: 'always' },
      manager.cookie,
    );
    expect(expectEnvelope(badRule, 400).errors?.[0]?.field).toBe('linking');
    expect(
      (await t.post('LinkSsoIdentity', { userCode: 'USER-NOPE', subject: 's' }, manager.cookie)).statusCode,
    ).toBe(404);
    expect(
      (
        await t.post(
          'UnlinkSsoIdentity',
          { userCode: other.userCode, issuer: 'i', subject: 's' },
          manager.cookie,
        )
      ).statusCode,
    ).toBe(404);
    expect((await t.post('LinkSsoIdentity', { userCode: other.userCode, subject: 's' })).statusCode).toBe(
      401,
    );
    expect(await identitiesOf(other.userCode)).toEqual([]);
  });
});

describe('single sign-on and the second factor', () => {
  /** A user with two-factor on, signed out; the authenticator's secret. */
  async function enrolled(username: string, permissionNames: string[] = ['VIEW_GENDERS']) {
    const user = await t.userWith(permissionNames, { username });
    const { secret } = await enrol(t, user.cookie, user.password);
    return { ...user, secret };
  }

  it("an enrolled user signing in without amr is asked for the console's code, then signed in by it", async () => {
    const user = await enrolled('mfa.person');
    const res = await signInThroughProvider('mfa.person');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?sso=mfa-required&next=%2F');
    expect(cookieOf(res, 'sid')).toBeUndefined();
    const challenge = cookieOf(res, 'wfc-mfa');
    expect(challenge).toBeDefined();
    await awayFromStepEdge();
    const done = await verify(t, challenge, { code: codeAt(user.secret, 1) });
    expect(expectEnvelope(done, 200).data).toMatchObject({ username: 'mfa.person' });
    expect(cookieOf(done, 'sid')).toBeDefined();
  });

  it('with amr ["mfa"] (or another listed method) the provider\'s check stands for the code', async () => {
    await enrolled('mfa.amr');
    for (const amr of [['pwd', 'mfa'], ['hwk']]) {
      const res = await signInThroughProvider({ sub: 'mfa.amr', username: 'mfa.amr', amr });
      expect(res.headers.location, amr.join()).toBe('/login?sso=signed-in&next=%2F');
      expect(await signedInAs(res)).toBe('mfa.amr');
    }
    const pwdOnly = await signInThroughProvider({ sub: 'mfa.amr', username: 'mfa.amr', amr: ['pwd'] });
    expect(pwdOnly.headers.location).toBe('/login?sso=mfa-required&next=%2F');
  });

  it('with OIDC_MFA_ACR, that acr stands for the code and another does not', async () => {
    await enrolled('mfa.acr');
    const weak = await signInThroughProvider({
      sub: 'mfa.acr',
      username: 'mfa.acr',
      acr: 'urn:example:password',
    });
    expect(weak.headers.location).toBe('/login?sso=mfa-required&next=%2F');
    const strong = await signInThroughProvider({
      sub: 'mfa.acr',
      username: 'mfa.acr',
      acr: 'urn:example:mfa',
    });
    expect(await signedInAs(strong)).toBe('mfa.acr');
  });

  it('a role that requires two-factor: without amr the code is asked, with amr ["mfa"] it is not', async () => {
    const user = await enrolled('mfa.role');
    await t.handle.db.update(roles).set({ requireMfa: true }).where(eq(roles.roleCode, user.roleCode));
    await t.settle();
    const asked = await signInThroughProvider('mfa.role');
    expect(asked.headers.location).toBe('/login?sso=mfa-required&next=%2F');
    expect(cookieOf(asked, 'sid')).toBeUndefined();
    const spared = await signInThroughProvider({ sub: 'mfa.role', username: 'mfa.role', amr: ['mfa'] });
    expect(await signedInAs(spared)).toBe('mfa.role');
  });
});
