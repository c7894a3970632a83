import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPost, pathOf } from './registry-ui';
import { sharedE2E } from './support/e2e';

/**
 * What stays on screen after the toast has gone (a refused sign-in, a refused delete), the route
 * error page when a screen's code cannot be loaded, and Access Denied naming the permission.
 * Screenshots of each, light and dark, at 1440x900 and 390x844, go to SHOTS (not committed).
 */

const e2e = sharedE2E();
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/shots-33';
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const EMPLOYEES = 3;
let departmentCode = '';

beforeAll(async () => {
  const admin = await e2e.newPage();
  await e2e.login(admin);
  const department = await apiPost(admin, 'CreateDepartment', { name: 'Field Sales' });
  departmentCode = String(department.departmentCode);
  for (let i = 1; i <= EMPLOYEES; i++) {
    await apiPost(admin, 'CreateEmployee', {
      employeeId: `FS-${i}`,
      name: `Field seller ${i}`,
      departmentCode,
      joinDate: '2024-02-01',
      userCode: '',
    });
  }
  await admin.context().close();
});

/** The page as it is, in both schemes and at both sizes; the system scheme is switched live. */
async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, size] of Object.entries(SIZES)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SHOTS, `${name}-${label}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES.desktop);
}

/** Every toast has closed (1 s each, then their exit animation). */
async function toastsGone(page: Page) {
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
  expect(await page.locator('.Toastify__toast').count()).toBe(0);
}

describe('lasting feedback in the browser', () => {
  it('a wrong password leaves its message on the sign-in card after the toast has gone', async () => {
    const page = await e2e.newPage({ viewport: SIZES.desktop });
    await page.goto('/login');
    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const form = page.getByRole('form', { name: 'Login' });
    const alert = form.getByRole('alert');
    await alert.waitFor();
    await page.locator('.Toastify__toast').first().waitFor();
    await toastsGone(page);
    await expect.poll(() => alert.textContent()).toContain('Invalid username or password');
    expect(await alert.isVisible()).toBe(true);
    await shoot(page, 'login-failed');
    // Typing again takes it away.
    await page.getByLabel('Password', { exact: true }).fill('another-try');
    await alert.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('a refused delete keeps its reason in the open dialog after the toast has gone', async () => {
    const page = await e2e.newPage({ viewport: SIZES.desktop });
    await e2e.login(page);
    await page.goto(`/registry/department/${departmentCode}`);
    await page.getByRole('heading', { level: 1, name: 'View Department' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete department?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    await toastsGone(page);
    expect(await dialog.isVisible()).toBe(true);
    expect(await alert.textContent()).toContain(
      `Cannot delete this department: it is still used by ${EMPLOYEES} employees`,
    );
    await shoot(page, 'delete-refused');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });
});

describe('route errors', () => {
  it('a screen whose code cannot be loaded reloads once, then shows the error page in the shell', async () => {
    const page = await e2e.newPage({ viewport: SIZES.desktop });
    await e2e.login(page);
    // As after a new deployment (or with the server gone): the screen's chunk cannot be fetched.
    await page.route(/\/assets\/PerformancePage-[^/]*\.js$/, (route) => route.abort('failed'));
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.getByRole('banner').getByRole('link', { name: 'Performance Snapshot' }).first().click();
    const heading = page.getByRole('heading', { level: 1, name: 'This page could not be loaded' });
    await heading.waitFor({ timeout: 30_000 });
    expect(pathOf(page)).toBe('/performance-snapshot');
    // One reload, guarded in sessionStorage, then the page: no loop.
    await page.waitForTimeout(1500);
    expect(loads).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('wfc-chunk-reload'))).toMatch(/^\d+$/);
    // Inside the shell: header (with Sign Out) and footer.
    expect(await page.getByRole('banner').isVisible()).toBe(true);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await page.getByRole('main').getByRole('link', { name: 'Home' }).isVisible()).toBe(true);
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    await shoot(page, 'route-error');

    // Retry loads the page again: with the chunk reachable, the screen shows.
    await page.unroute(/\/assets\/PerformancePage-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Performance Snapshot' }).waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  it('Home leaves the error page for the home screen', async () => {
    const page = await e2e.newPage({ viewport: SIZES.desktop });
    await e2e.login(page);
    await page.route(/\/assets\/OverviewPage-[^/]*\.js$/, (route) => route.abort('failed'));
    await page.goto('/performance-snapshot/overview');
    await page
      .getByRole('heading', { level: 1, name: 'This page could not be loaded' })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(pathOf(page)).toBe('/');
    await page.context().close();
  });
});

describe('Access Denied', () => {
  it('names the missing permission, and Go Back lands on a page the user can see', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS']);
    const page = await e2e.newPage({ viewport: SIZES.desktop });
    await e2e.login(page, user.username, user.password);
    await page.goto('/registry/genders');
    await page.getByRole('heading', { level: 1, name: 'Genders' }).waitFor();
    // Typed into the address bar: a screen the role cannot open.
    await page.goto('/performance-snapshot');
    await page.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    expect(await page.getByTestId('missing-permission').textContent()).toBe(
      'This page needs the permission View the performance snapshot (VIEW_PERFORMANCES), which your role does not have.',
    );
    await shoot(page, 'access-denied');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.getByRole('heading', { level: 1, name: 'Genders' }).waitFor();
    expect(pathOf(page)).toBe('/registry/genders');
    await page.context().close();
  });
});
