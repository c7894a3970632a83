import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { bootstrap } from '../../../src/bootstrap.ts';
import { testConfig } from '../../../src/config/config.ts';
import { type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { makeServices, type Services, watchChanges } from '../../../src/services.ts';
import { ADMIN_PASSWORD } from '../../support/app.ts';
import { freshDatabase } from '../../support/db.ts';
import { formEncode } from '../../support/requests.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Any number of stateless instances may share one PostgreSQL database.
 * PGlite lives inside one process, so there is no second instance to start there.
 */
describe.skipIf(!onPostgres)(
  'two server instances on one PostgreSQL database (skipped on PGlite: needs DATABASE_URL)',
  () => {
    let shared: DbHandle & { url?: string };
    let second: DbHandle;
    let a: FastifyInstance;
    let b: FastifyInstance;
    let aServices: Services;
    let bServices: Services;

    beforeAll(async () => {
      shared = await freshDatabase();
      await bootstrap(shared.db, ADMIN_PASSWORD);
      // A separate pool for the second instance: nothing in memory is shared between the two.
      second = await openDatabase({ dataDir: 'memory://', databaseUrl: shared.url, poolSize: 3 });
      const config = testConfig({ WEB_DIST: '/nonexistent/' });
      aServices = makeServices(shared.db, config, await watchChanges(shared));
      a = await buildApp(aServices);
      bServices = makeServices(second.db, config, await watchChanges(second));
      b = await buildApp(bServices);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await second?.close();
      await shared?.close();
    });

    const login = (app: FastifyInstance, password: string, remoteAddress = '127.0.0.1') =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        payload: formEncode({ username: 'admin', password }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress,
      });
    const get = (app: FastifyInstance, path: string, cookie: string) =>
      app.inject({ method: 'GET', url: `/api/${path}`, headers: { cookie } });

    it('a session made on one is honoured by the other, and a sign-out on either ends it on both', async () => {
      const res = await login(a, ADMIN_PASSWORD);
      expect(res.statusCode).toBe(200);
      const cookie = `sid=${res.cookies.find((c) => c.name === 'sid')!.value}`;
      expect((await get(b, 'GetSession', cookie)).json().data.username).toBe('admin');
      // Both now keep the session's lookup; the sign-out's change reaches the other in milliseconds.
      expect((await get(a, 'GetRoles', cookie)).statusCode).toBe(200);
      expect((await get(b, 'logout', cookie)).statusCode).toBe(200);
      await aServices.settle();
      expect((await get(a, 'GetSession', cookie)).statusCode).toBe(401);
      expect((await get(b, 'GetSession', cookie)).statusCode).toBe(401);
    });

    it('failed sign-ins counted on one instance throttle the other', async () => {
      for (let i = 0; i < 3; i++) expect((await login(a, `wrong-${i}-password`)).statusCode).toBe(401);
      for (let i = 0; i < 2; i++) expect((await login(b, `wrong-${i}-password`)).statusCode).toBe(401);
      expect((await login(a, ADMIN_PASSWORD)).statusCode).toBe(429);
      expect((await login(b, ADMIN_PASSWORD)).statusCode).toBe(429);
    });

    it('a burst split over both instances verifies no more passwords than the limit', async () => {
      // From a clean slate: the test before left the admin throttled.
      await shared.db.execute(sql`delete from login_throttle`);
      const ip = '192.0.2.77';
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          login(i % 2 ? b : a, i === 19 ? ADMIN_PASSWORD : `guess-${i}-password`, ip),
        ),
      );
      const codes = responses.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(5);
      expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(35);
      expect(codes[19]).toBe(429);
    });

    it('a list kept by one is read afresh once it has seen a write made through the other', async () => {
      // The tests before left the admin throttled.
      await shared.db.execute(sql`delete from login_throttle`);
      const res = await login(a, ADMIN_PASSWORD);
      const cookie = `sid=${res.cookies.find((c) => c.name === 'sid')!.value}`;
      const names = async () =>
        (await get(b, 'GetGenders', cookie)).json().data.map((g: { genderName: string }) => g.genderName);
      expect(await names()).not.toContain('Made On A');
      const created = await a.inject({
        method: 'POST',
        url: '/api/CreateGender',
        payload: formEncode({ genderName: 'Made On A' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
      expect(created.statusCode).toBe(200);
      await bServices.settle();
      expect(await names()).toContain('Made On A');
    });
  },
);

describe.runIf(!onPostgres)('two server instances', () => {
  it.skip('need DATABASE_URL: PGlite lives inside one process, so there is no second instance', () => {});
});
