import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  addDays,
  formatAverage,
  localIsoDate,
  type PerformanceOverview,
  type PerformanceTrend,
} from '@wfc/contract';
import { newCode, schema } from '@wfc/server/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

const e2e = sharedE2E();
const TODAY = localIsoDate(new Date());
const SKILLS = [
  'Accuracy',
  'Communication',
  'Initiative',
  'Leadership',
  'Punctuality',
  'Quality',
  'Safety',
  'Speed',
  'Teamwork',
  'Training',
];
const STAFF = {
  Operations: ['Amelia Hart', 'Bruno Costa', 'Chen Wei', 'Maximiliana Papadopoulou-Richardson'],
  Sales: ['Dana Okafor', 'Elif Yilmaz', 'Farah Haddad'],
} as const;
const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const skillCode: Record<string, string> = {};
const employeeCode: Record<string, string> = {};
const departmentCode: Record<string, string> = {};

beforeAll(async () => {
  const { departments, employees, skills } = schema;
  for (const title of SKILLS) skillCode[title] = newCode('SKILL-');
  await e2e.db.insert(skills).values(SKILLS.map((title) => ({ skillCode: skillCode[title]!, title })));
  let id = 300;
  for (const [department, people] of Object.entries(STAFF)) {
    departmentCode[department] = newCode('DEPT-');
    await e2e.db
      .insert(departments)
      .values({ departmentCode: departmentCode[department]!, name: department });
    for (const name of people) {
      employeeCode[name] = newCode('EMP-');
      id += 1;
      await e2e.db.insert(employees).values({
        employeeCode: employeeCode[name]!,
        employeeId: `EMP-${id}`,
        name,
        departmentCode: departmentCode[department]!,
        joinDate: '2021-06-01',
      });
    }
  }
});

/** 45 days up to today for everyone, some cells left unscored, saved as the grid saves. */
async function seedScores(page: Page) {
  const people = Object.values(STAFF).flat();
  const rows = people.flatMap((name, p) =>
    Array.from({ length: 45 }, (_, d) => ({
      employeeCode: employeeCode[name],
      date: addDays(TODAY, -d),
      performancePerSkill: SKILLS.map((title, k) => ({
        skillCode: skillCode[title],
        pointsEarned: (p + d + k) % 7 === 0 ? '' : String((p * 3 + d + k * 2) % 11),
        totalPoints: 10,
      })),
    })),
  );
  const res = await page.request.post('/api/CreateUpdatePerformances', { data: { performances: rows } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A table's body cells as text, found by its caption. */
async function tableCells(page: Page, caption: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: caption, exact: true });
  await table.waitFor();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())),
    );
}

/** An average as the tables show it: two decimals, or a dash read as "None". */
const shown = (value: number | null) => (value === null ? '–None' : formatAverage(value));

async function shot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [label, size] of [
    ['desktop', WIDE],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDE);
}

async function overviewOf(page: Page, query: Record<string, string>) {
  const res = await page.request.get('/api/GetPerformanceOverview', { params: query });
  expect(res.status()).toBe(200);
  return (await res.json()).data as PerformanceOverview;
}

async function trendOf(page: Page, body: Record<string, string>) {
  const res = await page.request.post('/api/GetPerformanceTrend', { data: body });
  expect(res.status()).toBe(200);
  return (await res.json()).data as PerformanceTrend;
}

describe('the performance insights', () => {
  it('overview: every chart has its table, equal to the API, for all departments and for one', async () => {
    const page = await e2e.newPage({ viewport: WIDE, bypassCSP: true });
    const watched = watchConsole(page);
    await e2e.login(page);
    await seedScores(page);
    await page.goto('/performance-snapshot');
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Performance Overview' }).waitFor();

    const all = await overviewOf(page, { date: TODAY });
    expect(await tableCells(page, 'Skill averages')).toEqual(
      all.skills.map((s) => [s.title, shown(s.monthly), shown(s.yearly)]),
    );
    expect(await tableCells(page, 'Department averages')).toEqual(
      all.departments.map((d) => [
        d.name,
        String(d.employees),
        shown(d.daily),
        shown(d.monthly),
        shown(d.yearly),
      ]),
    );
    expect(await tableCells(page, 'Employees by yearly average')).toEqual(
      all.distribution.map((b) => [b.bucket, String(b.count)]),
    );
    expect(all.distribution.reduce((n, b) => n + b.count, 0)).toBe(7);
    // Each chart is drawn (an SVG inside its figure).
    expect(await page.locator('[role="img"] svg').count()).toBeGreaterThanOrEqual(3);
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await shot(page, 'insights-overview');

    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await page.waitForURL((url) => url.searchParams.get('departmentCode') === departmentCode.Sales);
    const sales = await overviewOf(page, { date: TODAY, departmentCode: departmentCode.Sales! });
    await expect
      .poll(() => tableCells(page, 'Department averages'))
      .toEqual(
        sales.departments.map((d) => [
          d.name,
          String(d.employees),
          shown(d.daily),
          shown(d.monthly),
          shown(d.yearly),
        ]),
      );
    expect(await tableCells(page, 'Skill averages')).toEqual(
      sales.skills.map((s) => [s.title, shown(s.monthly), shown(s.yearly)]),
    );
    expect(sales.distribution.reduce((n, b) => n + b.count, 0)).toBe(3);
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it("an employee's insight: opened from the grid, presets and a custom range, tables equal to the API", async () => {
    const page = await e2e.newPage({ viewport: WIDE, bypassCSP: true });
    const watched = watchConsole(page);
    await e2e.login(page);
    await page.goto('/performance-snapshot');
    await page.getByRole('link', { name: 'Amelia Hart' }).click();
    await page.getByRole('heading', { level: 1, name: 'Amelia Hart' }).waitFor();
    const code = employeeCode['Amelia Hart']!;

    // The default: the last 30 days.
    const last30 = await trendOf(page, { employeeCode: code, from: addDays(TODAY, -29), to: TODAY });
    expect(last30.days).toHaveLength(30);
    await expect
      .poll(async () => (await tableCells(page, 'Daily averages')).map((r) => r[1]))
      .toEqual(last30.days.map((d) => shown(d.daily)));
    expect(await tableCells(page, 'Skill averages')).toEqual(
      last30.skills.map((s) => [s.title, shown(s.average), String(s.scored)]),
    );
    expect((await tableCells(page, 'Monthly averages')).map((r) => r[1])).toEqual(
      last30.months.map((m) => shown(m.average)),
    );
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await shot(page, 'insights-employee');

    await page.getByRole('button', { name: 'This year', exact: true }).click();
    const year = await trendOf(page, { employeeCode: code, from: `${TODAY.slice(0, 4)}-01-01`, to: TODAY });
    await expect
      .poll(async () => (await tableCells(page, 'Daily averages')).map((r) => r[1]))
      .toEqual(year.days.map((d) => shown(d.daily)));
    expect(await page.getByRole('button', { name: 'This year' }).getAttribute('aria-pressed')).toBe('true');

    // A custom range of a single week.
    const from = addDays(TODAY, -13);
    const to = addDays(TODAY, -7);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    await page.getByRole('button', { name: 'Apply range' }).click();
    await page.waitForURL((url) => url.searchParams.get('from') === from);
    const week = await trendOf(page, { employeeCode: code, from, to });
    await expect
      .poll(async () => (await tableCells(page, 'Daily averages')).map((r) => r[1]))
      .toEqual(week.days.map((d) => shown(d.daily)));
    // A range over 366 days is refused before it is asked for.
    await page.getByLabel('From', { exact: true }).fill(addDays(TODAY, -400));
    await page.getByText('From and To can be at most 366 days apart').waitFor();
    expect(await page.getByRole('button', { name: 'Apply range' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { level: 1, name: 'Performance Snapshot' }).waitFor();

    // From the employee's view screen, and Back to it.
    await page.goto(`/registry/employee/${code}`);
    await page.getByRole('heading', { level: 1, name: 'View Employee' }).waitFor();
    await page.getByRole('button', { name: 'Performance insight' }).click();
    await page.getByRole('heading', { level: 1, name: 'Amelia Hart' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { level: 1, name: 'View Employee' }).waitFor();
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it('the grid: department filter, heat map, live daily average, future dates read-only', async () => {
    const page = await e2e.newPage({ viewport: WIDE });
    await e2e.login(page);
    await page.goto('/performance-snapshot');
    await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    expect(await page.getByRole('rowheader').count()).toBe(7);

    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'Operations' }).click();
    await expect.poll(() => page.getByRole('rowheader').count()).toBe(4);

    await page.getByLabel('Heat map').check();
    const cellColour = await page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Amelia Hart' }) })
      .locator('td')
      .nth(1)
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(cellColour).not.toBe('rgb(255, 255, 255)');
    await shot(page, 'insights-grid-heatmap');
    await page.getByLabel('Heat map').uncheck();

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Amelia Hart' }) });
    for (const [i, title] of SKILLS.entries()) {
      await page
        .getByRole('textbox', { name: `${title} score for Amelia Hart`, exact: true })
        .fill(i < 3 ? '7' : '');
    }
    await page.getByRole('textbox', { name: 'Speed score for Amelia Hart', exact: true }).fill('10');
    // (7 + 7 + 7 + 10) / 4 = 7.75, at once and marked as not saved.
    await expect
      .poll(() =>
        row
          .locator('td')
          .nth(SKILLS.length + 1)
          .textContent(),
      )
      .toBe('7.75*(not saved yet)');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const discard = page.getByRole('button', { name: 'Discard' });
    if (await discard.isVisible()) await discard.click();

    await page.goto(`/performance-snapshot?date=${addDays(TODAY, 1)}`);
    await page.getByText('Scores cannot be recorded for a future date').waitFor();
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('the grid fits as many skills of at least 10rem as the side navigation leaves room for, one-line names, ends at its last column, and keeps the name in sight on a phone', async () => {
    const page = await e2e.newPage({ viewport: WIDE });
    await e2e.login(page);
    await page.goto('/performance-snapshot');
    await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    const measure = () =>
      page.evaluate(() => {
        const box = document.querySelector('table')!.parentElement!;
        const visible = box.getBoundingClientRect();
        const name = document.querySelector('tbody th')!.getBoundingClientRect();
        const averages = [...document.querySelectorAll('thead th')]
          .slice(-3)
          .map((c) => c.getBoundingClientRect());
        const skills = [...document.querySelectorAll('thead th')].slice(2, -3).filter((c) => {
          const r = c.getBoundingClientRect();
          return r.left >= name.right - 1 && r.right <= averages[0]!.left + 1;
        }).length;
        const heights = [...document.querySelectorAll('tbody th')].map(
          (c) => c.getBoundingClientRect().height,
        );
        box.scrollLeft = box.scrollWidth;
        const last = [...document.querySelectorAll('thead th')].at(-1)!.getBoundingClientRect();
        const strip = visible.right - last.right;
        box.scrollLeft = 0;
        return { skills, heights, strip, overflow: box.scrollWidth - box.clientWidth };
      });
    // Every skill column is at least 10rem wide (the product's minimum column width): beside the
    // frozen columns three fit next to the open side navigation, four once it is narrowed to icons.
    const open = await measure();
    expect(open.skills).toBeGreaterThanOrEqual(3);
    // Every name on one line, the long one included: all rows equally tall.
    expect(new Set(open.heights).size).toBe(1);
    expect(Math.abs(open.strip)).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await expect.poll(async () => (await measure()).skills).toBeGreaterThanOrEqual(4);
    await page.getByRole('button', { name: 'Expand navigation' }).click();

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Accuracy score for Amelia Hart', exact: true }).focus();
    await page.waitForTimeout(300);
    const phone = await page.evaluate(() => {
      const box = document.querySelector('table')!.parentElement!.getBoundingClientRect();
      const name = [...document.querySelectorAll('tbody th')]
        .find((c) => c.textContent === 'Amelia Hart')!
        .getBoundingClientRect();
      const input = (document.activeElement as HTMLElement).getBoundingClientRect();
      return { nameLeft: name.left - box.left, nameRight: name.right, inputLeft: input.left };
    });
    // The whole name is in view and the focused cell beside it, not under it.
    expect(phone.nameLeft).toBeGreaterThanOrEqual(-1);
    expect(phone.inputLeft).toBeGreaterThanOrEqual(phone.nameRight - 1);
    await shot(page, 'insights-grid-phone-edit');
    await page.context().close();
  });
});
