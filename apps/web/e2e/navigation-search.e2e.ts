import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pathOf, readValue } from './registry-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/**
 * The side navigation and the search across modules (Ctrl+K), in a browser. Screenshots of both,
 * light and dark, wide and phone, go to /tmp/navshots/ for a look by eye.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/navshots';
const WIDE = { width: 1440, height: 900 } as const;
const PHONE = { width: 390, height: 844 } as const;
let admin: Page;
let consoleErrors: string[];

const palette = (page: Page) => page.getByRole('dialog', { name: 'Search records' });
const searchField = (page: Page) => palette(page).getByRole('combobox', { name: 'Search records' });
const option = (page: Page, name: RegExp) => palette(page).getByRole('option', { name });

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  await searchField(page).waitFor();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  admin = await e2e.newPage({ viewport: WIDE });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
  const { departmentCode } = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', {
    name: 'Finishing',
  });
  for (const { employeeId, name } of [
    { employeeId: 'FN-2231', name: 'Priya Natarajan' },
    { employeeId: 'FN-2232', name: 'Tomas Varga' },
  ]) {
    await apiPost(admin, 'CreateEmployee', {
      employeeId,
      name,
      departmentCode,
      joinDate: '2022-04-01',
    });
  }
  const { countryCode } = await apiPost<{ countryCode: string }>(admin, 'CreateCountry', {
    name: 'Portugal',
    iso2: 'PT',
    iso3: 'PRT',
  });
  const { stateCode } = await apiPost<{ stateCode: string }>(admin, 'CreateState', {
    name: 'Lisboa',
    iso: 'PT-11',
    countryCode,
  });
  await apiPost(admin, 'CreateCity', { name: 'Sintra', countryCode, stateCode });
});

afterAll(async () => {
  await admin.context().close();
});

describe('search across modules', () => {
  it('finds an employee by Employee Id with Ctrl+K and opens it with the keyboard', async () => {
    await admin.goto('/registry');
    await heading(admin, 'Registry').waitFor();
    await openPalette(admin);
    await searchField(admin).fill('fn-2232');
    await option(admin, /Tomas Varga/).waitFor();
    // Grouped under the module's name, with the Employee Id beside the name.
    await expect(palette(admin).getByText('Employees', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(option(admin, /Tomas Varga/).textContent()).resolves.toContain('FN-2232');
    await admin.screenshot({ path: `${SHOTS}/palette-wide-light.png` });
    await admin.keyboard.press('Enter');
    await admin.waitForURL((url) => url.pathname.startsWith('/registry/employee/'));
    await heading(admin, 'View Employee').waitFor();
    expect(await readValue(admin, 'Employee Id')).toBe('FN-2232');
    await expect(palette(admin).count()).resolves.toBe(0);
  });

  it('finds a city by name, moves with the arrow keys, and closes on Escape', async () => {
    await openPalette(admin);
    await searchField(admin).fill('sint');
    await option(admin, /Sintra/).waitFor();
    await expect(palette(admin).getByText('Cities', { exact: true }).isVisible()).resolves.toBe(true);
    await admin.keyboard.press('Escape');
    await palette(admin).waitFor({ state: 'hidden' });

    await admin.getByRole('button', { name: /Search records/ }).click();
    await searchField(admin).fill('a');
    await option(admin, /Priya Natarajan/).waitFor();
    await searchField(admin).fill('Sintra');
    // The answer for 'a' (which held Sintra too) gives way to the answer for 'Sintra'.
    await option(admin, /Priya Natarajan/).waitFor({ state: 'detached' });
    await expect(option(admin, /Sintra/).getAttribute('aria-selected')).resolves.toBe('true');
    await admin.keyboard.press('ArrowDown');
    await admin.keyboard.press('ArrowUp');
    await admin.keyboard.press('Enter');
    await admin.waitForURL((url) => url.pathname.startsWith('/registry/city/'));
    await heading(admin, 'View City').waitFor();
  });

  it('finds nothing of a module the user may not view', async () => {
    const user = await e2e.userWith(['VIEW_CITIES']);
    const page = await e2e.newPage({ viewport: WIDE });
    await e2e.login(page, user.username, user.password);
    await openPalette(page);
    await searchField(page).fill('Sintra');
    await option(page, /Sintra/).waitFor();
    await searchField(page).fill('FN-2231');
    await palette(page).getByText('No records match “FN-2231”').waitFor();
    await expect(option(page, /Priya/).count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('side navigation', () => {
  it('switches modules and marks the current one', async () => {
    await admin.goto('/');
    const nav = admin.getByRole('navigation', { name: 'Modules' });
    await nav.getByRole('link', { name: 'Cities' }).click();
    await admin.waitForURL((url) => url.pathname === '/registry/cities');
    await heading(admin, 'Cities').waitFor();
    await expect(nav.getByRole('link', { name: 'Cities' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await nav.getByRole('link', { name: 'Employees' }).click();
    await admin.waitForURL((url) => url.pathname === '/registry/employees');
    await heading(admin, 'Employees').waitFor();
    await expect(nav.getByRole('link', { name: 'Employees' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    expect(pathOf(admin)).toBe('/registry/employees');
  });

  it('has no serious accessibility violation, the search open or not', async () => {
    const page = await e2e.newPage({ viewport: WIDE, bypassCSP: true });
    await e2e.login(page);
    await page.goto('/registry/cities');
    await heading(page, 'Cities').waitFor();
    expect(describeViolations(await e2e.checkA11y(page)), 'side navigation').toBe('');
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    expect(describeViolations(await e2e.checkA11y(page)), 'narrowed').toBe('');
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await openPalette(page);
    await searchField(page).fill('sintra');
    await option(page, /Sintra/).waitFor();
    expect(describeViolations(await e2e.checkA11y(page)), 'search').toBe('');
    await page.context().close();
  });

  it('is drawn well in light and dark, wide and on a phone', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await e2e.newPage({ viewport: WIDE, colorScheme: scheme });
      await e2e.login(page);
      await page.goto('/registry/employees');
      await heading(page, 'Employees').waitFor();
      await page.screenshot({ path: `${SHOTS}/sidenav-wide-${scheme}.png` });
      await page.getByRole('button', { name: 'Collapse navigation' }).click();
      // The column narrows with a transition.
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/sidenav-collapsed-wide-${scheme}.png` });
      await page.getByRole('button', { name: 'Expand navigation' }).click();
      await openPalette(page);
      await searchField(page).fill('a');
      await option(page, /Priya Natarajan/).waitFor();
      await page.screenshot({ path: `${SHOTS}/palette-wide-${scheme}.png` });
      await page.keyboard.press('Escape');

      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Modules' }).click();
      await page.getByRole('navigation', { name: 'Modules' }).waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/sidenav-phone-${scheme}.png` });
      await page.keyboard.press('Escape');
      await page.getByRole('navigation', { name: 'Modules' }).waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Search records' }).click();
      await searchField(page).fill('a');
      await option(page, /Priya Natarajan/).waitFor();
      await page.screenshot({ path: `${SHOTS}/palette-phone-${scheme}.png` });
      await page.context().close();
    }
    expect(consoleErrors).toEqual([]);
  });
});
