import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pathOf, readValue, submitForm, toast, waitForRange } from './registry-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/** "Restore this version" on the audit log: an update undone by a new update of the record. */

const e2e = sharedE2E();
let admin: Page;
let consoleErrors: string[];

interface Department {
  departmentCode: string;
  name: string;
  version: number;
}

beforeAll(async () => {
  admin = await e2e.newPage({ bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
});

afterAll(() => {
  // The refused restore is logged by the browser as a failed request: nothing else may be.
  expect(consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
});

/** Opens the view of the record's one UPDATE entry from the audit log's list. */
async function openUpdateEntry(page: Page, code: string) {
  await page.goto(`/registry/audit-logs?collection=departments&recordCode=${code}&action=UPDATE`);
  await waitForRange(page, '1 - 1 of 1');
  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: 'View', exact: true }).click();
  await heading(page, 'View Audit Log').waitFor();
}

const restoreDialog = (page: Page) => page.getByRole('dialog', { name: 'Restore this version?' });

describe('Restore this version', () => {
  it('gives an edited record its old values back, and shows it', async () => {
    const made = await apiPost<Department>(admin, 'CreateDepartment', { name: 'Field Operations' });
    await admin.goto(`/registry/department/edit/${made.departmentCode}`);
    const name = admin.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Field Operations');
    await name.fill('Field Services');
    await submitForm(admin);
    await toast(admin, 'Department updated successfully').waitFor();

    await openUpdateEntry(admin, made.departmentCode);
    await admin.getByRole('button', { name: 'Restore this version' }).click();
    const dialog = restoreDialog(admin);
    await dialog
      .getByText('The department "Field Services" gets back the values it had before this change.', {
        exact: false,
      })
      .waitFor();
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');
    await e2e.screenshot(admin, 'audit-restore-version');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();

    await toast(admin, 'Department updated successfully').waitFor();
    await heading(admin, 'View Department').waitFor();
    expect(pathOf(admin)).toBe(`/registry/department/${made.departmentCode}`);
    expect(await readValue(admin, 'Name')).toBe('Field Operations');
    const stored = await apiPost<Department>(admin, 'GetDepartmentByCode', {
      departmentCode: made.departmentCode,
    });
    expect(stored).toMatchObject({ name: 'Field Operations', version: 3 });

    // The restore is an update of its own, which names the entry it restored.
    await admin.goto(
      `/registry/audit-logs?collection=departments&recordCode=${made.departmentCode}&action=UPDATE`,
    );
    await waitForRange(admin, '1 - 2 of 2');
    await admin.getByRole('radio').first().check();
    await admin.getByRole('button', { name: 'View', exact: true }).click();
    await heading(admin, 'View Audit Log').waitFor();
    const changes = admin.getByRole('table', { name: 'Changes' });
    await changes.getByRole('row', { name: /Restored from/ }).waitFor();
    expect(await changes.getByRole('row', { name: /^Name/ }).innerText()).toMatch(
      /Name\s+Changed\s+Field Services\s+Field Operations/,
    );
    await e2e.screenshot(admin, 'audit-restore-version-entry');
  });

  it('keeps a change made meanwhile in the dialog, and restores over it when asked again', async () => {
    const made = await apiPost<Department>(admin, 'CreateDepartment', { name: 'Night Shift' });
    await apiPost(admin, 'UpdateDepartment', { departmentCode: made.departmentCode, name: 'Late Shift' });
    await openUpdateEntry(admin, made.departmentCode);
    await admin.getByRole('button', { name: 'Restore this version' }).click();
    const dialog = restoreDialog(admin);
    await dialog.getByText('"Late Shift"', { exact: false }).waitFor();
    // Someone else changes the record while the dialog is open.
    await apiPost(admin, 'UpdateDepartment', { departmentCode: made.departmentCode, name: 'Evening Shift' });
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      /This department was changed by admin at .+ UTC since you opened it\. Nothing was restored\. Restore again to put this version over their change\./,
    );
    await e2e.screenshot(admin, 'audit-restore-version-conflict');
    expect(
      (await apiPost<Department>(admin, 'GetDepartmentByCode', { departmentCode: made.departmentCode })).name,
    ).toBe('Evening Shift');

    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await toast(admin, 'Department updated successfully').waitFor();
    await heading(admin, 'View Department').waitFor();
    expect(await readValue(admin, 'Name')).toBe('Night Shift');
  });
});
