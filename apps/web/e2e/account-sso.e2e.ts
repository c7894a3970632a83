import {
  CLIENT_ID,
  CLIENT_SECRET,
  startProvider,
  type TestProvider,
  USER_PASSWORD,
} from '@wfc/server/testing';
import { Secret, TOTP } from 'otpauth';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './support/e2e';

/*
 * Single sign-on in a browser, against a real OpenID provider (oidc-provider) on its own port:
 * the button on the sign-in page, the provider's redirects, and back signed in on the page asked
 * for; an account the console does not know gets a message and no session; a user with two-factor
 * sign-in whose provider checked no second factor is asked for the console's code.
 */

let provider: TestProvider;
let e2e: E2E;

beforeAll(async () => {
  // The console's address is known only once it listens, after the provider's is needed.
  provider = await startProvider(() => `${e2e.baseURL}/api/oidc/callback`);
  e2e = await startE2E({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_BUTTON_LABEL: 'Acme ID',
  });
});
afterAll(async () => {
  await e2e?.close();
  await provider?.close();
});

/** A TOTP code `steps` periods from now, off the edge of a period so it stays valid. */
async function codeFrom(secret: string, steps = 0) {
  const into = Date.now() % 30_000;
  if (into > 27_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/** Turns two-factor on for a user through the API, as My account does; the secret. */
async function enrolThroughApi(request: APIRequestContext, username: string): Promise<string> {
  expect((await request.post('/api/login', { form: { username, password: USER_PASSWORD } })).status()).toBe(
    200,
  );
  const start = await request.post('/api/StartMfaEnrollment', { form: { currentPassword: USER_PASSWORD } });
  const { secret } = (await start.json()).data as { secret: string };
  const confirm = await request.post('/api/ConfirmMfaEnrollment', { form: { code: await codeFrom(secret) } });
  expect(confirm.status()).toBe(200);
  expect((await request.get('/api/logout')).status()).toBe(200);
  return secret;
}

describe('single sign-on', () => {
  it('signs in through the provider and opens the page first asked for', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    provider.signInAs = user.username;
    const page = await e2e.newPage();
    await page.goto('/registry');
    await page.waitForURL((u) => u.pathname === '/login');
    const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    await page.screenshot({ path: '/tmp/acct-shots/login-sso-desktop.png' });
    await button.click();
    await page.waitForURL((u) => u.pathname === '/registry');
    await page.getByRole('heading', { level: 1, name: 'Registry' }).waitFor();
    expect((await page.request.get('/api/GetSession')).status()).toBe(200);
    await page.context().close();
  });

  it('an account the console does not know gets a message and no session', async () => {
    provider.signInAs = 'stranger';
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.getByText('Your company account is not a user of this console').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await page.request.get('/api/GetSession')).status()).toBe(401);
    await page.screenshot({ path: '/tmp/acct-shots/login-sso-unknown-phone.png', fullPage: true });
    await page.context().close();
  });

  it('a user with two-factor is asked for the code after the provider, then reaches the page asked for', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    const page = await e2e.newPage();
    const secret = await enrolThroughApi(page.request, user.username);
    provider.signInAs = user.username;
    await page.goto('/registry');
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.getByLabel('Authentication code').waitFor();
    expect(new URL(page.url()).searchParams.get('sso')).toBe('mfa-required');
    expect((await page.request.get('/api/GetSession')).status()).toBe(401);
    await e2e.screenshot(page, 'login-sso-second-factor');
    await page.getByLabel('Authentication code').fill(await codeFrom(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => u.pathname === '/registry');
    await page.getByRole('heading', { level: 1, name: 'Registry' }).waitFor();
    await page.context().close();
  });

  it("a user manager sees a user's linked account on the view screen and removes it", async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    provider.signInAs = { sub: `subject-of-${user.username}`, username: user.username };
    const linked = await e2e.newPage();
    await linked.goto('/login');
    await linked.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await linked.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await linked.context().close();

    const page = await e2e.newPage();
    await e2e.login(page);
    await page.goto(`/registry/user/${user.userCode}`);
    const panel = page.getByRole('region', { name: 'Single sign-on' });
    await panel.getByText(`${user.username} · subject subject-of-${user.username}`).waitFor();
    await panel
      .getByText('A first sign-in through the provider may link an account of the same name.')
      .waitFor();
    await e2e.screenshot(page, 'user-sso-panel');
    await panel.getByRole('button', { name: 'Remove' }).click();
    await panel.getByText('No provider account is linked.').waitFor();
    await page.context().close();
  });
});
