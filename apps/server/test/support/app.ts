import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { type Config, testConfig } from '../../src/config/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { analyzeWith, declaredReadsCheck } from '../../src/db/read-audit.ts';
import { LIST_READS } from '../../src/resources/read.ts';
import { type DemoOptions, seedDemo } from '../../src/seed/demo.ts';
import { makeServices, type Services, watchChanges } from '../../src/services.ts';
import { freshDatabase } from './db.ts';
import { sharedFixture } from './fixture.ts';
import { checkAgainstDescription } from './openapi-check.ts';
import { formEncode, loginCookie } from './requests.ts';
import { type SignIn, type UserFor, type UserOptions, userWith } from './users.ts';

export const ADMIN_PASSWORD = 'admin-password-1';

export interface TestApp {
  app: FastifyInstance;
  /** `url`: the PostgreSQL database's, when DATABASE_URL is set. */
  handle: DbHandle & { url?: string };
  services: Services;
  /** Signs in and returns the Cookie header value. */
  login(username?: string, password?: string): Promise<string>;
  /** A user whose role holds exactly these permissions, signed in through the login route by default. */
  userWith<S extends SignIn = 'login'>(
    permissionNames: readonly string[],
    options?: UserOptions<S>,
  ): Promise<UserFor<S>>;
  get(
    path: string,
    cookie?: string,
    query?: Record<string, string | number>,
  ): Promise<LightMyRequestResponse>;
  /** Form-encoded POST, as the browser sends it. */
  post(
    path: string,
    body: Record<string, unknown>,
    cookie?: string,
    query?: Record<string, string | number>,
  ): Promise<LightMyRequestResponse>;
  postJson(path: string, body: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  /** After writing behind the server's back: waits until the server has seen those changes. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The read audit every test app runs: each kept read declares every table it reads, and a list's
 * page, matches and total scan no table for rows an index could have found (which shows only
 * once a table holds thousands of rows: test/api/seed/list-sql.test.ts).
 */
export const auditedReads = (handle: DbHandle) =>
  declaredReadsCheck(handle.explain, {
    analyze: analyzeWith(handle.db),
    applies: (key) => LIST_READS.has(String(key[0])),
  });

/**
 * The server over a fresh, bootstrapped database, with the change watch as it runs in production.
 * Every kept read is checked against the tables its statements really read, so a definition that
 * forgets one fails whichever test reads through it.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  appOptions: AppOptions = {},
): Promise<TestApp> {
  const handle = await freshDatabase();
  await bootstrap(handle.db, ADMIN_PASSWORD);
  const services = makeServices(
    handle.db,
    testConfig({ WEB_DIST: '/nonexistent/', ...overrides }),
    await watchChanges(handle),
    { checkReads: auditedReads(handle) },
  );
  const app = await buildApp(services, appOptions);
  const violations = describedAnswersOnly(app);
  await app.ready();

  return {
    app,
    handle,
    services,
    login: (username = 'admin', password = ADMIN_PASSWORD) => loginCookie(app, username, password),
    userWith: (permissionNames, options) => userWith({ app, services }, permissionNames, options),
    get: (path, cookie, query) =>
      app.inject({
        method: 'GET',
        url: `/api/${path}`,
        query: query as Record<string, string>,
        headers: cookie ? { cookie } : {},
      }),
    post: (path, body, cookie, query) =>
      app.inject({
        method: 'POST',
        url: `/api/${path}`,
        query: query as Record<string, string>,
        payload: formEncode(body),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      }),
    postJson: (path, body, cookie) =>
      app.inject({
        method: 'POST',
        url: `/api/${path}`,
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      }),
    settle: () => services.settle(),
    async close() {
      await app.close();
      await handle.close();
      if (violations.length) {
        throw new Error(`Answers that the API description does not allow:\n${violations.join('\n')}`);
      }
    },
  };
}

/**
 * Checks every answer the app sends against its API description and keeps what does not match;
 * `close` fails with the list, so a test file whose calls get undescribed answers fails.
 */
function describedAnswersOnly(app: FastifyInstance): string[] {
  const violations: string[] = [];
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload === 'string') {
      try {
        checkAgainstDescription(req.method, req.url, {
          statusCode: reply.statusCode,
          contentType: String(reply.getHeader('content-type') ?? ''),
          body: payload,
        });
      } catch (err) {
        if (violations.length < 20) violations.push(err instanceof Error ? err.message : String(err));
      }
    }
    return payload;
  });
  return violations;
}

/** One app for the file's tests: built before them, closed after them. */
export const sharedTestApp = (overrides: Partial<Config> = {}) =>
  sharedFixture(() => createTestApp(overrides));

export interface DemoTestApp extends TestApp {
  /** The administrator's Cookie header value. */
  admin: string;
}

/**
 * One app for the file's tests over a small set of demo data (a few people, a few days, one
 * country's geography), with the administrator signed in: for tests that walk every module.
 */
export const sharedDemoApp = (demo: DemoOptions = {}) =>
  sharedFixture(async (): Promise<DemoTestApp> => {
    const app = await createTestApp();
    await seedDemo(app.handle.db, { people: 6, days: 3, cityCountries: ['NZ'], pictures: false, ...demo });
    await app.settle();
    return { ...app, admin: await app.login() };
  });
