import { PERFORMANCE_ENDPOINTS, RESOURCE_BY_KEY } from '@wfc/contract';
import type { Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pathOf, readValue } from './registry-ui';
import { DESKTOP, describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

/**
 * How the administrator finds their way around the registry: the breadcrumb trail above every
 * screen, the outline of a list or form while it loads, and Retry where a request failed.
 */

const e2e = sharedE2E();
const country = RESOURCE_BY_KEY.country;
let page: Page;
let consoleErrors: string[];
let countryCode = '';

beforeAll(async () => {
  page = await e2e.newPage({ bypassCSP: true });
  consoleErrors = watchConsole(page).errors;
  await e2e.login(page);
  const created = await apiPost(page, country.endpoints.create!, {
    name: 'Freedonia',
    iso2: 'FD',
    iso3: 'FDN',
  });
  countryCode = String(created.countryCode);
  await apiPost(page, RESOURCE_BY_KEY.state.endpoints.create!, {
    name: 'Sylvania',
    iso: 'SY',
    countryCode,
  });
});

afterAll(async () => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

const trail = () => page.getByRole('navigation', { name: 'Breadcrumb' });

/** The trail's steps as shown (the separators are hidden from assistive technology). */
const steps = (nav: Locator = trail()) => nav.getByRole('listitem').allInnerTexts();

async function expectTrail(expected: string[]) {
  await expect.poll(() => steps()).toEqual(expected);
  // Every step but the last leads somewhere; the last is the page itself.
  expect(await trail().getByRole('link').allInnerTexts()).toEqual(expected.slice(0, -1));
  expect(await trail().locator('[aria-current="page"]').innerText()).toBe(expected.at(-1));
}

const isCall = (endpoint: string) => (url: URL) => url.pathname === `/api/${endpoint}`;

/** Holds every call to `endpoint` until the returned release is called. */
async function holdCalls(endpoint: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler = async (route: Route) => {
    await released;
    await route.continue();
  };
  await page.route(isCall(endpoint), handler);
  return async () => {
    release();
    await page.unroute(isCall(endpoint), handler);
  };
}

/**
 * Answers every call to `endpoint` with a server fault until the returned function is called;
 * the app's own retries of a 5xx fail too, so the failure reaches the screen.
 */
async function failCalls(endpoint: string, message: string) {
  let failing = true;
  let failed = 0;
  const handler = async (route: Route) => {
    if (!failing) return route.continue();
    failed += 1;
    return route.fulfill({ status: 500, json: { statusCode: 500, message } });
  };
  await page.route(isCall(endpoint), handler);
  return {
    failed: () => failed,
    async heal() {
      failing = false;
      await page.unroute(isCall(endpoint), handler);
    },
  };
}

describe('breadcrumbs', () => {
  it('lead from a list, a view, an edit and a sub-list back up the registry', async () => {
    await page.goto('/registry/countries');
    await heading(page, 'Countries').waitFor();
    await expectTrail(['Registry', 'Countries']);

    await page.goto(`/registry/country/${countryCode}`);
    await heading(page, 'View Country').waitFor();
    await expectTrail(['Registry', 'Countries', 'Freedonia']);

    await page.goto(`/registry/country/edit/${countryCode}`);
    await heading(page, 'Update Country').waitFor();
    await expectTrail(['Registry', 'Countries', 'Freedonia', 'Edit']);
    await trail().getByRole('link', { name: 'Freedonia' }).click();
    await heading(page, 'View Country').waitFor();
    expect(pathOf(page)).toBe(`/registry/country/${countryCode}`);

    await page.getByRole('button', { name: 'View States', exact: true }).click();
    await heading(page, 'Country States').waitFor();
    await page.getByRole('cell', { name: 'Sylvania', exact: true }).waitFor();
    await expectTrail(['Registry', 'Countries', 'Freedonia', 'States']);
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'navigation-breadcrumbs');

    await trail().getByRole('link', { name: 'Countries' }).click();
    await heading(page, 'Countries').waitFor();
    expect(pathOf(page)).toBe('/registry/countries');
    await trail().getByRole('link', { name: 'Registry' }).click();
    await heading(page, 'Registry').waitFor();
    expect(pathOf(page)).toBe('/registry');

    await page.goto('/registry/country/create');
    await heading(page, 'Create Country').waitFor();
    await expectTrail(['Registry', 'Countries', 'Add Country']);
  });

  it('fold the middle of a long trail on a phone, within the width, and open it on demand', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.goto(`/registry/country/${countryCode}/states`);
      await heading(page, 'Country States').waitFor();
      const expand = trail().getByRole('button', { name: 'Show path' });
      await expand.waitFor();
      expect(await steps()).toEqual(['Registry', '', 'Freedonia', 'States']);
      const [scroll, client] = await trail().evaluate((nav) => [nav.scrollWidth, nav.clientWidth]);
      expect(scroll).toBeLessThanOrEqual(client);
      const box = await trail().boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? PHONE.width + 1)).toBeLessThanOrEqual(PHONE.width);
      await expand.click();
      await expect.poll(() => steps()).toEqual(['Registry', 'Countries', 'Freedonia', 'States']);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});

describe('loading', () => {
  it('shows a list’s heading, trail and outline until its first page arrives', async () => {
    const release = await holdCalls(country.endpoints.list);
    await page.goto('/registry/countries');
    await heading(page, 'Countries').waitFor();
    const outline = page.getByRole('status', { name: 'Loading countries' });
    await outline.waitFor();
    expect(await steps()).toEqual(['Registry', 'Countries']);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'navigation-list-skeleton');
    await release();
    await page.getByRole('cell', { name: 'Freedonia', exact: true }).waitFor();
    expect(await outline.count()).toBe(0);
  });

  it('shows a form’s heading and one outlined field per field until the record arrives', async () => {
    const release = await holdCalls(country.endpoints.get);
    await page.goto(`/registry/country/edit/${countryCode}`);
    await heading(page, 'Update Country').waitFor();
    const outline = page.getByRole('status', { name: 'Loading country' });
    await outline.waitFor();
    // The record's name is not known yet: the trail names it by its code meanwhile.
    expect(await steps()).toEqual(['Registry', 'Countries', countryCode, 'Edit']);
    expect(await page.getByRole('textbox').count()).toBe(0);
    await e2e.screenshot(page, 'navigation-form-skeleton');
    await release();
    // Required fields may carry a mark after their label: 'Name *'.
    expect(await page.getByRole('textbox', { name: /^Name\b/ }).inputValue()).toBe('Freedonia');
    await expectTrail(['Registry', 'Countries', 'Freedonia', 'Edit']);
    expect(await outline.count()).toBe(0);
  });
});

describe('a failed request', () => {
  it('offers Retry on a list, which shows the list once the server answers', async () => {
    const outage = await failCalls(country.endpoints.list, 'Database unavailable');
    await page.goto('/registry/countries');
    const alert = page.getByRole('alert').filter({ hasText: 'Database unavailable' });
    await alert.waitFor();
    // The screen keeps its heading and trail over the message.
    await heading(page, 'Countries').waitFor();
    expect(await steps()).toEqual(['Registry', 'Countries']);
    expect(outage.failed()).toBeGreaterThan(0);
    await e2e.screenshot(page, 'navigation-retry');
    await outage.heal();
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('cell', { name: 'Freedonia', exact: true }).waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('offers Retry on a record that failed to load, but not on one that does not exist', async () => {
    const outage = await failCalls(country.endpoints.get, 'Database unavailable');
    await page.goto(`/registry/country/${countryCode}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Database unavailable' });
    await alert.getByRole('button', { name: 'Retry' }).waitFor();
    await outage.heal();
    await alert.getByRole('button', { name: 'Retry' }).click();
    expect(await readValue(page, 'Name')).toBe('Freedonia');
    expect(await alert.count()).toBe(0);

    await page.goto('/registry/country/COUNTRY-MISSING');
    const missing = page.getByRole('alert');
    await missing.waitFor();
    expect(await missing.innerText()).toMatch(/not found/i);
    expect(await missing.getByRole('button').count()).toBe(0);
    expect(await steps()).toEqual(['Registry', 'Countries', 'COUNTRY-MISSING']);
  });

  it('offers Retry on the performance grid', async () => {
    const outage = await failCalls(PERFORMANCE_ENDPOINTS.list, 'Scores unavailable');
    await page.goto('/performance-snapshot');
    const alert = page.getByRole('alert').filter({ hasText: 'Scores unavailable' });
    await alert.waitFor();
    await heading(page, 'Performance Snapshot').waitFor();
    await outage.heal();
    await alert.getByRole('button', { name: 'Retry' }).click();
    // The grid's own controls are there once its page has come.
    await page.getByLabel('Heat map').waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('logged no console errors but the faults it staged', () => {
    // Chromium logs each 500 answer and each 404 as a failed resource load.
    expect(consoleErrors.filter((e) => !/status of (500|404)/.test(e))).toEqual([]);
  });
});
