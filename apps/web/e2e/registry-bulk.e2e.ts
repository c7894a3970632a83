import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, bodyRows, columnTexts, filterBy, pick, toast } from './registry-ui';
import { PHONE, sharedE2E, watchConsole } from './support/e2e';

/**
 * Bulk actions on a list: several records chosen by their check boxes, deleted or moved to
 * another department after one confirmation, each with its own audit entry; photographed in both
 * themes at a desktop's and a phone's width with rows chosen and the confirmation open.
 */

const e2e = sharedE2E();
let admin: Page;
let consoleErrors: string[];

const SHOTS = process.env.BULK_SHOTS_DIR ?? '/tmp/bulkshots';
const WIDE = { width: 1440, height: 900 } as const;

/** No transition running: a dialog photographed while it fades in looks washed out. */
const still = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

const toolbar = (page: Page, plural: string) => page.getByRole('region', { name: `Selected ${plural}` });

/** An audit entry, as far as these tests read it: an employee's department before and after. */
interface Audit {
  recordCode: string;
  before: { department?: { name: string } } | null;
  after: { department?: { name: string } } | null;
}

async function auditsOf(page: Page, collection: string, action: string, codes: readonly string[]) {
  const res = await page.request.get('/api/GetAudits', { params: { collection, action, limit: 100 } });
  const all = ((await res.json()) as { data: Audit[] }).data;
  return all.filter((a) => codes.includes(a.recordCode));
}

beforeAll(async () => {
  admin = await e2e.newPage({ viewport: WIDE });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
});

afterAll(() => {
  // The refused delete's 409 is the browser's own report of the answer, and expected.
  expect(consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
});

describe('bulk actions on a list', () => {
  it('deletes the chosen records after one confirmation, one audit entry each', async () => {
    const codes: string[] = [];
    for (const name of ['Bulky One', 'Bulky Two', 'Bulky Three']) {
      codes.push(
        (await apiPost<{ genderCode: string }>(admin, 'CreateGender', { genderName: name })).genderCode,
      );
    }
    await admin.goto('/registry/genders');
    await filterBy(admin, 'Bulky');
    await expect.poll(() => bodyRows(admin).count()).toBe(3);
    await admin.getByRole('checkbox', { name: 'Choose every gender of this page' }).check();
    await toolbar(admin, 'genders').getByText('3 selected').waitFor();
    await toolbar(admin, 'genders').getByRole('button', { name: 'Delete' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Delete 3 genders?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete 3' }).click();
    await toast(admin, 'Genders deleted successfully').waitFor();
    await admin.getByText('No gender added yet', { exact: false }).waitFor();

    const entries = await auditsOf(admin, 'genders', 'DELETE', codes);
    expect(entries.map((e) => e.recordCode).sort()).toEqual([...codes].sort());
    await admin.goto('/registry/audit-logs?collection=genders&action=DELETE');
    await expect
      .poll(async () => (await columnTexts(admin, 1)).filter((a) => a === 'Deleted').length)
      .toBeGreaterThanOrEqual(3);
  });

  it('moves the chosen employees to another department, and the audit log shows each move', async () => {
    const from = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', { name: 'Bulk From' });
    await apiPost(admin, 'CreateDepartment', { name: 'Bulk To' });
    const codes: string[] = [];
    for (const [id, name] of [
      ['BULK-1', 'Bulk Person One'],
      ['BULK-2', 'Bulk Person Two'],
    ] as const) {
      const made = await apiPost<{ employeeCode: string }>(admin, 'CreateEmployee', {
        employeeId: id,
        name,
        departmentCode: from.departmentCode,
        joinDate: '2024-02-01',
      });
      codes.push(made.employeeCode);
    }
    await admin.goto('/registry/employees');
    await filterBy(admin, 'Bulk Person');
    await expect.poll(() => bodyRows(admin).count()).toBe(2);
    await admin.getByRole('checkbox', { name: 'Choose Bulk Person One' }).check();
    await admin.getByRole('checkbox', { name: 'Choose Bulk Person Two' }).check();
    await toolbar(admin, 'employees').getByRole('button', { name: 'Change department' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Change the department of 2 employees' });
    await dialog.waitFor();
    await pick(admin, 'New department', 'Bulk To');
    await dialog.getByRole('button', { name: 'Change 2' }).click();
    await toast(admin, 'Employees updated successfully').waitFor();
    await expect.poll(() => columnTexts(admin, 3)).toEqual(['Bulk To', 'Bulk To']);

    const entries = await auditsOf(admin, 'employees', 'UPDATE', codes);
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      expect(e.before?.department?.name).toBe('Bulk From');
      expect(e.after?.department?.name).toBe('Bulk To');
    }
  });

  it('keeps a refused delete in the dialog, naming the record that blocked it', async () => {
    // Names of their own: a retry starts with the departments of the try before.
    const tag = Date.now().toString(36);
    const used = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', {
      name: `Bulk Used ${tag}`,
    });
    await apiPost(admin, 'CreateDepartment', { name: `Bulk Unused ${tag}` });
    await apiPost(admin, 'CreateEmployee', {
      employeeId: `BULK-${tag}`,
      name: 'Bulk Person Three',
      departmentCode: used.departmentCode,
      joinDate: '2024-02-01',
    });
    await admin.goto('/registry/departments');
    await filterBy(admin, tag);
    await expect.poll(() => bodyRows(admin).count()).toBe(2);
    await admin.getByRole('checkbox', { name: 'Choose every department of this page' }).check();
    await toolbar(admin, 'departments').getByRole('button', { name: 'Delete' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Delete 2 departments?' });
    await dialog.getByRole('button', { name: 'Delete 2' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      `Nothing was deleted. Bulk Used ${tag}: Cannot delete this department: it is still used by 1 employee`,
    );
    // The toast goes; the dialog's message stays, and both departments are still listed.
    await admin.waitForTimeout(1500);
    expect(await alert.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => bodyRows(admin).count()).toBe(2);
  });
});

describe.each([
  ['light', 'desktop', WIDE],
  ['dark', 'desktop', WIDE],
  ['light', 'phone', PHONE],
  ['dark', 'phone', PHONE],
] as const)('a list with rows chosen, %s on a %s', (scheme, width, viewport) => {
  it('shows the toolbar and the confirmation, photographed', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await e2e.newPage({ colorScheme: scheme, viewport });
    await e2e.login(page);
    await page.goto('/registry/employees');
    await filterBy(page, 'Bulk Person');
    const first = page.getByRole('checkbox', { name: 'Choose Bulk Person One' });
    await first.waitFor();
    await first.check();
    await page.getByRole('checkbox', { name: 'Choose Bulk Person Two' }).check();
    await toolbar(page, 'employees').getByText('2 selected').waitFor();
    await still(page);
    await page.screenshot({ path: `${SHOTS}/employees-selected-${width}-${scheme}.png` });
    await toolbar(page, 'employees').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 employees?' }).waitFor();
    await still(page);
    await page.screenshot({ path: `${SHOTS}/employees-confirm-${width}-${scheme}.png` });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await toolbar(page, 'employees').getByRole('button', { name: 'Change department' }).click();
    await page.getByRole('dialog', { name: 'Change the department of 2 employees' }).waitFor();
    await page.getByLabel('New department', { exact: true }).click();
    await page.getByRole('option', { name: 'Bulk To', exact: true }).waitFor();
    await still(page);
    await page.screenshot({ path: `${SHOTS}/employees-change-${width}-${scheme}.png` });
    await page.context().close();
  });
});
