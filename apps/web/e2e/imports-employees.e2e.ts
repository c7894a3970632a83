import { schema } from '@wfc/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, chooseCsv, IMPORT_DESKTOP, shoot, shootAsIs, toast } from './imports-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/*
 * The import wizard for employees in a browser, against the real server: a CSV written here with
 * a row naming a department that does not exist (and a name quoted around its comma) uploaded
 * from the Employees list, its mapping and preview seen, the erroneous row skipped on purpose, the
 * import committed and its records found in the list; then the same file fixed and imported again
 * updates nothing it already wrote. Photographed at a desktop's and a phone's width, light and dark.
 */

const e2e = sharedE2E();
let admin: Page;
let consoleErrors: string[];

const HEADER = ['Employee Id', 'Name', 'Department', 'Join Date', 'Notes'] as const;
const ROWS = [
  ['IMP-101', 'Ada Lovelace', 'Analytics', '2024-03-01', 'First programmer'],
  ['IMP-102', 'Alan Turing', 'Nowhere', '2024-03-02', ''],
  ['IMP-103', 'Hopper, Grace', 'Analytics', '2024-03-03', 'Quoted, with a comma'],
] as const;

beforeAll(async () => {
  await e2e.db.insert(schema.departments).values({ departmentCode: 'DEPT-IMPORT-1', name: 'Analytics' });
  admin = await e2e.newPage({ viewport: IMPORT_DESKTOP, bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
});

afterAll(() => {
  // The refused commit's 400 is the browser's own report of the answer, and expected.
  expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});

const employeeRows = (page: Page) => page.getByRole('table').locator('tbody tr');

describe('importing employees', () => {
  it('uploads from the list, previews the error, skips it on purpose and finds the records in the list', async () => {
    await admin.goto('/registry/employees');
    await admin.getByRole('link', { name: 'Import', exact: true }).click();
    await admin.getByRole('heading', { level: 1, name: 'Import Employees' }).waitFor();
    expect(await admin.getByRole('button', { name: 'Download the CSV template' }).count()).toBe(1);
    await chooseCsv(admin, 'new-hires.csv', [HEADER, ...ROWS]);
    await shoot(admin, 'imports-employees-1-upload');
    await admin.getByRole('button', { name: 'Upload and check' }).click();

    // The mapping as the server matched the headers: Notes is no field of an employee.
    const mapping = admin.getByRole('table', { name: 'Column mapping' });
    await mapping.waitFor();
    expect(await admin.getByRole('combobox', { name: 'Field for Department' }).textContent()).toBe(
      'Department *',
    );
    expect(await admin.getByRole('combobox', { name: 'Field for Notes' }).textContent()).toBe(
      'Ignore this column',
    );
    await shoot(admin, 'imports-employees-2-mapping');
    await admin.getByRole('button', { name: 'Continue to preview' }).click();

    const errors = admin.getByRole('table', { name: 'Errors' });
    await errors.waitFor();
    const errorCells = await errors.locator('tbody tr').first().getByRole('cell').allTextContents();
    expect(errorCells.slice(0, 2)).toEqual(['3', 'Department']);
    expect(errorCells[2]).toMatch(/Nowhere|department/i);
    const sample = admin.getByRole('table', { name: 'First rows' });
    await expect.poll(() => sample.locator('tbody tr[data-errored]').count()).toBe(1);
    expect(await sample.locator('tbody tr[data-errored]').textContent()).toContain('Nowhere');
    expect(await sample.textContent()).toContain('Hopper, Grace');

    const commit = admin.getByRole('button', { name: 'Import 2 rows' });
    expect(await commit.isDisabled()).toBe(true);
    expect(await accessibilityProblems(e2e, admin)).toBe('');
    await shoot(admin, 'imports-employees-3-preview');

    await admin.getByRole('checkbox', { name: /Skip the 1 row with errors/ }).check();
    expect(await commit.isDisabled()).toBe(false);
    await commit.click();
    await admin
      .getByText('new-hires.csv was imported into employees, leaving out 1 row with errors.')
      .waitFor();
    await toast(admin, 'Import committed').waitFor();
    await shoot(admin, 'imports-employees-4-result');

    await admin.getByRole('link', { name: 'Open Employees' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Employees' }).waitFor();
    await admin.getByRole('textbox', { name: 'Filter employees' }).fill('IMP-10');
    await admin.getByRole('textbox', { name: 'Filter employees' }).press('Enter');
    await expect.poll(() => employeeRows(admin).count()).toBe(2);
    const listed = (await employeeRows(admin).allTextContents()).join(' | ');
    expect(listed).toContain('Ada Lovelace');
    expect(listed).toContain('Hopper, Grace');
    expect(listed).not.toContain('Alan Turing');

    // Export keeps CSV on its button; its menu offers XLSX, of the list as filtered.
    await admin.getByRole('button', { name: 'More export formats' }).click();
    const menu = admin.getByRole('menu');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
      expect.stringContaining('Export CSV'),
      expect.stringContaining('Export XLSX'),
    ]);
    await shootAsIs(admin, 'imports-employees-6-export-menu-desktop-light');
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      menu.getByRole('menuitem', { name: /Export XLSX/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^employees.*\.xlsx$/);
  });

  it('imports the fixed file again: the missing row is created, the others are unchanged', async () => {
    await admin.goto('/imports/new?module=employee');
    await admin.getByRole('heading', { level: 1, name: 'Import Employees' }).waitFor();
    const fixed = ROWS.map((r) =>
      r[0] === 'IMP-102' ? ['IMP-102', 'Alan Turing', 'Analytics', r[3], r[4]] : r,
    );
    await chooseCsv(admin, 'new-hires-fixed.csv', [HEADER, ...fixed]);
    await admin.getByRole('button', { name: 'Upload and check' }).click();
    await admin.getByRole('button', { name: 'Continue to preview' }).click();
    const counts = admin.getByRole('group', { name: 'Rows' });
    await counts.waitFor();
    expect(await counts.innerText()).toMatch(
      /1\s+To create\s+0\s+To update\s+2\s+Unchanged\s+0\s+With errors/,
    );
    expect(await admin.getByRole('table', { name: 'Errors' }).count()).toBe(0);
    await admin.getByRole('button', { name: 'Import 1 row' }).click();
    await admin.getByText('new-hires-fixed.csv was imported into employees.').waitFor();

    // Both imports on the Imports screen, the first with its error report.
    await admin.goto('/imports');
    const table = admin.getByRole('table', { name: 'Imports' });
    await table.waitFor();
    const first = table.locator('tbody tr', { hasText: 'new-hires.csv' });
    expect(await first.textContent()).toContain('Imported');
    expect(await first.getByRole('button', { name: /Download the error of new-hires\.csv/ }).count()).toBe(1);
    expect(await accessibilityProblems(e2e, admin)).toBe('');
    await shoot(admin, 'imports-employees-5-imports');

    // The row opens the import where it stands: its result.
    await first.getByRole('link', { name: 'new-hires.csv' }).click();
    await admin
      .getByText('new-hires.csv was imported into employees, leaving out 1 row with errors.')
      .waitFor();
  });
});
