import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audits, ssoIdentities } from '../../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectEnvelope, expectOk } from '../../support/envelope.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startProvider,
  type TestProvider,
  throughProvider,
} from '../../support/oidc.ts';
import { SCIM, scimUserSchema } from '../../support/scim-schemas.ts';
import { cookieOf } from '../account/support.ts';

const REDIRECT_URI = 'http://console.test/api/oidc/callback';
let provider: TestProvider;
let t: TestApp;
let token: string;

beforeAll(async () => {
  provider = await startProvider(REDIRECT_URI);
  t = await createTestApp({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_REDIRECT_URI: REDIRECT_URI,
  });
  const admin = await t.login();
  const holder = await t.userWith(['VIEW_USERS', 'CREATE_USER', 'UPDATE_USER', 'VIEW_PERSONAL_DATA'], {
    signIn: 'none',
  });
  const created = await t.post(
    'CreateApiToken',
    { name: 'Okta', roleCode: holder.roleCode, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    admin,
  );
  token = String(
    expectOk(created, 'API token created: copy the secret now, it will not be shown again').data.token,
  );
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

async function provision(userName: string, externalId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/scim/v2/Users',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    payload: JSON.stringify({
      schemas: [SCIM.user],
      userName,
      externalId,
      emails: [{ value: `${userName}@example.com`, primary: true }],
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return scimUserSchema.parse(res.json());
}

/** A whole single sign-on as the provider's account `sub` named `username`: who it signed in. */
async function signInAs(sub: string, username: string) {
  provider.signInAs = { sub, username };
  const start = await t.app.inject({ method: 'GET', url: '/api/oidc/login' });
  const back = await throughProvider(String(start.headers.location), REDIRECT_URI);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/oidc/callback${back.search}`,
    headers: { cookie: cookieOf(start, 'wfc-oidc') ?? '' },
  });
  const sid = cookieOf(res, 'sid');
  if (!sid) return undefined;
  return (expectEnvelope(await t.get('GetSession', sid), 200).data as { username: string }).username;
}

describe('single sign-on of a provisioned user', () => {
  it("links the provider account whose subject is the user's externalId, whatever its name", async () => {
    const user = await provision('scim.okta-user', '00u1abcdEFGH');
    // The provider names the account otherwise (an email): the subject finds the user.
    expect(await signInAs('00u1abcdEFGH', 'jane@example.com')).toBe('scim.okta-user');
    const links = await t.handle.db.select().from(ssoIdentities).where(eq(ssoIdentities.userCode, user.id));
    expect(links.map((l) => [l.issuer, l.subject])).toEqual([[provider.issuer, '00u1abcdEFGH']]);
    const [event] = await t.handle.db.select().from(audits).where(eq(audits.action, 'SSO_LINKED'));
    expect(event?.after).toMatchObject({ subject: '00u1abcdEFGH', by: 'externalId' });
    // Linked now: the next sign-in finds the user by the link.
    expect(await signInAs('00u1abcdEFGH', 'jane@example.com')).toBe('scim.okta-user');
  });

  it('an account whose subject no user has as externalId is not linked by it', async () => {
    await provision('scim.other-user', '00u2other');
    expect(await signInAs('00u2OTHER', 'nobody-known')).toBeUndefined();
  });
});
