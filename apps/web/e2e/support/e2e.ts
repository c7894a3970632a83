/// <reference types="node" />
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  createTestApp,
  type Database,
  type JobQueue,
  type JobQueueOptions,
  sharedFixture,
  startJobs,
  type TestUser,
} from '@wfc/server/testing';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

export const DESKTOP = { width: 1366, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

// E2E_WEB_DIST: a build elsewhere, so that two checkouts' test runs need not share one folder.
const WEB_DIST = process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../dist/', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../screenshots/', import.meta.url));
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Needed by checkA11y: the axe script is injected inline, which the app's CSP refuses. */
  bypassCSP?: boolean;
  /** The system setting the page sees (prefers-color-scheme); Playwright's default is light. */
  colorScheme?: 'light' | 'dark';
  /** The browser's locale and time zone, which the console's dates follow. */
  locale?: string;
  timezoneId?: string;
}

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

export interface E2E {
  baseURL: string;
  browser: Browser;
  db: Database;
  /** A page in its own browser context: no cookies or storage shared with other pages. */
  newPage(opts?: NewPageOptions): Promise<Page>;
  /** Signs in through the login screen and waits for the home route. */
  login(page: Page, username?: string, password?: string): Promise<void>;
  /** A user whose role holds exactly these permissions; `login` signs it in with its name and password. */
  userWith(permissionNames: readonly string[]): Promise<TestUser>;
  /** Full-page PNGs at desktop and phone widths into apps/web/screenshots/; returns their paths. */
  screenshot(page: Page, name: string): Promise<string[]>;
  /** Serious and critical axe violations of the page as it is now. */
  checkA11y(page: Page): Promise<AxeViolation[]>;
  /**
   * The background jobs as the server runs them beside its routes (webhook deliveries, the
   * retention purge), with the options given (a fast delivery timing); stopped by `close`.
   */
  startJobs(options?: JobQueueOptions): Promise<void>;
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

/** Server settings a test file may change (`SESSION_IDLE_MINUTES`, ...); the built app is always served. */
export type ServerOverrides = NonNullable<Parameters<typeof createTestApp>[0]>;

/**
 * The real server, in-process on a random port, over a fresh database and the built web app,
 * plus a headless Chromium. One per test file; `close` releases everything.
 */
export async function startE2E(overrides: ServerOverrides = {}): Promise<E2E> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`No built web app in ${WEB_DIST}: run \`npm run build -w @wfc/web\` first`);
  }
  const server = await createTestApp({ ...overrides, WEB_DIST });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const cspBypassed = new WeakSet<Page>();
  let jobs: JobQueue | undefined;
  const quiet = { info() {}, error() {} };

  const e2e: E2E = {
    baseURL: address,
    browser,
    db: server.handle.db,

    async newPage(opts = {}) {
      const contextOptions: BrowserContextOptions = {
        baseURL: address,
        viewport: opts.viewport ?? DESKTOP,
        bypassCSP: opts.bypassCSP ?? false,
        reducedMotion: 'reduce',
        ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
        ...(opts.locale ? { locale: opts.locale } : {}),
        ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
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

    userWith: (permissionNames) => server.userWith(permissionNames, { signIn: 'none' }),

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

    async startJobs(options = {}) {
      if (jobs) throw new Error('The background jobs are already running');
      const { db, config, metrics } = server.services;
      jobs = await startJobs(
        { db, config, metrics, log: quiet },
        { databaseUrl: server.handle.url, ...options },
      );
    },

    async close() {
      await jobs?.stop();
      await browser.close();
      await server.close();
    },
  };
  return e2e;
}

/** One server and browser for the file's tests: started before them, closed after them. */
export const sharedE2E = (overrides: ServerOverrides = {}) => sharedFixture(() => startE2E(overrides));

/** Readable one-line-per-node summary for assertion messages. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${v.help} at ${n.target.join(' ')}`))
    .join('\n');
}
