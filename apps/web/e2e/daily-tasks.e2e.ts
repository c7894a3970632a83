import { readFile } from 'node:fs/promises';
import {
  addDays,
  formatAverage,
  localIsoDate,
  PERFORMANCE_CSV_FILENAME,
  type PerformanceOverview,
} from '@wfc/contract';
import { newCode, schema, USER_PASSWORD } from '@wfc/server/testing';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, columnTexts, heading, pick, selectedText, toast, waitForNoLoad } from './registry-ui';
import { sharedE2E } from './support/e2e';

/**
 * Six everyday tasks, each done from Home the shortest way a new user would, with the clicks
 * counted: every click on something on screen counts one; typing and keys (Tab, Enter, Ctrl+K)
 * count nothing, as when the tasks were first timed. Each outcome is checked in the database or
 * through the API, and each count must stay below the one measured before the side navigation,
 * the search, create in context, the whole-day grid and the History links existed.
 */

const e2e = sharedE2E();
const TODAY = localIsoDate(new Date());
const EARLIER = [addDays(TODAY, -1), addDays(TODAY, -2)];
const SKILLS = ['Accuracy', 'Care', 'Speed', 'Teamwork'];
/** Scored today in the grid: 5 rows of 4 skills make the task's 20 scores. */
const ASSEMBLY = ['Ada Byrne', 'Ben Ortiz', 'Cleo Park', 'Dev Rao', 'Eli Stone'];
/** Scored on earlier days, every skill alike: the departments' yearly averages are known. */
const YEARLY = {
  North: { people: ['Nora Wells', 'Nils Berg'], score: 8 },
  South: { people: ['Sara Lund', 'Sam Kerr'], score: 3 },
};
const TYPED = Array.from({ length: 20 }, (_, i) => 5 + (i % 5));
const NEW_PASSWORD = 'a-fresh-passphrase-73';

/** The counts measured before, task by task. */
const BEFORE = [22, 6, 9, 12, 7, 4] as const;
const TASKS = [
  'employee with a new department and a new user',
  "that employee's audit trail",
  '20 scores for a day and the CSV export',
  'a profile',
  'own password',
  "a department's lowest yearly average",
] as const;
const counts: number[] = [];

/** Clicks as the user makes them. */
class Clicks {
  count = 0;
  constructor(private readonly page: Page) {}

  async click(target: Locator) {
    this.count += 1;
    await target.click();
  }

  /** A selector's option: a click to open it, the name typed, a click on the option. */
  async choose(label: string, option: string) {
    this.count += 2;
    // `pick` tries again when a redraw swallowed the click: still the two clicks of a user.
    await pick(this.page, label, option);
  }
}

let admin: Page;
const employeeCode: Record<string, string> = {};
const skillCode: Record<string, string> = {};

beforeAll(async () => {
  const { departments, employees, skills } = schema;
  for (const title of SKILLS) skillCode[title] = newCode('SKILL-');
  await e2e.db.insert(skills).values(SKILLS.map((title) => ({ skillCode: skillCode[title]!, title })));
  let id = 700;
  const staff: [string, readonly string[]][] = [
    ['Assembly', ASSEMBLY],
    ['North', YEARLY.North.people],
    ['South', YEARLY.South.people],
  ];
  for (const [department, people] of staff) {
    const departmentCode = newCode('DEPT-');
    await e2e.db.insert(departments).values({ departmentCode, name: department });
    for (const name of people) {
      employeeCode[name] = newCode('EMP-');
      id += 1;
      await e2e.db.insert(employees).values({
        employeeCode: employeeCode[name]!,
        employeeId: `DT-${id}`,
        name,
        departmentCode,
        joinDate: '2021-06-01',
      });
    }
  }
  admin = await e2e.newPage();
  await e2e.login(admin);
  await apiPost(admin, 'CreateGender', { genderName: 'Female' });
  await apiPost(admin, 'CreateRole', { roleName: 'Clerk', roleDescription: 'Front office' });
  const rows = Object.values(YEARLY).flatMap(({ people, score }) =>
    people.flatMap((name) =>
      EARLIER.map((date) => ({
        employeeCode: employeeCode[name],
        date,
        performancePerSkill: SKILLS.map((title) => ({
          skillCode: skillCode[title],
          pointsEarned: String(score),
          totalPoints: 10,
        })),
      })),
    ),
  );
  const res = await admin.request.post('/api/CreateUpdatePerformances', { data: { performances: rows } });
  expect(res.status(), await res.text()).toBe(200);
});

afterAll(async () => {
  await admin?.context().close();
  console.log(
    `Daily tasks, clicks before -> now:\n${TASKS.map(
      (task, i) => `  ${i + 1}. ${task}: ${BEFORE[i]} -> ${counts[i] ?? 'not run'}`,
    ).join('\n')}`,
  );
});

async function fromHome(page: Page) {
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
  return new Clicks(page);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Modules' });

/** Records the task's count and holds it to the earlier one. */
function done(task: 1 | 2 | 3 | 4 | 5 | 6, clicks: Clicks) {
  const i = task - 1;
  counts[i] = clicks.count;
  expect(clicks.count, TASKS[i]).toBeLessThan(BEFORE[i] ?? 0);
}

describe('everyday tasks from Home', () => {
  it('1. creates an employee with a new department and a new user, all from the employee form', async () => {
    const clicks = await fromHome(admin);
    await clicks.click(nav(admin).getByRole('link', { name: 'Employees', exact: true }));
    await heading(admin, 'Employees').waitFor();
    await clicks.click(admin.getByRole('button', { name: 'Add Employee', exact: true }));
    await heading(admin, 'Create Employee').waitFor();
    await admin.getByLabel('Employee Id', { exact: true }).fill('DT-900');
    await admin.getByLabel('Name', { exact: true }).fill('Quinn Tester');

    await clicks.click(admin.getByRole('button', { name: 'New department…' }));
    const department = admin.getByRole('dialog', { name: 'Create Department' });
    await department.getByLabel('Name', { exact: true }).fill('Logistics');
    await clicks.click(department.getByRole('button', { name: 'Create', exact: true }));
    await department.waitFor({ state: 'detached' });
    await expect.poll(() => selectedText(admin, 'Department')).toBe('Logistics');

    await admin.getByLabel('Join Date', { exact: true }).fill('2026-11-02');

    await clicks.click(admin.getByRole('button', { name: 'New user…' }));
    const user = admin.getByRole('dialog', { name: 'Create User' });
    await user.getByLabel('Username', { exact: true }).fill('quinn');
    await user.getByLabel('Email', { exact: true }).fill('quinn@example.com');
    await user.getByLabel('Password', { exact: true }).fill('quinn-password-1');
    await clicks.choose('Role', 'Clerk');
    await clicks.click(user.getByRole('button', { name: 'Create', exact: true }));
    await user.waitFor({ state: 'detached' });
    await expect.poll(() => selectedText(admin, 'User')).toBe('quinn');

    await clicks.click(admin.getByRole('button', { name: 'Submit', exact: true }));
    await toast(admin, 'Employee created successfully').waitFor();

    const [saved] = await e2e.db
      .select({
        department: schema.departments.name,
        username: schema.users.username,
        code: schema.employees.employeeCode,
      })
      .from(schema.employees)
      .innerJoin(schema.departments, eq(schema.departments.departmentCode, schema.employees.departmentCode))
      .innerJoin(schema.users, eq(schema.users.userCode, schema.employees.userCode))
      .where(eq(schema.employees.employeeId, 'DT-900'));
    expect(saved?.department).toBe('Logistics');
    expect(saved?.username).toBe('quinn');
    employeeCode['Quinn Tester'] = saved?.code ?? '';
    done(1, clicks);
  });

  it("2. finds that employee's audit trail through the search and the view's History", async () => {
    const clicks = await fromHome(admin);
    await admin.keyboard.press('Control+k');
    const palette = admin.getByRole('dialog', { name: 'Search records' });
    await palette.getByRole('combobox', { name: 'Search records' }).fill('Quinn');
    await clicks.click(palette.getByRole('option', { name: /Quinn Tester/ }));
    await heading(admin, 'Quinn Tester').or(heading(admin, 'View Employee')).waitFor();
    await clicks.click(admin.getByRole('button', { name: 'History', exact: true }));
    await admin.waitForURL((url) => url.pathname === '/registry/audit-logs');
    await waitForNoLoad(admin);

    const entries = await e2e.db
      .select({ action: schema.audits.action })
      .from(schema.audits)
      .where(eq(schema.audits.recordCode, employeeCode['Quinn Tester'] ?? ''));
    expect(entries.length).toBeGreaterThan(0);
    // The Record column (the third) names the employee on every entry, and no other entry is listed.
    await expect.poll(() => columnTexts(admin, 3)).toEqual(entries.map(() => 'Employee Quinn Tester'));
    done(2, clicks);
  });

  it('3. scores 20 cells of the day with the keyboard, saves them in one go and exports the CSV', async () => {
    const clicks = await fromHome(admin);
    await clicks.click(nav(admin).getByRole('link', { name: 'Performance Snapshot', exact: true }));
    await clicks.click(admin.getByRole('button', { name: 'Edit', exact: true }));
    // Edit puts the focus in the day's first cell; Tab goes on to the next one to fill.
    await expect
      .poll(() => admin.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^Accuracy score for /);
    for (const [i, score] of TYPED.entries()) {
      await admin.keyboard.type(String(score));
      if (i < TYPED.length - 1) await admin.keyboard.press('Tab');
    }
    await admin.getByText('5 rows changed').waitFor();
    await clicks.click(admin.getByRole('button', { name: 'Save', exact: true }));
    await toast(admin, 'Performances saved successfully').waitFor();
    await admin.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const download = admin.waitForEvent('download');
    await clicks.click(admin.getByRole('button', { name: 'Export CSV', exact: true }));
    const file = await download;

    const { performances, performanceScores } = schema;
    const saved = await e2e.db
      .select({ employeeCode: performances.employeeCode, points: performanceScores.points })
      .from(performanceScores)
      .innerJoin(performances, eq(performances.performanceCode, performanceScores.performanceCode))
      .where(and(eq(performances.date, TODAY), isNotNull(performanceScores.points)));
    expect(saved.length).toBe(20);
    expect(saved.map((s) => s.points).sort()).toEqual([...TYPED].sort());
    expect(new Set(saved.map((s) => s.employeeCode)).size).toBe(5);

    expect(file.suggestedFilename()).toBe(PERFORMANCE_CSV_FILENAME);
    const csv = await readFile(await file.path(), 'utf8');
    const scoredNames = await e2e.db
      .select({ name: schema.employees.name })
      .from(schema.employees)
      .where(inArray(schema.employees.employeeCode, [...new Set(saved.map((s) => s.employeeCode))]));
    for (const { name } of scoredNames) expect(csv).toContain(name);
    done(3, clicks);
  });

  it('4. creates a profile for the new user', async () => {
    const clicks = await fromHome(admin);
    await clicks.click(nav(admin).getByRole('link', { name: 'Profiles', exact: true }));
    await heading(admin, 'Profiles').waitFor();
    await clicks.click(admin.getByRole('button', { name: 'Add Profile', exact: true }));
    await heading(admin, 'Create Profile').waitFor();
    await admin.getByLabel('First Name', { exact: true }).fill('Quinn');
    await admin.getByLabel('Last Name', { exact: true }).fill('Tester');
    await admin.getByLabel('Date of Birth', { exact: true }).fill('1991-05-14');
    await clicks.choose('Gender', 'Female');
    await clicks.choose('User', 'quinn');
    const picture = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#009746' },
    })
      .png()
      .toBuffer();
    const chooser = admin.waitForEvent('filechooser');
    await clicks.click(admin.getByText('Drag and drop a file here, or click to select a file'));
    await (await chooser).setFiles({ name: 'quinn.png', mimeType: 'image/png', buffer: picture });
    await admin.getByRole('img', { name: 'Profile Picture: quinn.png' }).waitFor();
    await clicks.click(admin.getByRole('button', { name: 'Submit', exact: true }));
    await toast(admin, 'Profile created successfully').waitFor();

    const [profile] = await e2e.db
      .select({ lastName: schema.profiles.lastName, username: schema.users.username })
      .from(schema.profiles)
      .innerJoin(schema.users, eq(schema.users.userCode, schema.profiles.userCode))
      .where(eq(schema.profiles.firstName, 'Quinn'));
    expect(profile).toEqual({ lastName: 'Tester', username: 'quinn' });
    done(4, clicks);
  });

  it('5. changes one’s own password on My account', async () => {
    const person = await e2e.userWith(['VIEW_GENDERS']);
    const page = await e2e.newPage();
    await e2e.login(page, person.username, USER_PASSWORD);
    const clicks = await fromHome(page);
    await clicks.click(page.getByRole('link', { name: `My account: ${person.username}` }));
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByLabel('Current password').fill(USER_PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel('New password again').fill(NEW_PASSWORD);
    await clicks.click(password.getByRole('button', { name: 'Change password' }));
    await toast(page, 'Your password was changed').waitFor();
    await page.context().close();

    const again = await e2e.newPage();
    await e2e.login(again, person.username, NEW_PASSWORD);
    await again.context().close();
    done(5, clicks);
  });

  it('6. reads the department with the lowest yearly average on the overview', async () => {
    const clicks = await fromHome(admin);
    await clicks.click(nav(admin).getByRole('link', { name: 'Performance Snapshot', exact: true }));
    await clicks.click(admin.getByRole('link', { name: 'Overview', exact: true }));
    await heading(admin, 'Performance Overview').waitFor();
    const table = admin.getByRole('table', { name: 'Department averages', exact: true });
    await table.waitFor();
    // The lowest of the Yearly column (the fifth), departments without scores aside.
    const lowestShown = async () => {
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())),
        );
      const scored = rows.filter((r) => /^\d+\.\d\d$/.test(r[4] ?? ''));
      const low = scored.reduce<string[] | undefined>(
        (min, r) => (min === undefined || Number(r[4]) < Number(min[4]) ? r : min),
        undefined,
      );
      return low ? [low[0], low[4]] : [];
    };
    await expect.poll(lowestShown).toEqual(['South', formatAverage(YEARLY.South.score)]);

    const res = await admin.request.get('/api/GetPerformanceOverview', { params: { date: TODAY } });
    const overview = (await res.json()).data as PerformanceOverview;
    const fromApi = overview.departments
      .filter((d) => d.yearly !== null)
      .reduce((low, d) => ((d.yearly ?? 0) < (low.yearly ?? 0) ? d : low));
    expect([fromApi.name, formatAverage(fromApi.yearly)]).toEqual(await lowestShown());
    done(6, clicks);
  });
});
