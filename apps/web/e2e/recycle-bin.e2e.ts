import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pathOf, selectRow, toast, waitForNoLoad, waitForRange } from './registry-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/** The recycle bin: a delete keeps the record, which its module's Deleted records screen restores. */

const e2e = sharedE2E();
let admin: Page;
let consoleErrors: string[];

const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

beforeAll(async () => {
  admin = await e2e.newPage({ bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
});

afterAll(() => {
  // The refused restore is logged by the browser as a failed request: nothing else may be.
  expect(consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
});

/** The screen as it is, at desktop and phone widths, into apps/web/screenshots/. */
async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [label, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

const binRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('Deleted records', () => {
  it('lists a deleted department, restores one and deletes another permanently', async () => {
    await apiPost(admin, 'CreateDepartment', { name: 'Archive Team' });
    const other = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', {
      name: 'Old Projects',
    });
    await apiPost(admin, 'DeleteDepartment', { departmentCode: other.departmentCode });

    await admin.goto('/registry/departments?keyword=Archive');
    await waitForRange(admin, '1 - 1 of 1');
    await selectRow(admin, 'Archive Team');
    await admin.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = admin.getByRole('dialog', { name: 'Delete department?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(admin, 'Department deleted successfully').waitFor();
    await shoot(admin, 'recycle-bin-list');

    await admin.getByRole('button', { name: 'Deleted records' }).click();
    await heading(admin, 'Deleted departments').waitFor();
    expect(pathOf(admin)).toBe('/registry/departments/deleted');
    await waitForRange(admin, '1 - 2 of 2');
    await waitForNoLoad(admin);
    // The most recently deleted first, with who deleted it.
    const rows = admin.getByRole('table', { name: 'Deleted departments' }).locator('tbody tr');
    expect(await rows.first().textContent()).toContain('Archive Team');
    expect(await rows.first().textContent()).toContain('admin');
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');
    await shoot(admin, 'recycle-bin-light');

    await binRow(admin, 'Archive Team').getByRole('button', { name: 'Restore Archive Team' }).click();
    const restore = admin.getByRole('dialog', { name: 'Restore department?' });
    await restore.getByText('"Archive Team" comes back with its code', { exact: false }).waitFor();
    await restore.getByRole('button', { name: 'Restore', exact: true }).click();
    await toast(admin, 'Department restored successfully').waitFor();
    await waitForRange(admin, '1 - 1 of 1');

    await binRow(admin, 'Old Projects')
      .getByRole('button', { name: 'Delete permanently Old Projects' })
      .click();
    const purge = admin.getByRole('dialog', { name: 'Delete department permanently?' });
    await purge.getByRole('button', { name: 'Delete permanently', exact: true }).click();
    await toast(admin, 'Record deleted permanently').waitFor();
    await admin.getByText('No deleted departments', { exact: true }).waitFor();

    await admin.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(admin, 'Departments').waitFor();
    await admin.goto('/registry/departments?keyword=Archive');
    await admin.getByRole('cell', { name: 'Archive Team', exact: true }).waitFor();
  });

  it('refuses a state whose country is in the bin, and offers to restore the country first', async () => {
    const country = await apiPost<{ countryCode: string }>(admin, 'CreateCountry', {
      name: 'Binland',
      iso2: 'BQ',
      iso3: 'BQB',
    });
    const state = await apiPost<{ stateCode: string }>(admin, 'CreateState', {
      name: 'Bin State',
      iso: 'BS',
      countryCode: country.countryCode,
    });
    await apiPost(admin, 'DeleteState', { stateCode: state.stateCode });
    await apiPost(admin, 'DeleteCountry', { countryCode: country.countryCode });

    await admin.goto('/registry/states/deleted');
    await heading(admin, 'Deleted states').waitFor();
    await binRow(admin, 'Bin State').getByRole('button', { name: 'Restore Bin State' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Restore state?' });
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialog
      .getByText("Cannot restore this state: its country 'Binland' is in the recycle bin", { exact: false })
      .waitFor();
    await toast(admin, "its country 'Binland' is in the recycle bin").waitFor();
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');
    await shoot(admin, 'recycle-bin-refused');

    await dialog.getByRole('button', { name: 'Restore the country first' }).click();
    await toast(admin, 'Country restored successfully').waitFor();
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await toast(admin, 'State restored successfully').waitFor();
    await admin.getByText('No deleted states', { exact: true }).waitFor();
  });

  it('looks the same in the dark theme', async () => {
    const page = await e2e.newPage({ colorScheme: 'dark' });
    await e2e.login(page);
    for (const name of ['Dark One', 'Dark Two']) {
      const made = await apiPost<{ skillCode: string }>(page, 'CreateSkill', {
        title: name,
        description: '',
      });
      await apiPost(page, 'DeleteSkill', { skillCode: made.skillCode });
    }
    await page.goto('/registry/skills/deleted');
    await heading(page, 'Deleted skills').waitFor();
    await waitForRange(page, '1 - 2 of 2');
    await shoot(page, 'recycle-bin-dark');
    await binRow(page, 'Dark One').getByRole('button', { name: 'Delete permanently Dark One' }).click();
    await page.getByRole('dialog', { name: 'Delete skill permanently?' }).waitFor();
    await shoot(page, 'recycle-bin-dark-purge');
    await page.context().close();
  });

  it('is offered only to holders of the module DELETE permission', async () => {
    const viewer = await e2e.userWith(['VIEW_DEPARTMENTS']);
    const page = await e2e.newPage();
    await e2e.login(page, viewer.username, viewer.password);
    await page.goto('/registry/departments');
    await heading(page, 'Departments').waitFor();
    await waitForNoLoad(page);
    expect(await page.getByRole('button', { name: 'Deleted records' }).count()).toBe(0);
    await page.goto('/registry/departments/deleted');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.context().close();
  });
});
