import { mkdirSync } from 'node:fs';
import { localIsoDate } from '@wfc/contract';
import { newCode, schema } from '@wfc/server/testing';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cell, fillCell } from './performance-ui';
import { apiPost, heading, pick, submitForm, toast } from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/**
 * A team lead: the Administrator gives a role its permissions on scores for the team in the role
 * form; the lead then sees and scores the employees of the department they manage, and nobody else.
 */

const e2e = sharedE2E();
const SHOTS = '/tmp/shots-team';
const PASSWORD = 'terry-password-1';
const SKILLS = ['Quality', 'Speed'];
const TEAM = ['Team Ava', 'Team Ben'];
const OUTSIDER = 'Outsider Olga';
const today = localIsoDate(new Date());
const TEAM_PERMISSIONS = ['VIEW_EMPLOYEES', 'VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];

let admin: Page;
let lead: Page;
let consoleErrors: string[];
const codes: Record<string, string> = {};

/** Support is Terry's team; Sales is not; Terry works in Office. */
const DEPARTMENTS = { support: newCode('DEPT-'), sales: newCode('DEPT-'), office: newCode('DEPT-') };

async function seed() {
  const { departments, departmentManagers, employees, skills } = schema;
  await e2e.db.insert(departments).values([
    { departmentCode: DEPARTMENTS.support, name: 'Support' },
    { departmentCode: DEPARTMENTS.sales, name: 'Sales' },
    { departmentCode: DEPARTMENTS.office, name: 'Office' },
  ]);
  await e2e.db.insert(skills).values(SKILLS.map((title) => ({ skillCode: newCode('SKILL-'), title })));
  const people = [
    ...TEAM.map((name) => [name, DEPARTMENTS.support] as const),
    [OUTSIDER, DEPARTMENTS.sales] as const,
    ['Terry Lead', DEPARTMENTS.office] as const,
  ];
  await e2e.db.insert(employees).values(
    people.map(([name, departmentCode], i) => {
      const employeeCode = newCode('EMP-');
      codes[name] = employeeCode;
      return { employeeCode, employeeId: `TL-${100 + i}`, name, departmentCode, joinDate: '2021-06-01' };
    }),
  );
  await e2e.db
    .insert(departmentManagers)
    .values({ departmentCode: DEPARTMENTS.support, employeeCode: codes['Terry Lead'] ?? '' });
}

/** The role made in the role form, each of its permissions held for the team. */
async function createTeamRole() {
  await admin.goto('/registry/role/create');
  await heading(admin, 'Create Role').waitFor();
  await admin.getByLabel('Role Name', { exact: true }).fill('Team Lead');
  for (const name of TEAM_PERMISSIONS) await pick(admin, 'Permissions', name);
  const scopes = admin.getByRole('group', { name: 'Scopes' });
  for (const name of TEAM_PERMISSIONS)
    await scopes.getByRole('group', { name }).getByRole('button', { name: 'Their team' }).click();
  await shoot(admin, 'role-form-scopes');
  await submitForm(admin);
  await toast(admin, 'Role created successfully').waitFor();
  const [role] = await e2e.db.select().from(schema.roles).where(eq(schema.roles.roleName, 'Team Lead'));
  const roleCode = role?.roleCode ?? '';
  await admin.goto(`/registry/role/${roleCode}`);
  const list = admin.getByRole('region', { name: 'Permissions (4)' });
  for (const name of TEAM_PERMISSIONS) await list.getByText(`${name} · Their team`).waitFor();
  await shoot(admin, 'role-view-scopes');
  return roleCode;
}

/** Full-page shots at a desktop and a phone width, light and dark, for review (not committed). */
async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/${name}-${label}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

beforeAll(async () => {
  await seed();
  admin = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
  await e2e.login(admin);
  const roleCode = await createTeamRole();
  const user = await apiPost<{ userCode: string }>(admin, 'register', {
    username: 'terry.lead',
    email: 'terry.lead@example.com',
    password: PASSWORD,
    roleCode,
  });
  await e2e.db
    .update(schema.employees)
    .set({ userCode: user.userCode })
    .where(eq(schema.employees.employeeCode, codes['Terry Lead'] ?? ''));
  lead = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
  consoleErrors = watchConsole(lead).errors;
  await e2e.login(lead, 'terry.lead', PASSWORD);
}, 180_000);

describe('a team lead', () => {
  it('sees only their team on the Performance Snapshot and scores it', async () => {
    await lead.goto(`/performance-snapshot?date=${today}`);
    for (const name of TEAM) await lead.getByRole('rowheader', { name }).waitFor();
    expect(await lead.getByRole('rowheader', { name: OUTSIDER }).count()).toBe(0);
    expect(await lead.getByRole('rowheader', { name: 'Terry Lead' }).count()).toBe(0);
    await lead.getByRole('button', { name: 'Edit', exact: true }).click();
    await fillCell(lead, 'Quality', 'Team Ava', '8');
    await fillCell(lead, 'Speed', 'Team Ben', '6');
    await shoot(lead, 'team-grid-editing');
    await lead.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(lead, 'Performances saved successfully').waitFor();
    await lead.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await cell(lead, 'Quality', 'Team Ava').count()).toBe(0);

    const res = await admin.request.post('/api/GetPerformancesByDateAndEmployeeCodes', {
      data: { date: today, employeeCodes: TEAM.map((n) => codes[n]) },
    });
    expect(res.status()).toBe(200);
    const saved: { employeeName: string; skills: { title: string; score: number | null }[] }[] = (
      await res.json()
    ).data;
    const score = (name: string, skill: string) =>
      saved.find((r) => r.employeeName === name)?.skills.find((s) => s.title === skill)?.score;
    expect(score('Team Ava', 'Quality')).toBe(8);
    expect(score('Team Ben', 'Speed')).toBe(6);
  });

  it('cannot read or score anyone outside the team', async () => {
    const refused = await lead.request.post('/api/CreateUpdatePerformances', {
      data: {
        performances: [
          {
            employeeCode: codes[OUTSIDER],
            date: today,
            performancePerSkill: [],
          },
        ],
      },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe(
      'You cannot save scores of employees outside the records your role reaches',
    );
    const hidden = await lead.request.post('/api/GetEmployeeByCode', {
      data: { employeeCode: codes[OUTSIDER] },
    });
    expect(hidden.status()).toBe(404);

    await lead.goto(`/registry/employee/${codes[OUTSIDER]}`);
    await lead.getByText('Employee not found').first().waitFor();
    await lead.goto(`/registry/employee/${codes['Team Ava']}`);
    await heading(lead, 'View Employee').waitFor();
    await lead.getByText('Team Ava').first().waitFor();
    expect(consoleErrors.filter((e) => !/40[34]/.test(e))).toEqual([]);
  });
});
