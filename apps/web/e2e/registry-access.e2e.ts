import { RESOURCE_BY_KEY } from '@wfc/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  columnTexts,
  expectButtons,
  filterBy,
  heading,
  pathOf,
  selectRow,
  submitForm,
  waitForRange,
} from './registry-ui';
import { describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

/** What a limited role sees, and how the shared screens look at desktop and phone widths. */

const e2e = sharedE2E();
let admin: Page;

beforeAll(async () => {
  admin = await e2e.newPage();
  await e2e.login(admin);
  for (const genderName of ['Female', 'Male', 'Non-binary'])
    await apiPost(admin, 'CreateGender', { genderName });
  await apiPost(admin, 'CreateRole', {
    roleName: 'Payroll clerk',
    roleDescription: 'Reads employee records',
  });
});

const rowActions = (page: Page) =>
  page.getByRole('toolbar', { name: 'Selected row actions' }).getByRole('button');

describe('a role with limited permissions', () => {
  it('sees only the buttons its permissions allow', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS', 'UPDATE_GENDER', 'VIEW_ROLES', 'CREATE_ROLE']);
    const page = await e2e.newPage();
    const { errors } = watchConsole(page);
    await e2e.login(page, user.username, user.password);

    await page.goto('/registry/genders');
    await heading(page, 'Genders').waitFor();
    await waitForRange(page, '1 - 3 of 3');
    expect(await page.getByRole('button', { name: 'Add Gender' }).count()).toBe(0);
    await page.getByText('Select a row to view or edit it').waitFor();
    await selectRow(page, 'Male');
    await expectButtons(rowActions(page), ['View', 'Edit', 'Clear selection']);

    await page.goto('/registry/roles');
    await heading(page, 'Roles').waitFor();
    await page.getByRole('button', { name: 'Add Role', exact: true }).waitFor();
    await selectRow(page, 'Payroll clerk');
    await expectButtons(rowActions(page), ['View', 'Clear selection']);
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View Role').waitFor();
    // Without VIEW_PERMISSIONS the role's permission list is out of reach.
    expect(await page.getByRole('button', { name: 'View Permissions' }).count()).toBe(0);

    await page.goto('/registry/gender/create');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.goto('/registry/role/edit/ROLE-ANY');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.goto('/registry/users');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('may still pick permissions for a new role without VIEW_PERMISSIONS', async () => {
    // Only permissions the user holds can be granted (delegation rules).
    const user = await e2e.userWith(['VIEW_ROLES', 'CREATE_ROLE', 'VIEW_GENDERS']);
    const page = await e2e.newPage();
    await e2e.login(page, user.username, user.password);
    await page.goto('/registry/role/create');
    await heading(page, 'Create Role').waitFor();
    await page.getByLabel('Role Name', { exact: true }).fill('Gender keeper');
    const input = page.getByLabel('Permissions', { exact: true });
    await input.click();
    await input.fill('GENDER');
    await page.getByRole('option', { name: 'VIEW_GENDERS', exact: true }).click();
    await submitForm(page);
    await page.waitForURL((url) => url.pathname === '/registry/roles');
    await filterBy(page, 'Gender keeper');
    await waitForRange(page, '1 - 1 of 1');
    const permissionsColumn = RESOURCE_BY_KEY.role.columns.findIndex((c) => c.label === 'Permissions') + 1;
    expect(await columnTexts(page, permissionsColumn)).toEqual(['1']);
    await page.context().close();
  });
});

describe('look and accessibility', () => {
  it('list, view and create screens at desktop and phone widths', async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    const { errors } = watchConsole(page);
    await e2e.login(page);

    await page.goto('/registry/genders');
    await waitForRange(page, '1 - 3 of 3');
    await selectRow(page, 'Male');
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-list');

    await page.setViewportSize(PHONE);
    // On a phone the rows become cards that fit the width (registry-phone.e2e.ts has the details).
    await page.getByRole('list', { name: 'Genders' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/registry/audit-logs');
    await filterBy(page, 'CREATE');
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View Audit Log').waitFor();
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-view');

    await page.goto('/registry/user/create');
    await heading(page, 'Create User').waitFor();
    await page.getByLabel('Username', { exact: true }).fill('x');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await submitForm(page);
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Email must be a valid email address').waitFor();
    await page.getByText('Role is required').waitFor();
    expect(pathOf(page)).toBe('/registry/user/create');
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-create');

    expect(errors).toEqual([]);
    await page.context().close();
  });
});
