import { RESOURCES } from '@wfc/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

const e2e = sharedE2E();

const path = (page: Page) => new URL(page.url()).pathname;
const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text });

describe('sign in and out', () => {
  it('shows the server message on a wrong password and lands home on the right one', async () => {
    const page = await e2e.newPage();
    await page.goto('/login');
    expect(await page.title()).toBe('Login | Workforce Console');
    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await toast(page, 'Invalid username or password').waitFor();
    expect(path(page)).toBe('/login');

    await e2e.login(page);
    await toast(page, 'Logged in successfully').waitFor();
    expect(path(page)).toBe('/');
    // Toasts stand below the header: none covers Sign Out.
    const toastBox = await toast(page, 'Logged in successfully').boundingBox();
    const headerBox = await page.getByRole('banner').boundingBox();
    expect(toastBox && headerBox && toastBox.y >= headerBox.y + headerBox.height).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, admin');
    await page.context().close();
  });

  it('keeps the session across a reload and signs out to the login route', async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, admin' }).waitFor();
    const stored = await page.evaluate(() => window.localStorage.getItem('root'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({
      auth: { isAuthenticated: true, user: { username: 'admin' } },
    });

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await toast(page, 'Logged out successfully').waitFor();

    await page.goto('/registry');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.context().close();
  });
});

describe('content security policy', () => {
  it('raises no violation while signing in and opening screens', async () => {
    const page = await e2e.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => {
        seen.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await e2e.login(page);
    for (const screen of ['/registry/genders', '/registry/role/create', '/performance-snapshot']) {
      await page.goto(screen);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    await page.context().close();
  });
});

describe('routes', () => {
  it('sends unknown paths home and /performance to the performance snapshot', async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/registry/no-such-module');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/performance');
    await page.waitForURL((url) => url.pathname === '/performance-snapshot');
    await page.getByRole('heading', { name: 'Performance Snapshot' }).first().waitFor();
    expect(await page.title()).toBe('Performance Snapshot | Workforce Console');
    await page.context().close();
  });

  it('sends a signed-out visitor to the login route', async () => {
    const page = await e2e.newPage();
    await page.goto('/registry');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.context().close();
  });
});

describe('modules', () => {
  it('shows every module to the administrator, each linking to its list', async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Registry' }).click();
    await page.waitForURL((url) => url.pathname === '/registry');
    const cards = page.getByRole('list', { name: 'Modules' }).getByRole('link');
    await cards.first().waitFor();
    expect(await cards.allInnerTexts()).toEqual(RESOURCES.map((r) => r.moduleTitle));
    const hrefs = await cards.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(RESOURCES.map((r) => `/registry/${r.listSegment}`));
    await page.context().close();
  });

  it('shows a limited user only the permitted cards and denies forbidden routes', async () => {
    const user = await e2e.userWith(['VIEW_GENDERS', 'VIEW_SKILLS']);
    const page = await e2e.newPage();
    await e2e.login(page, user.username, user.password);
    await page.goto('/registry');
    const cards = page.getByRole('list', { name: 'Modules' }).getByRole('link');
    await cards.first().waitFor();
    expect(await cards.allInnerTexts()).toEqual(['Genders', 'Skills']);

    await page.goto('/performance-snapshot');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.context().close();
  });

  it('sends a user without any module permission from the registry to access denied', async () => {
    const user = await e2e.userWith([]);
    const page = await e2e.newPage();
    await e2e.login(page, user.username, user.password);
    await page.getByText('Your role does not give access to any module yet').waitFor();
    await page.goto('/registry');
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });
});

describe('layout', () => {
  it('collapses the menu below the lg breakpoint', async () => {
    const page = await e2e.newPage({ viewport: PHONE });
    await e2e.login(page);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('link', { name: 'Performance Snapshot' }).count()).toBe(1);
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'Registry' }).click();
    await page.waitForURL((url) => url.pathname === '/registry');
    // The menu closes itself once the user has gone somewhere.
    await menu.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('shows the copyright and vendor lines in the footer', async () => {
    const page = await e2e.newPage();
    await page.goto('/login');
    const footer = page.getByRole('contentinfo');
    expect(await footer.textContent()).toMatch(/© 2024 .+\. All rights reserved\.\s*Powered by .+/);
    await page.context().close();
  });
});

describe('content security policy', () => {
  it('loads every style and script without a CSP violation', async () => {
    const page = await e2e.newPage();
    const { errors } = watchConsole(page);
    const response = await page.goto('/login');
    expect(response?.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-/);
    // MUI's styles come from Emotion's nonce-carrying style tags; without them the button is unstyled.
    const loginButton = page.getByRole('button', { name: 'Login', exact: true });
    expect(await loginButton.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(0, 119, 58)');
    await e2e.login(page);
    // The toast styles come from the bundled stylesheet.
    const container = page.locator('.Toastify__toast-container');
    expect(await container.evaluate((c) => getComputedStyle(c).position)).toBe('fixed');
    await page.goto('/registry');
    await page.getByRole('list', { name: 'Modules' }).waitFor();
    await page.goto('/access-denied');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('accessibility and screenshots', () => {
  const screens: [string, string, string][] = [
    ['home', '/', 'Welcome, admin'],
    ['modules', '/registry', 'Registry'],
    ['access-denied', '/access-denied', 'Access Denied'],
  ];

  it('has no serious or critical axe violations on the login screen', async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'login');
    await page.context().close();
  });

  it('has no serious or critical axe violations on home, modules and access denied', async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    await e2e.login(page);
    // Toasts fade on their own; wait so the screenshots show the screens themselves.
    await page.locator('.Toastify__toast').waitFor({ state: 'detached' });
    for (const [name, url, heading] of screens) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(describeViolations(await e2e.checkA11y(page)), name).toBe('');
      await e2e.screenshot(page, name);
    }
    await page.context().close();
  });
});
