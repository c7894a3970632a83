import { mkdirSync } from 'node:fs';
import { localIsoDate } from '@wfc/contract';
import { schema } from '@wfc/server/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pathOf, readValue, toast } from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/**
 * Every employee signs in: a role holding the self-service permissions for its own records only
 * reaches Home's cards, changes their phone on My profile, reads their scores on My performance,
 * and is refused someone else's insight page.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/shots-self';
const PASSWORD = 'amelia-password-1';
const SKILLS = ['Quality', 'Speed', 'Teamwork'];
const today = localIsoDate(new Date());
const yesterday = localIsoDate(new Date(Date.now() - 86_400_000));

let admin: Page;
let page: Page;
let consoleErrors: string[];
const codes = { me: '', other: '', profile: '' };

/** A JSON call through the admin's session. */
async function adminJson<T = Record<string, unknown>>(path: string, data: unknown): Promise<T> {
  const res = await admin.request.post(`/api/${path}`, { data });
  const env = (await res.json()) as { statusCode: number; message: string; data: T };
  if (env.statusCode !== 200) throw new Error(`${path}: ${env.statusCode} ${env.message}`);
  return env.data;
}

async function seed() {
  const perms = await e2e.db.select().from(schema.permissions);
  const code = (name: string) => perms.find((p) => p.permissionName === name)?.permissionCode ?? '';
  const held = ['VIEW_PROFILES', 'UPDATE_PROFILE', 'VIEW_EMPLOYEES', 'VIEW_PERFORMANCES'].map(code);
  const role = await adminJson<{ roleCode: string }>('CreateRole', {
    roleName: 'Employee self-service',
    rolePermissions: held,
    permissionScopes: Object.fromEntries(held.map((c) => [c, 'own'])),
  });
  const user = await apiPost<{ userCode: string }>(admin, 'register', {
    username: 'amelia.self',
    email: 'amelia.self@example.com',
    password: PASSWORD,
    roleCode: role.roleCode,
  });
  const dept = await apiPost<{ departmentCode: string }>(admin, 'CreateDepartment', { name: 'Operations' });
  const employee = (name: string, employeeId: string, userCode?: string) =>
    apiPost<{ employeeCode: string }>(admin, 'CreateEmployee', {
      employeeId,
      name,
      departmentCode: dept.departmentCode,
      joinDate: '2021-06-01',
      ...(userCode ? { userCode } : {}),
    });
  codes.me = (await employee('Amelia Hart', 'E-101', user.userCode)).employeeCode;
  codes.other = (await employee('Bruno Costa', 'E-102')).employeeCode;
  const gender = await apiPost<{ genderCode: string }>(admin, 'CreateGender', { genderName: 'Female' });
  const profile = await admin.request.post('/api/CreateProfile', {
    multipart: {
      firstName: 'Amelia',
      lastName: 'Hart',
      dob: '1990-04-12',
      genderCode: gender.genderCode,
      userCode: user.userCode,
      phoneNumber: '+49 89 1234567',
      profilePicture: { name: 'amelia.png', mimeType: 'image/png', buffer: await drawPicture() },
    },
  });
  const created = (await profile.json()) as {
    statusCode: number;
    message: string;
    data: { profileCode: string };
  };
  if (created.statusCode !== 200) throw new Error(`CreateProfile: ${created.statusCode} ${created.message}`);
  codes.profile = created.data.profileCode;
  const skillCodes: string[] = [];
  for (const title of SKILLS)
    skillCodes.push((await apiPost<{ skillCode: string }>(admin, 'CreateSkill', { title })).skillCode);
  const row = (employeeCode: string, date: string, scores: number[]) => ({
    employeeCode,
    date,
    performancePerSkill: skillCodes.map((skillCode, i) => ({
      skillCode,
      pointsEarned: String(scores[i]),
      totalPoints: 10,
    })),
  });
  await adminJson('CreateUpdatePerformances', {
    performances: [
      row(codes.me, today, [8, 7, 9]),
      row(codes.me, yesterday, [6, 6, 7]),
      row(codes.other, today, [2, 3, 4]),
    ],
  });
}

/** A real picture drawn in the page: the server decodes what it receives. */
async function drawPicture(): Promise<Buffer> {
  const url = await admin.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 160;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#7fc8a9';
    ctx.fillRect(0, 0, 160, 160);
    ctx.fillStyle = '#17212b';
    ctx.font = 'bold 64px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('AH', 80, 84);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(url.split(',')[1] ?? '', 'base64');
}

/** Full-page shots at a desktop and a phone width, light and dark, for review (not committed). */
async function shoot(name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, size] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/${name}-${label}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  admin = await e2e.newPage();
  await e2e.login(admin);
  await seed();
  page = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
  consoleErrors = watchConsole(page).errors;
  await e2e.login(page, 'amelia.self', PASSWORD);
}, 120_000);

describe('every employee signs in', () => {
  it('lands on Home with cards for their own screens', async () => {
    const sections = page.getByRole('list', { name: 'Sections' });
    await sections.getByRole('link', { name: /My profile/ }).waitFor();
    await sections.getByRole('link', { name: /My performance/ }).waitFor();
    expect(pathOf(page)).toBe('/');
    await shoot('home-employee');
  });

  it('changes their phone on My profile, saved where the registry reads it', async () => {
    await page
      .getByRole('list', { name: 'Sections' })
      .getByRole('link', { name: /My profile/ })
      .click();
    await heading(page, 'My profile').waitFor();
    const phone = () => readValue(page, 'Phone Number');
    await expect.poll(phone).toBe('+49 89 1234567');
    expect(await readValue(page, 'Employee Id')).toBe('E-101');
    await page.getByRole('img', { name: /Profile Picture/ }).waitFor();
    await shoot('my-profile');
    await page.getByRole('link', { name: 'Edit my details' }).click();
    const field = page.getByLabel('Phone Number', { exact: true });
    await expect.poll(() => field.inputValue()).toBe('+49 89 1234567');
    await shoot('my-profile-edit');
    await field.fill('+49 30 5550100');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Profile updated successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/my/profile');
    await expect.poll(phone).toBe('+49 30 5550100');
    const saved = await apiPost<{ phoneNumber: string; firstName: string; version: number }>(
      admin,
      'GetProfileByCode',
      {
        profileCode: codes.profile,
      },
    );
    expect(saved).toMatchObject({ phoneNumber: '+49 30 5550100', firstName: 'Amelia', version: 2 });
  });

  it('reads their own scores on My performance', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My performance' })
      .click();
    await heading(page, 'My performance').waitFor();
    const table = page.getByRole('table', { name: 'My scores by date' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    expect(await table.locator('tbody tr').first().locator('td').last().textContent()).toMatch(/^\d+\.\d\d$/);
    await page.getByRole('table', { name: 'Skill averages' }).waitFor();
    await page.getByText('1 - 2 of 2').waitFor();
    await shoot('my-performance');
  });

  it('cannot reach someone else’s insight page, nor its data', async () => {
    await page.goto(`/performance-snapshot/employees/${codes.other}`);
    await heading(page, 'Access Denied').waitFor();
    expect(pathOf(page)).toBe('/access-denied');
    const res = await page.request.post('/api/GetPerformanceTrend', { form: { employeeCode: codes.other } });
    expect(res.status()).not.toBe(200);
    await page.goto(`/performance-snapshot/employees/${codes.me}`);
    await heading(page, 'Amelia Hart').waitFor();
  });

  it('logged no console errors', () => {
    expect(consoleErrors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
  });
});
