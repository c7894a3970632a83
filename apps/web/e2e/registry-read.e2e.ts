import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  filterBy,
  heading,
  pathOf,
  readValue,
  submitForm,
  toast,
  viewEntry,
  waitForRange,
} from './registry-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/**
 * Views read their record (references lead to the records they name), lists link the records
 * they name, and a selector creates the record it needs in place. Screenshots of the views go to
 * /tmp/shots-views/ for a look by eye.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/shots-views';
let admin: Page;
let consoleErrors: string[];
const codes = { employee: '', profile: '', role: '', department: '' };

/** One small square picture, enough for a profile to show one. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function post<T>(page: Page, path: string, data: Record<string, unknown>): Promise<T> {
  const res = await page.request.post(`/api/${path}`, { data });
  const env = (await res.json()) as { statusCode: number; message: string; data: T };
  if (env.statusCode !== 200) throw new Error(`${path}: ${env.statusCode} ${env.message}`);
  return env.data;
}

beforeAll(async () => {
  admin = await e2e.newPage({ bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
  const department = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', {
    name: 'Assembly',
  });
  codes.department = department.departmentCode;
  const permissions = await admin.request.get('/api/GetPermissions', { params: { limit: '100' } });
  const catalogue = (
    (await permissions.json()) as { data: { permissionCode: string; permissionName: string }[] }
  ).data;
  const role = await post<{ roleCode: string }>(admin, 'CreateRole', {
    roleName: 'Line lead',
    roleDescription: 'Runs a line: its people and their scores',
    rolePermissions: catalogue
      .filter((p) => /EMPLOYEE|DEPARTMENT|PERFORMANCE/.test(p.permissionName))
      .map((p) => p.permissionCode),
  });
  codes.role = role.roleCode;
  const user = await apiPost<{ userCode: string }>(admin, 'register', {
    username: 'dana.reyes',
    email: 'dana.reyes@example.com',
    password: 'dana-password-1',
    roleCode: codes.role,
  });
  const employee = await apiPost<{ employeeCode: string }>(admin, 'CreateEmployee', {
    employeeId: 'E-100',
    name: 'Dana Reyes',
    departmentCode: codes.department,
    joinDate: '2023-03-09',
    userCode: user.userCode,
  });
  codes.employee = employee.employeeCode;
  const gender = await apiPost<{ genderCode: string }>(admin, 'CreateGender', { genderName: 'Female' });
  const created = await admin.request.post('/api/CreateProfile', {
    multipart: {
      firstName: 'Dana',
      lastName: 'Reyes',
      dob: '1991-07-21',
      genderCode: gender.genderCode,
      userCode: user.userCode,
      phoneNumber: '+49 30 1234567',
      'social[linkedin]': 'https://www.linkedin.com/in/dana-reyes',
      'social[websitePortfolioUrl]': 'https://dana.example.com',
      'notification[email]': 'true',
      profilePicture: { name: 'dana.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL_PNG, 'base64') },
    },
  });
  codes.profile = ((await created.json()) as { data: { profileCode: string } }).data.profileCode;
});

afterAll(() => {
  expect(consoleErrors).toEqual([]);
});

describe('a view reads its record', () => {
  it("names the employee under the title and leads from its department to the department's view", async () => {
    await admin.goto(`/registry/employee/${codes.employee}`);
    await heading(admin, 'View Employee').waitFor();
    expect(await readValue(admin, 'Employee Id')).toBe('E-100');
    // The record's name right under the title.
    expect(
      await admin.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::*[1]').textContent(),
    ).toBe('Dana Reyes');
    expect(await admin.getByRole('main').getByRole('textbox').count()).toBe(0);
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');
    await viewEntry(admin, 'Department').getByRole('link', { name: 'Assembly' }).click();
    await heading(admin, 'View Department').waitFor();
    await admin.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(admin, 'View Employee').waitFor();
  });

  it('opens a social link in a new tab that cannot reach back', async () => {
    await admin.goto(`/registry/profile/${codes.profile}`);
    await heading(admin, 'View Profile').waitFor();
    const link = viewEntry(admin, 'LinkedIn').getByRole('link');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await readValue(admin, 'Twitter')).toBe('—');
    await admin.getByRole('img', { name: /^Profile Picture/ }).waitFor();
  });
});

describe('a list links the records it names', () => {
  it('leads from the department cell to the department, and selects the row beside it', async () => {
    await admin.goto('/registry/employees');
    await filterBy(admin, 'Dana');
    await waitForRange(admin, '1 - 1 of 1');
    await admin.getByRole('cell', { name: 'E-100', exact: true }).click();
    expect(await admin.getByRole('radio', { name: /Dana Reyes/ }).isChecked()).toBe(true);
    await admin.getByRole('row').getByRole('link', { name: 'Assembly' }).click();
    await heading(admin, 'View Department').waitFor();
    expect(pathOf(admin)).toBe(`/registry/department/${codes.department}`);
  });
});

describe('a selector creates what it needs', () => {
  it('creates a department from the employee form and saves the employee in it', async () => {
    await admin.goto('/registry/employee/create');
    await heading(admin, 'Create Employee').waitFor();
    await admin.getByLabel('Employee Id', { exact: true }).fill('E-200');
    await admin.getByLabel('Name', { exact: true }).fill('Noor Haddad');
    await admin.getByRole('button', { name: 'New department…' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Create Department' });
    await dialog.getByLabel('Name', { exact: true }).fill('Research');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await toast(admin, 'Department created successfully').waitFor();
    await admin.getByLabel('Join Date', { exact: true }).fill('2024-05-01');
    await submitForm(admin);
    await toast(admin, 'Employee created successfully').waitFor();
    const res = await admin.request.get('/api/GetEmployees', { params: { keyword: 'Noor' } });
    const [row] = ((await res.json()) as { data: { department: { name: string } }[] }).data;
    expect(row?.department.name).toBe('Research');
  });
});

describe('screenshots of the views', () => {
  const views = [
    ['employee', () => `/registry/employee/${codes.employee}`, 'View Employee'],
    ['profile', () => `/registry/profile/${codes.profile}`, 'View Profile'],
    ['role', () => `/registry/role/${codes.role}`, 'View Role'],
  ] as const;
  const sizes = [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const;
  for (const scheme of ['light', 'dark'] as const) {
    it(`in the ${scheme} theme`, async () => {
      for (const [size, viewport] of sizes) {
        const page = await e2e.newPage({ colorScheme: scheme, viewport });
        await e2e.login(page);
        for (const [name, path, title] of views) {
          await page.goto(path());
          await heading(page, title).waitFor();
          await page.getByRole('region', { name: 'Record details' }).waitFor();
          if (name === 'profile') await page.getByRole('img', { name: /^Profile Picture/ }).waitFor();
          await page.screenshot({ path: `${SHOTS}/${name}-${size}-${scheme}.png`, fullPage: true });
        }
        await page.context().close();
      }
    });
  }
});
