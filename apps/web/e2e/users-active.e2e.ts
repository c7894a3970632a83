import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedE2E, watchConsole } from './support/e2e';

/*
 * Disabling a user in a browser: the Active switch of the edit form, the Status column of the
 * list, and the refusal the disabled user meets on the sign-in page.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/wfc-users-active-shots';
const pages: Page[] = [];
afterAll(async () => {
  for (const p of pages) await p.context().close();
});

async function newPage() {
  const page = await e2e.newPage();
  pages.push(page);
  return page;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe('disabled users', () => {
  it('are disabled from the edit form, listed as Disabled, and refused at sign-in', async () => {
    const leaver = await e2e.userWith(['VIEW_GENDERS']);
    const page = await newPage();
    const console = watchConsole(page);
    await e2e.login(page);

    await page.goto(`/registry/user/edit/${leaver.userCode}`);
    const active = page.getByRole('switch', { name: 'Active' });
    await active.waitFor();
    expect(await active.isChecked()).toBe(true);
    await page
      .getByText('A disabled user cannot sign in; their sessions end and their API tokens stop working')
      .waitFor();
    await active.click();
    expect(await active.isChecked()).toBe(false);
    await shoot(page, 'form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.Toastify__toast', { hasText: 'User updated successfully' }).last().waitFor();

    await page.goto(`/registry/users?keyword=${leaver.username}`);
    const row = page.getByRole('row', { name: new RegExp(leaver.username) });
    await row.getByRole('cell', { name: 'Disabled' }).waitFor();
    await page.getByRole('columnheader', { name: 'Status' }).waitFor();
    await shoot(page, 'list');

    const theirs = await newPage();
    await theirs.goto('/login');
    await theirs.getByLabel('Username', { exact: true }).fill(leaver.username);
    await theirs.getByLabel('Password', { exact: true }).fill(leaver.password);
    await theirs.getByRole('button', { name: 'Login', exact: true }).click();
    await theirs.getByText('This user is disabled. Ask an administrator to enable it.').first().waitFor();
    // The sign-in's own answer, said on the sign-in page: no access-denied page.
    expect(new URL(theirs.url()).pathname).toBe('/login');
    await theirs.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await shoot(theirs, 'sign-in');
    expect(console.errors).toEqual([]);
  });
});
