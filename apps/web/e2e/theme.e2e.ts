import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { addDays, localIsoDate } from '@wfc/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DateFinding, findDates } from './dateFormats';
import { seedStaff } from './performance-ui';
import { apiPost } from './registry-ui';
import { DESKTOP, describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

const e2e = sharedE2E();
const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));
const TODAY = localIsoDate(new Date());

/** The body's background in each scheme: theme.ts LIGHT.background and DARK.background. */
const BODY = { light: 'rgb(244, 246, 245)', dark: 'rgb(15, 20, 18)' } as const;

const SKILLS = ['Accuracy', 'Communication', 'Initiative', 'Leadership', 'Punctuality', 'Quality'];
const PEOPLE = ['Amelia Hart', 'Bruno Costa', 'Chen Wei', 'Dana Okafor'];
const staff = seedStaff(e2e, SKILLS, PEOPLE, 700);
const codes = { country: '', audit: '' };

beforeAll(async () => {
  const page = await e2e.newPage();
  await e2e.login(page);
  const created = await apiPost<{ countryCode: string }>(page, 'CreateCountry', {
    name: 'Germany',
    iso2: 'DE',
    iso3: 'DEU',
  });
  codes.country = created.countryCode;
  await apiPost(page, 'UpdateCountry', {
    countryCode: codes.country,
    name: 'Germania',
    iso2: 'DE',
    iso3: 'DEU',
  });
  for (const [name, iso2, iso3] of [
    ['France', 'FR', 'FRA'],
    ['Japan', 'JP', 'JPN'],
    ['Kenya', 'KE', 'KEN'],
  ] as const) {
    await apiPost(page, 'CreateCountry', { name, iso2, iso3 });
  }
  const audits = await page.request.get('/api/GetAudits', { params: { action: 'UPDATE' } });
  codes.audit = ((await audits.json()) as { data: { auditCode: string }[] }).data[0]!.auditCode;

  // Three weeks of scores over the whole 0-10 range, some cells unscored, as the grid saves them.
  const rows = PEOPLE.flatMap((name, p) =>
    Array.from({ length: 21 }, (_, d) => ({
      employeeCode: staff.employeeCode[name],
      date: addDays(TODAY, -d),
      performancePerSkill: SKILLS.map((title, k) => ({
        skillCode: staff.skillCode[title],
        pointsEarned: (p + d + k) % 9 === 0 ? '' : String((p * 3 + d + k * 2) % 11),
        totalPoints: 10,
      })),
    })),
  );
  const res = await page.request.post('/api/CreateUpdatePerformances', { data: { performances: rows } });
  expect(res.status(), await res.text()).toBe(200);
  await page.context().close();
});

/** Opens a path inside the running app, as its own links do: no reload of the page. */
async function go(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).first().waitFor();

/** Until nothing on the screen is still loading: no spinner, skeleton or busy overlay. */
async function settled(page: Page) {
  await expect
    .poll(() => page.locator('[role="progressbar"], .MuiSkeleton-root, [aria-busy="true"]').count(), {
      timeout: 15_000,
    })
    .toBe(0);
}

interface Screen {
  name: string;
  open(page: Page): Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'home',
    open: async (p) => {
      await go(p, '/');
      await h1(p, /^Welcome/);
    },
  },
  {
    name: 'registry-modules',
    open: async (p) => {
      await go(p, '/registry');
      await p.getByRole('list', { name: 'Modules' }).getByRole('link').first().waitFor();
    },
  },
  {
    name: 'countries-list',
    open: async (p) => {
      await go(p, '/registry/countries');
      await h1(p, 'Countries');
      await p.getByText('Kenya', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'country-view',
    open: async (p) => {
      await go(p, `/registry/country/${codes.country}`);
      await h1(p, 'View Country');
      await p.getByText('Germania').first().waitFor();
    },
  },
  {
    name: 'country-edit-form',
    open: async (p) => {
      await go(p, `/registry/country/edit/${codes.country}`);
      await h1(p, 'Update Country');
      await expect.poll(() => p.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Germania');
    },
  },
  {
    name: 'profile-form',
    open: async (p) => {
      await go(p, '/registry/profile/create');
      await h1(p, 'Create Profile');
      await p.getByRole('button', { name: 'Submit', exact: true }).waitFor();
    },
  },
  {
    name: 'audit-list',
    open: async (p) => {
      await go(p, '/registry/audit-logs?collection=countries');
      await h1(p, 'Audit Logs');
      await p.getByText('Updated', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'audit-view',
    open: async (p) => {
      await go(p, `/registry/audit-log/${codes.audit}`);
      await h1(p, 'View Audit Log');
      await p.getByText('Germania').first().waitFor();
    },
  },
  {
    name: 'performance-grid-heatmap',
    open: async (p) => {
      await go(p, '/performance-snapshot');
      await p.getByRole('link', { name: 'Amelia Hart' }).waitFor();
      const heat = p.getByLabel('Heat map', { exact: true });
      await heat.check();
      expect(await heat.isChecked()).toBe(true);
    },
  },
  {
    name: 'employee-insight',
    open: async (p) => {
      await go(p, `/performance-snapshot/employees/${staff.employeeCode['Amelia Hart']}`);
      await h1(p, 'Amelia Hart');
      await p
        .getByRole('table', { name: 'Daily averages', exact: true })
        .locator('tbody tr')
        .first()
        .waitFor();
      await p.locator('[role="img"] svg').first().waitFor();
    },
  },
  {
    name: 'performance-overview',
    open: async (p) => {
      await go(p, '/performance-snapshot/overview');
      await h1(p, 'Performance Overview');
      await p
        .getByRole('table', { name: 'Department averages', exact: true })
        .locator('tbody tr')
        .first()
        .waitFor();
      await p.locator('[role="img"] svg').first().waitFor();
    },
  },
  {
    name: 'account',
    open: async (p) => {
      await go(p, '/account');
      await h1(p, 'My account');
      await p.getByText('This session').waitFor();
    },
  },
];

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

const shownScheme = (page: Page) =>
  page.evaluate(() => ({
    attribute: document.documentElement.getAttribute('data-color-scheme'),
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
  }));

describe('the colour scheme', () => {
  it('follows the system setting: dark with a dark system, light with a light one', async () => {
    for (const scheme of ['dark', 'light'] as const) {
      const page = await e2e.newPage({ colorScheme: scheme });
      await page.goto('/login');
      await h1(page, 'Login');
      expect(await bodyBackground(page)).toBe(BODY[scheme]);
      expect(await shownScheme(page)).toEqual({ attribute: scheme, colorScheme: scheme });
      const other = scheme === 'dark' ? 'light' : 'dark';
      await page.getByRole('button', { name: `Switch to ${other} theme` }).waitFor();
      await page.context().close();
    }
  });

  it('switches from the header; the pick survives a reload and a sign-out, over the system setting', async () => {
    const page = await e2e.newPage({ colorScheme: 'light', viewport: PHONE });
    const watched = watchConsole(page);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
    });
    await e2e.login(page);
    expect(await bodyBackground(page)).toBe(BODY.light);

    // On a phone the switch stands in the toolbar, beside the menu button.
    await page.getByRole('banner').getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(() => bodyBackground(page)).toBe(BODY.dark);
    expect(await shownScheme(page)).toEqual({ attribute: 'dark', colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();

    // The pick is in place before the app has run: the boot script reads it before the first paint.
    await page.reload({ waitUntil: 'commit' });
    await page.waitForFunction(() => document.readyState !== 'loading');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-color-scheme'))).toBe(
      'dark',
    );
    await h1(page, /^Welcome/);
    expect(await bodyBackground(page)).toBe(BODY.dark);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await h1(page, 'Login');
    expect(await bodyBackground(page)).toBe(BODY.dark);

    // Back to light, over a dark system setting now.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect.poll(() => bodyBackground(page)).toBe(BODY.light);
    await page.reload();
    await h1(page, 'Login');
    expect(await shownScheme(page)).toEqual({ attribute: 'light', colorScheme: 'light' });
    expect(await bodyBackground(page)).toBe(BODY.light);

    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it('sits beside the user badge and Sign Out on a desktop', async () => {
    const page = await e2e.newPage({ colorScheme: 'dark' });
    await e2e.login(page);
    const banner = page.getByRole('banner');
    const order = await banner
      .locator('button, a')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent?.trim()));
    const at = (name: string) => order.findIndex((n) => n?.includes(name));
    expect(at('Switch to light theme')).toBeGreaterThan(at('Performance Snapshot'));
    expect(at('Switch to light theme')).toBeLessThan(at('My account'));
    expect(at('My account')).toBeLessThan(at('Sign Out'));
    await page.context().close();
  });
});

/** One signed-in page per scheme and width: every screen checked by axe and photographed. */
describe.each([
  ['light', 'desktop', DESKTOP],
  ['dark', 'desktop', DESKTOP],
  ['light', 'phone', PHONE],
  ['dark', 'phone', PHONE],
] as const)('every screen in the %s scheme on a %s', (scheme, width, viewport) => {
  it('has no serious or critical axe violation, and is photographed', async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const page = await e2e.newPage({ colorScheme: scheme, viewport, bypassCSP: true });
    const watched = watchConsole(page);
    const found: string[] = [];
    const check = async (name: string) => {
      await settled(page);
      expect(await bodyBackground(page), name).toBe(BODY[scheme]);
      const violations = describeViolations(await e2e.checkA11y(page));
      if (violations) found.push(`${name}:\n${violations}`);
      await page.screenshot({ path: `${SCREENSHOT_DIR}${scheme}-${name}-${width}.png`, fullPage: true });
    };

    await page.goto('/login');
    await h1(page, 'Login');
    await check('login');
    await e2e.login(page);
    for (const screen of SCREENS) {
      await screen.open(page);
      await check(screen.name);
    }
    expect(found.join('\n\n')).toBe('');
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });
});

describe('dates on every screen', () => {
  it('knows a date said another way when it sees one', () => {
    for (const text of ['Friday', 'November 27', '2026-11-27', '03/11/2022', '29 Oct 2026', 'Nov 27, 20…']) {
      expect(findDates(`On ${text} then`).map((f) => f.kind)).toContain('foreign');
    }
    expect(
      findDates('Nov 27, 2026, 2:16 AM UTC · Mar 11, 2022 · Oct 2026 · in May').map((f) => f.kind),
    ).toEqual(['moment', 'date', 'month']);
  });

  it('are said one way per kind: date, month, and date with time', async () => {
    const page = await e2e.newPage({ locale: 'en-US', timezoneId: 'Europe/Paris' });
    await e2e.login(page);
    const seen: (DateFinding & { screen: string })[] = [];
    for (const screen of SCREENS) {
      await screen.open(page);
      await settled(page);
      const text = await page.locator('body').innerText();
      seen.push(...findDates(text).map((f) => ({ ...f, screen: screen.name })));
    }
    expect(seen.filter((f) => f.kind === 'foreign')).toEqual([]);
    // Not vacuous: the screens above show calendar days and moments.
    expect(new Set(seen.map((f) => f.kind))).toEqual(new Set(['date', 'moment', 'month']));
    await page.context().close();
  });
});
