import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audits, oidcLogins, users } from '../../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startProvider,
  type TestProvider,
  throughProvider,
} from '../../support/oidc.ts';
import { cookieOf } from './support.ts';

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
    provider.signInAs = 'admin';
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
    expect(session.username).toBe('admin');
    const [login] = await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(sql`${audits.action} = 'LOGIN'`)
      .orderBy(sql`${audits.id} desc`)
      .limit(1);
    expect(login?.after).toEqual({ username: 'admin', method: 'single sign-on' });
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
