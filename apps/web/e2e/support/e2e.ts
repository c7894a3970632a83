/// <reference types="node" />
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { buildApp } from '../../../server/src/app.ts';
import { hashPassword } from '../../../server/src/auth/passwords.ts';
import { bootstrap } from '../../../server/src/bootstrap.ts';
import { testConfig } from '../../../server/src/config/config.ts';
import type { Database } from '../../../server/src/db/client.ts';
import { permissions, rolePermissions, roles, users } from '../../../server/src/db/schema/index.ts';
import { newCode } from '../../../server/src/resources/codes.ts';
import { makeServices, watchChanges } from '../../../server/src/services.ts';
import { freshDatabase } from '../../../server/test/support/db.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'admin-password-1';
export const USER_PASSWORD = 'user-password-1';

export const DESKTOP = { width: 1366, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

const WEB_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../screenshots/', import.meta.url));
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Needed by checkA11y: the axe script is injected inline, which the app's CSP refuses. */
  bypassCSP?: boolean;
}

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

export interface CreatedUser {
  username: string;
  password: string;
  userCode: string;
  roleCode: string;
}

export interface E2E {
  baseURL: string;
  browser: Browser;
  db: Database;
  /** A page in its own browser context: no cookies or storage shared with other pages. */
  newPage(opts?: NewPageOptions): Promise<Page>;
  /** Signs in through the login screen and waits for the home route. */
  login(page: Page, username?: string, password?: string): Promise<void>;
  /** A user whose role holds exactly these permissions (password USER_PASSWORD). */
  createUserWith(permissionNames: string[]): Promise<CreatedUser>;
  /** Full-page PNGs at desktop and phone widths into apps/web/screenshots/; returns their paths. */
  screenshot(page: Page, name: string): Promise<string[]>;
  /** Serious and critical axe violations of the page as it is now. */
  checkA11y(page: Page): Promise<AxeViolation[]>;
  close(): Promise<void>;
}

/** Collects console errors and uncaught page errors, e.g. CSP refusals logged by Chromium. */
export function watchConsole(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return { errors };
}

/**
 * The real server, in-process on a random port, over a fresh database and the built web app,
 * plus a headless Chromium. One per test file; `close` releases everything.
 */
export async function startE2E(): Promise<E2E> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`No built web app in ${WEB_DIST}: run \`npm run build -w @wfc/web\` first`);
  }
  const handle = await freshDatabase();
  await bootstrap(handle.db, ADMIN_PASSWORD);
  // With the change watch, as the server runs: lists are kept until their tables change.
  const app = await buildApp(makeServices(handle.db, testConfig({ WEB_DIST }), await watchChanges(handle)));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const cspBypassed = new WeakSet<Page>();
  let userCounter = 0;

  const e2e: E2E = {
    baseURL: address,
    browser,
    db: handle.db,

    async newPage(opts = {}) {
      const contextOptions: BrowserContextOptions = {
        baseURL: address,
        viewport: opts.viewport ?? DESKTOP,
        bypassCSP: opts.bypassCSP ?? false,
        reducedMotion: 'reduce',
      };
      const context = await browser.newContext(contextOptions);
      const page = await context.newPage();
      if (opts.bypassCSP) cspBypassed.add(page);
      return page;
    },

    async login(page, username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
      await page.goto('/login');
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    },

    async createUserWith(permissionNames) {
      const roleCode = newCode('ROLE-');
      const username = `e2e_user_${++userCounter}_${Date.now() % 100_000}`;
      await handle.db.insert(roles).values({ roleCode, roleName: `E2E role ${username}` });
      if (permissionNames.length > 0) {
        const found = await handle.db
          .select({ permissionCode: permissions.permissionCode })
          .from(permissions)
          .where(inArray(permissions.permissionName, permissionNames));
        if (found.length !== permissionNames.length) {
          throw new Error(`Unknown permission among ${permissionNames.join(', ')}`);
        }
        await handle.db
          .insert(rolePermissions)
          .values(found.map((p) => ({ roleCode, permissionCode: p.permissionCode })));
      }
      const userCode = newCode('USER-');
      await handle.db.insert(users).values({
        userCode,
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword(USER_PASSWORD),
        roleCode,
      });
      return { username, password: USER_PASSWORD, userCode, roleCode };
    },

    async screenshot(page, name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const original = page.viewportSize();
      const paths: string[] = [];
      for (const [label, size] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        await page.setViewportSize(size);
        // Layout switches on breakpoints; give the re-render and any transition a moment.
        await page.waitForTimeout(400);
        const path = join(SCREENSHOT_DIR, `${name}-${label}.png`);
        await page.screenshot({ path, fullPage: true });
        paths.push(path);
      }
      if (original) await page.setViewportSize(original);
      return paths;
    },

    async checkA11y(page) {
      if (!cspBypassed.has(page)) {
        throw new Error('checkA11y needs a page from newPage({ bypassCSP: true })');
      }
      // Colours are checked at rest: a button fading from disabled to enabled is not a defect.
      await page.addStyleTag({
        content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
      });
      await page.addScriptTag({ path: AXE_PATH });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } })
          .axe;
        return (await axe.run(document)).violations;
      });
      return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },

    async close() {
      await browser.close();
      await app.close();
      await handle.close();
    },
  };
  return e2e;
}

/** Readable one-line-per-node summary for assertion messages. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${v.help} at ${n.target.join(' ')}`))
    .join('\n');
}
