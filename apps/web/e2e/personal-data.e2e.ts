import { readFile } from 'node:fs/promises';
import { newCode, schema } from '@wfc/server/testing';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedE2E } from './support/e2e';

/** Access requests in the browser: the export from a person's record, and one's own from My account. */

const e2e = sharedE2E();
const { departments, employees } = schema;
let employeeCode: string;

beforeAll(async () => {
  const departmentCode = newCode('DEPT-');
  await e2e.db.insert(departments).values({ departmentCode, name: 'Records' });
  employeeCode = newCode('EMP-');
  await e2e.db.insert(employees).values({
    employeeCode,
    employeeId: 'EMP-9001',
    name: 'Petra Private',
    departmentCode,
    joinDate: '2019-09-09',
  });
});

/** Clicks `button` and reads the ZIP it downloads: its name and its JSON. */
async function downloadZip(page: Page, button: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const path = await download.path();
  const files = unzipSync(new Uint8Array(await readFile(path)));
  const json = files['personal-data.json'];
  if (!json) throw new Error(`no data file among ${Object.keys(files).join(', ')}`);
  return {
    name: download.suggestedFilename(),
    data: JSON.parse(strFromU8(json)) as {
      person: { userCode: string | null; username: string | null; employeeCodes: string[] };
      tables: Record<string, Record<string, unknown>[]>;
    },
    files: Object.keys(files),
  };
}

describe('personal data', () => {
  it("exports a person's data from their employee record, for those who answer access requests only", async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.goto(`/registry/employee/${employeeCode}`);
    await page.getByText('Petra Private').first().waitFor();
    const zip = await downloadZip(page, 'Export personal data');
    expect(zip.name).toMatch(new RegExp(`^personal-data-${employeeCode}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    expect(zip.data.person).toMatchObject({ userCode: null, employeeCodes: [employeeCode] });
    expect(zip.data.tables.employees?.[0]).toMatchObject({ name: 'Petra Private', join_date: '2019-09-09' });
    expect(zip.files).toContain('summary.html');
    await page.locator('.Toastify__toast', { hasText: 'Personal data exported' }).waitFor();
    await e2e.screenshot(page, 'personal-data-employee-view');

    const viewer = await e2e.userWith(['VIEW_EMPLOYEES']);
    const other = await e2e.newPage();
    await e2e.login(other, viewer.username, viewer.password);
    await other.goto(`/registry/employee/${employeeCode}`);
    await other.getByText('Petra Private').first().waitFor();
    expect(await other.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Export personal data' }).count()).toBe(0);
    await page.context().close();
    await other.context().close();
  });

  it('downloads one’s own data from My account, whatever the role holds', async () => {
    const person = await e2e.userWith([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await e2e.newPage({ colorScheme });
      await e2e.login(page, person.username, person.password);
      await page.goto('/account');
      const section = page.getByRole('region', { name: 'Your data' });
      await section.waitFor();
      const zip = await downloadZip(page, 'Download my data');
      expect(zip.data.person).toMatchObject({ userCode: person.userCode, username: person.username });
      expect(zip.data.tables.users?.[0]).toMatchObject({ user_code: person.userCode });
      expect(JSON.stringify(zip.data)).not.toContain('password_hash');
      await e2e.screenshot(page, `personal-data-my-account-${colorScheme}`);
      await page.context().close();
    }
  });
});
