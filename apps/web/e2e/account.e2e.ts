import { schema, USER_PASSWORD } from '@wfc/server/testing';
import { eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedE2E, watchConsole } from './support/e2e';

/*
 * My account in a browser: ending another session, changing the password, setting up two-factor
 * sign-in by reading the QR code as a phone would, then signing in with a code and with a
 * recovery code.
 */

const e2e = sharedE2E();
const NEW_PASSWORD = 'a-fresh-passphrase-42';
const SHOTS = '/tmp/acct-shots';
const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).last();
const pages: Page[] = [];
afterAll(async () => {
  for (const p of pages) await p.context().close();
});

async function newPage() {
  const page = await e2e.newPage();
  pages.push(page);
  return page;
}

/** Screenshots at 1440 × 900 and 390 × 844, for looking at. */
async function shoot(page: Page, name: string) {
  for (const [label, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function passwordStep(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

const home = (page: Page) => page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/login');
}

/** What a phone's camera reads: the QR code's pixels, decoded. */
async function readQrCode(page: Page): Promise<string> {
  const png = await page.getByTestId('mfa-qr').screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  if (!decoded) throw new Error('No QR code could be read from the page');
  return decoded.data;
}

const appFor = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** A code for `steps` periods from now, waiting off the edge of a period so it stays valid. */
async function codeFrom(secret: string, steps = 0) {
  const into = Date.now() % 30_000;
  if (into > 27_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
  return appFor(secret).generate({ timestamp: Date.now() + steps * 30_000 });
}

describe('my account', () => {
  it('ends another session, changes the password, sets up two-factor and signs in with it', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    const other = await newPage();
    await passwordStep(other, user.username, USER_PASSWORD);
    await home(other);

    const page = await newPage();
    const console = watchConsole(page);
    await passwordStep(page, user.username, USER_PASSWORD);
    await home(page);

    // The user's name in the header opens My account.
    await page.getByRole('link', { name: `My account: ${user.username}` }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    expect(await page.title()).toBe('My Account | Workforce Console');
    const sessions = page.getByRole('list', { name: 'Sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByText('This session').waitFor();
    await shoot(page, 'account');

    // End the other browser's session: its next call is refused.
    await sessions.getByRole('button', { name: /^End the session/ }).click();
    await toast(page, 'The session was ended').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    expect((await other.request.get('/api/GetSession')).status()).toBe(401);

    // A wrong current password is shown on its field; a common new one is refused by the server.
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByLabel('Current password').fill('not-my-password-1');
    await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel('New password again').fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Current password is incorrect').waitFor();
    await password.getByLabel('Current password').fill(USER_PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill('password1234');
    await password.getByLabel('New password again').fill('password1234');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('This password is too common').first().waitFor();
    await password.getByLabel('Current password').fill(USER_PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel('New password again').fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Your password was changed').waitFor();

    // Two-factor: the password, then the QR code, read as a phone would.
    await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByLabel('Current password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('mfa-qr').waitFor();
    await shoot(page, 'two-factor-qr');
    const url = new URL(await readQrCode(page));
    expect(url.protocol).toBe('otpauth:');
    expect(decodeURIComponent(url.pathname)).toContain(user.username);
    const secret = url.searchParams.get('secret') ?? '';
    expect((await page.getByTestId('mfa-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
    await page.getByLabel('Then enter the code it shows').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('This code is not valid').waitFor();
    await page.getByLabel('Then enter the code it shows').fill(await codeFrom(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const recoveryCodes = await list.getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await shoot(page, 'two-factor-recovery-codes');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('workforce-console-recovery-codes.txt');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await page.getByRole('region', { name: 'Two-factor sign-in' }).getByText('On', { exact: true }).waitFor();

    // Signing in now asks for a code after the password.
    await signOut(page);
    await passwordStep(page, user.username, NEW_PASSWORD);
    await page.getByLabel('Authentication code').waitFor();
    await shoot(page, 'login-code');
    await page.getByLabel('Authentication code').fill(await codeFrom(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await home(page);

    // A recovery code works once.
    await signOut(page);
    await passwordStep(page, user.username, NEW_PASSWORD);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await home(page);
    await signOut(page);
    await passwordStep(page, user.username, NEW_PASSWORD);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('This recovery code is not valid or was used').waitFor();

    expect(console.errors.filter((e) => !/40[01]/.test(e))).toEqual([]);
  });

  it('a role that requires two-factor opens the set-up page and nothing else', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    await e2e.db
      .update(schema.roles)
      .set({ requireMfa: true })
      .where(eq(schema.roles.roleCode, user.roleCode));
    const page = await newPage();
    await passwordStep(page, user.username, USER_PASSWORD);
    await page.waitForURL((u) => u.pathname === '/account/two-factor');
    await page.getByText('Your role requires two-factor sign-in').waitFor();
    await page.goto('/registry');
    await page.waitForURL((u) => u.pathname === '/account/two-factor');
    await shoot(page, 'two-factor-required');
  });

  it("a user manager sees a user's sessions, signs them out everywhere and resets their two-factor", async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    const theirs = await newPage();
    await passwordStep(theirs, user.username, USER_PASSWORD);
    await home(theirs);
    await e2e.db
      .insert(schema.userMfa)
      .values({ userCode: user.userCode, secret: 'v1.x.y.z', enabledAt: new Date() });

    const page = await newPage();
    await e2e.login(page);
    await page.goto(`/registry/user/${user.userCode}`);
    const panel = page.getByRole('region', { name: 'Sign-in security' });
    await panel.getByText('1 active session').waitFor();
    await shoot(page, 'user-security');
    await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
    await toast(page, '1 session ended').waitFor();
    await panel.getByText('0 active sessions').waitFor();
    expect((await theirs.request.get('/api/GetSession')).status()).toBe(401);
    await panel.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
    await toast(page, 'Two-factor sign-in was reset').waitFor();
    expect(
      await e2e.db.select().from(schema.userMfa).where(eq(schema.userMfa.userCode, user.userCode)),
    ).toEqual([]);

    // The role form carries the switch.
    await page.goto('/registry/role/create');
    await page.getByLabel('Require two-factor sign-in').waitFor();
    await shoot(page, 'role-form');
  });
});
