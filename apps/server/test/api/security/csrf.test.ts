import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, buildApp } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { genders, sessions } from '../../../src/db/schema/index.ts';
import type { ApiRoute } from '../../../src/http/routes.ts';
import { makeServices } from '../../../src/services.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { formEncode } from '../../support/requests.ts';
import { fingerprint } from './helpers.ts';

const t = sharedTestApp();
let admin: string;
beforeAll(async () => {
  admin = await t.login();
  await t.post('CreateGender', { genderName: 'Existing' }, admin);
});

const routes = allRoutes();
const url = (r: ApiRoute) =>
  `/api/${r.path.replace(/:(\w+)/g, (_m, n: string) => (n === 'variant' ? 'thumbnail' : 'X'))}`;
const stateChanging = routes.filter((r) => r.method === 'POST' || r.path === 'logout');
const HOST = 'localhost:80';

const send = (r: ApiRoute, headers: Record<string, string>, body: Record<string, unknown> = {}) =>
  t.app.inject({
    method: r.method,
    url: url(r),
    ...(r.method === 'POST' ? { payload: formEncode(body) } : {}),
    headers: {
      host: HOST,
      cookie: admin,
      ...(r.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    },
  });

describe('cross-site requests that change state are refused (403)', () => {
  it('for every state-changing route, by Origin or by Sec-Fetch-Site, and nothing changes', async () => {
    expect(stateChanging.length).toBeGreaterThan(40);
    const before = await fingerprint(t.handle.db);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:8080' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.localhost' },
    ];
    for (const r of stateChanging) {
      for (const headers of foreign) {
        const res = await send(r, headers, { genderName: 'Forged', roleName: 'Forged' });
        expect(expectEnvelope(res, 403).message, `${r.method} ${r.path} ${JSON.stringify(headers)}`).toBe(
          'Cross-site request refused',
        );
      }
    }
    expect(await fingerprint(t.handle.db)).toEqual(before);
    expect((await t.get('GetSession', admin)).statusCode).toBe(200);
  });

  it('lets the same request through from our own origin', async () => {
    const create = routes.find((r) => r.path === 'CreateGender')!;
    const res = await send(
      create,
      { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' },
      { genderName: 'Own' },
    );
    expectEnvelope(res, 200);
    expect(await t.handle.db.$count(genders, eq(genders.genderName, 'Own'))).toBe(1);
  });

  it('refuses a cross-site sign-in: no session is planted (login CSRF)', async () => {
    const before = await t.handle.db.$count(sessions);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: formEncode({ username: 'admin', password: ADMIN_PASSWORD }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expectEnvelope(res, 403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await t.handle.db.$count(sessions)).toBe(before);
  });

  it('refuses a cross-site sign-out link, which would otherwise end the session', async () => {
    const cookie = await t.login();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expectEnvelope(res, 403);
    expect((await t.get('GetSession', cookie)).statusCode).toBe(200);
  });
});

/** The same path with one unreserved character of each segment percent-encoded. */
const encodings = (path: string) => {
  const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  const match = /^\/(api)\/(.*)$/.exec(path)!;
  const api = match[1]!;
  const rest = match[2]!;
  return [
    `/${hex(api[0]!)}${api.slice(1)}/${rest}`,
    `/${api}/${hex(rest[0]!).toUpperCase()}${rest.slice(1)}`,
    `/${api.split('').map(hex).join('')}/${rest
      .split('/')
      .map((seg) => hex(seg[0]!) + seg.slice(1))
      .join('/')}`,
  ];
};

describe('percent-encoded spellings of a path are checked like the plain one', () => {
  it('refuses every state-changing route however its path is spelt, with the API headers, and nothing changes', async () => {
    const before = await fingerprint(t.handle.db);
    for (const r of stateChanging) {
      for (const spelt of encodings(url(r))) {
        const res = await t.app.inject({
          method: r.method,
          url: spelt,
          ...(r.method === 'POST'
            ? { payload: formEncode({ genderName: 'Forged', roleName: 'Forged' }) }
            : {}),
          headers: {
            host: HOST,
            cookie: admin,
            origin: 'http://evil.example',
            'sec-fetch-site': 'cross-site',
            ...(r.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
        });
        expect(expectEnvelope(res, 403).message, `${r.method} ${spelt}`).toBe('Cross-site request refused');
        expect(res.headers['cache-control'], spelt).toBe('no-store');
        expect(res.headers['content-security-policy'], spelt).toContain("default-src 'none'");
      }
    }
    expect(await fingerprint(t.handle.db)).toEqual(before);
    expect((await t.get('GetSession', admin)).statusCode).toBe(200);
  });

  it('refuses an encoded cross-site sign-in and sign-out', async () => {
    const sessionsBefore = await t.handle.db.$count(sessions);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/%61pi/login',
      payload: formEncode({ username: 'admin', password: ADMIN_PASSWORD }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expectEnvelope(signIn, 403);
    expect(signIn.headers['set-cookie']).toBeUndefined();
    expect(await t.handle.db.$count(sessions)).toBe(sessionsBefore);

    const cookie = await t.login();
    for (const spelt of ['/api/%6cogout', '/%61pi/logout', '/api/%6C%6F%67%6F%75%74']) {
      const signOut = await t.app.inject({
        method: 'GET',
        url: spelt,
        headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      });
      expectEnvelope(signOut, 403);
    }
    expect((await t.get('GetSession', cookie)).statusCode).toBe(200);
  });

  it('serves an encoded spelling from our own origin exactly as the plain path', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/Create%47ender',
      payload: formEncode({ genderName: 'Spelt' }),
      headers: { host: HOST, cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(res, 200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await t.handle.db.$count(genders, eq(genders.genderName, 'Spelt'))).toBe(1);
  });

  it('refuses a cross-site write to a path no route serves before reading its body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/NoSuchThing',
      payload: 'x'.repeat(10),
      headers: { host: HOST, 'content-type': 'text/plain', origin: 'https://evil.example' },
    });
    expectEnvelope(res, 403);
  });
});

describe('allow-listed origins (split deployment)', () => {
  let split: FastifyInstance;
  const app = 'https://app.example.com';
  beforeAll(async () => {
    split = await buildApp(
      makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/', CORS_ORIGINS: [app] })),
    );
  });
  afterAll(() => split.close());

  it('answers the preflight and accepts the write from the listed origin only', async () => {
    const pre = await split.inject({
      method: 'OPTIONS',
      url: '/api/CreateGender',
      headers: { origin: app, 'access-control-request-method': 'POST' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(app);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');

    const res = await split.inject({
      method: 'POST',
      url: '/api/CreateGender',
      payload: formEncode({ genderName: 'From split' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: admin,
        origin: app,
        'sec-fetch-site': 'cross-site',
      },
    });
    expectEnvelope(res, 200);
    expect(res.headers['access-control-allow-origin']).toBe(app);

    const other = await split.inject({
      method: 'OPTIONS',
      url: '/api/CreateGender',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const forged = await split.inject({
      method: 'POST',
      url: '/api/CreateGender',
      payload: formEncode({ genderName: 'Forged' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: admin,
        origin: 'https://evil.example',
      },
    });
    expectEnvelope(forged, 403);
  });
});

describe('GET never changes state, except sign-out', () => {
  const reads = routes.filter((r) => r.method === 'GET' && r.path !== 'logout');
  it.each(reads.map((r) => [r.path, r] as const))('GET %s leaves every table as it was', async (_path, r) => {
    const before = await fingerprint(t.handle.db);
    const res = await t.app.inject({
      method: 'GET',
      url: url(r),
      query: {
        page: '1',
        limit: '5',
        keyword: 'e',
        date: '2024-01-01',
        genderName: 'ViaGet',
        roleName: 'ViaGet',
      },
      headers: { cookie: admin },
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(await fingerprint(t.handle.db)).toEqual(before);
  });
});
