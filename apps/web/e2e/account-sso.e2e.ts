import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from '@wfc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './support/e2e';

/*
 * Single sign-on in a browser, against a real OpenID provider (oidc-provider) on its own port:
 * the button on the sign-in page, the provider's redirects, and back signed in on the page asked
 * for; an account the console does not know gets a message and no session.
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

describe('single sign-on', () => {
  it('signs in through the provider and opens the page first asked for', async () => {
    provider.signInAs = 'admin';
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
});
