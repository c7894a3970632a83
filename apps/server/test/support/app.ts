import { inArray } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { type Config, testConfig } from '../../src/config/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { permissions, rolePermissions, roles, users } from '../../src/db/schema/index.ts';
import { newCode } from '../../src/resources/codes.ts';
import { makeServices, watchChanges } from '../../src/services.ts';
import { freshDatabase } from './db.ts';

export const ADMIN_PASSWORD = 'admin-password-1';

export interface TestApp {
  app: FastifyInstance;
  handle: DbHandle;
  /** Signs in and returns the Cookie header value. */
  login(username?: string, password?: string): Promise<string>;
  /** A user whose role holds exactly these permissions; returns its cookie. */
  userWith(
    permissionNames: string[],
    name?: string,
  ): Promise<{ cookie: string; userCode: string; roleCode: string }>;
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

/** Bracket notation, exactly as the browser's form encoding writes nested keys. */
export function formEncode(body: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, `${key}[${i}]`);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${key}[${k}]`);
    } else out.append(key, value === null ? '' : String(value));
  };
  for (const [k, v] of Object.entries(body)) walk(v, k);
  return out.toString();
}

let counter = 0;

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const handle = await freshDatabase();
  await bootstrap(handle.db, ADMIN_PASSWORD);
  const services = makeServices(
    handle.db,
    testConfig({ WEB_DIST: '/nonexistent/', ...overrides }),
    await watchChanges(handle),
  );
  const app = await buildApp(services);
  await app.ready();

  const login = async (username = 'admin', password = ADMIN_PASSWORD) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: formEncode({ username, password }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    const c = res.cookies.find((x) => x.name === 'sid' || x.name === '__Host-sid');
    return `${c!.name}=${c!.value}`;
  };

  const t: TestApp = {
    app,
    handle,
    login,
    async userWith(names, name) {
      const roleCode = newCode('ROLE-');
      const username = name ?? `user${++counter}_${Date.now() % 100000}`;
      await handle.db.insert(roles).values({ roleCode, roleName: `Role ${username}` });
      if (names.length) {
        const perms = await handle.db
          .select()
          .from(permissions)
          .where(inArray(permissions.permissionName, names));
        if (perms.length !== names.length) throw new Error(`unknown permission in ${names.join(',')}`);
        await handle.db
          .insert(rolePermissions)
          .values(perms.map((p) => ({ roleCode, permissionCode: p.permissionCode })));
      }
      const userCode = newCode('USER-');
      await handle.db.insert(users).values({
        userCode,
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword('user-password-1'),
        roleCode,
      });
      return { cookie: await login(username, 'user-password-1'), userCode, roleCode };
    },
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
    },
  };
  return t;
}
