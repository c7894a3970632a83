import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/*
 * Integrations > API tokens in a browser: reached from the side navigation, a token created with
 * its secret shown once and copied, the token used from outside the browser, then revoked.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/wfc-api-token-shots';
const pages: Page[] = [];
afterAll(async () => {
  for (const p of pages) await p.context().close();
});

async function newPage(opts: Parameters<typeof e2e.newPage>[0] = {}) {
  const page = await e2e.newPage(opts);
  pages.push(page);
  return page;
}

const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).last();

/** Screenshots at 1440 × 900 and 390 × 844, for looking at. */
async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [label, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

describe('API tokens', () => {
  it('creates a token from the side navigation, shows its secret once, and revokes it', async () => {
    const manager = await e2e.userWith(['MANAGE_INTEGRATIONS', 'VIEW_GENDERS']);
    const page = await newPage({ bypassCSP: true });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const console = watchConsole(page);
    await e2e.login(page, manager.username, manager.password);

    await page
      .getByRole('navigation', { name: /modules/i })
      .getByRole('link', { name: 'API tokens' })
      .click();
    await page.waitForURL((u) => u.pathname === '/integrations/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    await page.getByText('No API tokens yet').waitFor();
    await shoot(page, 'empty');

    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByLabel('Integration name').fill('Payroll export');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    // The manager's own role is the one role whose every permission they hold.
    await page.getByRole('option').first().click();
    const expiry = await dialog.getByLabel('Expires').inputValue();
    const in90 = new Date(Date.now() + 90 * 86_400_000);
    expect(expiry).toBe(
      `${in90.getFullYear()}-${String(in90.getMonth() + 1).padStart(2, '0')}-${String(in90.getDate()).padStart(2, '0')}`,
    );
    await dialog.getByLabel('Allowed addresses (optional)').fill('127.0.0.1\n10.0.0.0/8');
    await shoot(page, 'create');
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Copy the token for Payroll export' });
    await secretDialog.getByText('This is the only time the token is shown').waitFor();
    const token = await secretDialog.getByLabel('API token').inputValue();
    expect(token).toMatch(/^wfc_[A-Za-z0-9_-]{43}$/);
    await shoot(page, 'secret');
    await secretDialog.getByRole('button', { name: 'Copy token' }).click();
    await toast(page, 'Token copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect(await e2e.checkA11y(page).then(describeViolations)).toBe('');
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Payroll export/ });
    await row.getByText('Active').waitFor();
    await row.getByText(token.slice(0, 10)).waitFor();
    await expect.poll(() => page.content()).not.toContain(token);

    // The integration calls from outside any browser.
    const call = await fetch(`${e2e.baseURL}/api/GetGenders`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(call.status).toBe(200);
    await page.reload();
    await row.getByText('Active').waitFor();
    expect(await row.getByText('Not yet').count()).toBe(0);
    await shoot(page, 'list');

    for (const scheme of ['dark'] as const) {
      const dark = await newPage({ colorScheme: scheme });
      await e2e.login(dark, manager.username, manager.password);
      await dark.goto('/integrations/api-tokens');
      await dark.getByRole('row', { name: /Payroll export/ }).waitFor();
      await shoot(dark, `list-${scheme}`);
      await dark.getByRole('button', { name: 'New token' }).click();
      await dark.getByRole('dialog', { name: 'New API token' }).waitFor();
      await shoot(dark, `create-${scheme}`);
    }

    await row.getByRole('button', { name: 'Revoke the token of Payroll export' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the token of Payroll export?' });
    await shoot(page, 'revoke');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await toast(page, 'The token of Payroll export is revoked').waitFor();
    await row.getByText('Revoked').waitFor();
    const refused = await fetch(`${e2e.baseURL}/api/GetGenders`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);
    expect(console.errors.filter((e) => !/401|403/.test(e))).toEqual([]);
  });

  it('is not offered to a user without MANAGE_INTEGRATIONS', async () => {
    const viewer = await e2e.userWith(['VIEW_GENDERS']);
    const page = await newPage();
    await e2e.login(page, viewer.username, viewer.password);
    await page.getByRole('link', { name: 'Genders' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Integrations' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'API tokens' }).count()).toBe(0);
    await page.goto('/integrations/api-tokens');
    await page.waitForURL((u) => u.pathname === '/access-denied');
  });
});
