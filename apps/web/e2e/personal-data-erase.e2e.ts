import { ADMIN_PASSWORD, newCode, schema } from '@wfc/server/testing';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { heading, toast } from './registry-ui';
import { sharedE2E } from './support/e2e';

/** Erasure requests in the browser: a person erased from their employee record's view. */

const e2e = sharedE2E();
const { departments, employees, users } = schema;
let departmentCode: string;

beforeAll(async () => {
  departmentCode = newCode('DEPT-');
  await e2e.db.insert(departments).values({ departmentCode, name: 'Erasures' });
});

/** An employee without a profile, linked to `userCode` when given; returns its code. */
async function employee(name: string, userCode?: string) {
  const employeeCode = newCode('EMP-');
  await e2e.db.insert(employees).values({
    employeeCode,
    employeeId: newCode('E-'),
    name,
    departmentCode,
    joinDate: '2020-02-02',
    ...(userCode ? { userCode } : {}),
  });
  return employeeCode;
}

async function openView(page: Page, employeeCode: string, name: string) {
  await page.goto(`/registry/employee/${employeeCode}`);
  await page.getByText(name).first().waitFor();
}

/** Opens the erasure dialog of the view and types the name and a password. */
async function openDialog(page: Page, name: string, password: string) {
  await page.getByRole('button', { name: 'Erase personal data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase personal data' });
  await dialog.waitFor();
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Your current password', { exact: true }).fill(password);
  return dialog;
}

describe('erasing personal data', () => {
  it("erases a person from their employee record's view, after their name and the admin's password", async () => {
    const person = await e2e.userWith([]);
    const employeeCode = await employee('Erin Erasable', person.userCode);
    const page = await e2e.newPage();
    await e2e.login(page);
    await openView(page, employeeCode, 'Erin Erasable');
    await e2e.screenshot(page, 'personal-data-erase-view');
    const dialog = await openDialog(page, 'Erin Erasable', ADMIN_PASSWORD);
    await e2e.screenshot(page, 'personal-data-erase-dialog');
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await toast(page, 'Personal data erased').waitFor();
    await heading(page, 'Employees').waitFor();
    expect(new URL(page.url()).pathname).toBe('/registry/employees');
    expect(await dialog.count()).toBe(0);
    expect(await e2e.db.select().from(users).where(eq(users.userCode, person.userCode))).toEqual([]);
    const [kept] = await e2e.db.select().from(employees).where(eq(employees.employeeCode, employeeCode));
    expect(kept?.name).toMatch(/^Erased employee \d+$/);
    expect(kept?.userCode).toBeNull();
    await page.context().close();
  });

  it('keeps a wrong password in the dialog, and erases nothing', async () => {
    const employeeCode = await employee('Walter Wrongpass');
    const page = await e2e.newPage({ colorScheme: 'dark' });
    await e2e.login(page);
    await openView(page, employeeCode, 'Walter Wrongpass');
    const dialog = await openDialog(page, 'Walter Wrongpass', 'not the password 1');
    await e2e.screenshot(page, 'personal-data-erase-dialog-dark');
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await dialog.getByRole('alert').getByText('Current password is incorrect').waitFor();
    expect(
      await dialog.getByLabel('Your current password', { exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');
    await e2e.screenshot(page, 'personal-data-erase-refused-dark');
    expect(new URL(page.url()).pathname).toBe(`/registry/employee/${employeeCode}`);
    const [kept] = await e2e.db.select().from(employees).where(eq(employees.employeeCode, employeeCode));
    expect(kept?.name).toBe('Walter Wrongpass');
    await page.context().close();
  });
});
