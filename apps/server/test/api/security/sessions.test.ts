import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createSession, hashSessionId, resolveSession } from '../../../src/auth/sessions.ts';
import { testConfig } from '../../../src/config/config.ts';
import { permissions, rolePermissions, roles, sessions } from '../../../src/db/schema/index.ts';
import { makeServices } from '../../../src/services.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { formEncode } from '../../support/requests.ts';

const t = sharedTestApp();
let secure: FastifyInstance;
const IDLE_MINUTES = 30;
const ABSOLUTE_HOURS = 12;

beforeAll(async () => {
  // A second server on the same database, configured for HTTPS deployments.
  secure = await buildApp(
    makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/', COOKIE_SECURE: true })),
  );
  await secure.ready();
});
afterAll(() => secure.close());

const setCookies = (res: LightMyRequestResponse): string[] => {
  const h = res.headers['set-cookie'];
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
};

const signIn = (app: FastifyInstance, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    payload: formEncode({ username: 'admin', password: ADMIN_PASSWORD }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

const sidOf = (cookie: string) => cookie.split('=')[1]!;
const sessionRow = async (cookie: string) =>
  (
    await t.handle.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(sidOf(cookie))))
  )[0];
/** Moves a session's stored time behind the server's back, then waits until the server has seen it. */
const shift = async (cookie: string, column: 'created_at' | 'last_seen_at', agoMs: number) => {
  await t.handle.db.execute(
    sql`update sessions set ${sql.raw(column)} = now() - ${`${agoMs} milliseconds`}::interval
        where id_hash = ${hashSessionId(sidOf(cookie))}`,
  );
  await t.settle();
};

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/ and carries a 128-bit id stored only as a hash', async () => {
    const res = await signIn(t.app);
    expect(res.statusCode).toBe(200);
    const cookie = setCookies(res)[0]!;
    const attrs = cookie.split('; ');
    const [name, value] = attrs[0]!.split('=') as [string, string];
    expect(name).toBe('sid');
    expect(Buffer.from(value, 'base64url')).toHaveLength(16);
    expect(attrs).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/']));
    expect(attrs).not.toContain('Secure');
    expect(attrs.some((a) => a.startsWith('Domain'))).toBe(false);
    expect(await t.handle.db.$count(sessions, eq(sessions.idHash, value))).toBe(0);
    expect(await t.handle.db.$count(sessions, eq(sessions.idHash, hashSessionId(value)))).toBe(1);
  });

  it('with COOKIE_SECURE: the __Host- name and Secure, both when set and when cleared', async () => {
    const res = await signIn(secure);
    const cookie = setCookies(res)[0]!;
    expect(cookie).toMatch(/^__Host-sid=[\w-]{22};/);
    const attrs = cookie.split('; ');
    expect(attrs).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']));
    expect(attrs.some((a) => a.startsWith('Domain'))).toBe(false);

    const sid = cookie.split(';')[0];
    const session = await secure.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie: sid } });
    expect(session.statusCode).toBe(200);
    // A browser ignores a __Host- cookie without Secure, so the clearing cookie must carry it too.
    const out = await secure.inject({ method: 'GET', url: '/api/logout', headers: { cookie: sid } });
    expect(out.statusCode).toBe(200);
    const [cleared] = setCookies(out);
    expect(cleared).toMatch(/^__Host-sid=;/);
    expect(cleared!.split('; ')).toEqual(expect.arrayContaining(['Secure', 'Path=/']));
    const stale = await secure.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie: sid } });
    expect(stale.statusCode).toBe(401);
    expect(setCookies(stale)[0]?.split('; ')).toEqual(expect.arrayContaining(['Secure', 'Path=/']));
  });

  it('is ignored under the plain name when COOKIE_SECURE expects the __Host- one', async () => {
    const plain = await t.login();
    const res = await secure.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie: plain } });
    expect(res.statusCode).toBe(401);
  });
});

describe('session lifecycle', () => {
  it('issues a new id at every sign-in, and never adopts one the client brings', async () => {
    const planted = 'sid=AAAAAAAAAAAAAAAAAAAAAA';
    const first = await signIn(t.app, { cookie: planted });
    const second = await signIn(t.app, { cookie: planted });
    const a = setCookies(first)[0]!.split(';')[0];
    const b = setCookies(second)[0]!.split(';')[0];
    expect(a).not.toBe(b);
    expect(a).not.toBe(planted);
    expect((await t.get('GetSession', planted)).statusCode).toBe(401);
    expect((await t.get('GetSession', a)).statusCode).toBe(200);
    expect((await t.get('GetSession', b)).statusCode).toBe(200);
  });

  it('slides the idle expiry while in use, and ends the session once idle too long', async () => {
    const cookie = await t.login();
    await shift(cookie, 'last_seen_at', (IDLE_MINUTES - 2) * 60_000);
    expect((await t.get('GetSession', cookie)).statusCode).toBe(200);
    const touched = await sessionRow(cookie);
    expect(Date.now() - touched!.lastSeenAt.getTime()).toBeLessThan(60_000);

    await shift(cookie, 'last_seen_at', IDLE_MINUTES * 60_000 + 1000);
    const res = await t.get('GetSession', cookie);
    expect(res.statusCode).toBe(401);
    expect(setCookies(res)[0]).toMatch(/^sid=;/);
    expect(await sessionRow(cookie)).toBeUndefined();
  });

  it('ends a session at its absolute age however active it is', async () => {
    const cookie = await t.login();
    await shift(cookie, 'created_at', ABSOLUTE_HOURS * 3_600_000 - 60_000);
    expect((await t.get('GetSession', cookie)).statusCode).toBe(200);
    await shift(cookie, 'created_at', ABSOLUTE_HOURS * 3_600_000 + 1000);
    await shift(cookie, 'last_seen_at', 0);
    expect((await t.get('GetSession', cookie)).statusCode).toBe(401);
    expect(await sessionRow(cookie)).toBeUndefined();
  });

  it('follows the configured lifetimes', async () => {
    const short = await buildApp(
      makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/', SESSION_IDLE_MINUTES: 1 })),
    );
    try {
      const cookie = await t.login();
      await shift(cookie, 'last_seen_at', 61_000);
      expect((await t.get('GetSession', cookie)).statusCode).toBe(200);
      await shift(cookie, 'last_seen_at', 61_000);
      expect(
        (await short.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie } })).statusCode,
      ).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('keeps a session in use alive under a short idle expiry (one request every 40 s, 1 minute idle)', async () => {
    const policy = { idleMs: 60_000, absoluteMs: 3_600_000 };
    const [admin] = await t.handle.db
      .execute(sql`select user_code as "userCode" from users where username = 'admin'`)
      .then((r) => (r as unknown as { rows: { userCode: string }[] }).rows);
    const id = await createSession(t.handle.db, admin!.userCode, policy, {});
    const start = (await sessionRow(`sid=${id}`))!.lastSeenAt.getTime();
    for (let i = 1; i <= 5; i++) {
      const alive = await resolveSession(t.handle.db, id, policy, new Date(start + i * 40_000));
      expect(alive?.userCode, `request ${i}`).toBe(admin!.userCode);
    }
    expect(
      await resolveSession(t.handle.db, id, policy, new Date(start + 5 * 40_000 + 61_000)),
    ).toBeUndefined();
  });

  it('sign-out revokes the session on the server: the old cookie gets 401', async () => {
    const cookie = await t.login();
    const out = await t.get('logout', cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ statusCode: 200, message: 'Logged out successfully' });
    expect(setCookies(out)[0]).toMatch(/^sid=;/);
    expect(await sessionRow(cookie)).toBeUndefined();
    expect((await t.get('GetSession', cookie)).statusCode).toBe(401);
    expect((await t.get('GetRoles', cookie)).statusCode).toBe(401);
    expect((await t.get('logout', cookie)).statusCode).toBe(401);
  });

  it("ends a deleted user's sessions", async () => {
    const admin = await t.login();
    const doomed = await t.userWith(['VIEW_ROLES']);
    expect((await t.get('GetRoles', doomed.cookie)).statusCode).toBe(200);
    const del = await t.post('DeleteUser', { userCode: doomed.userCode }, admin);
    expect(del.statusCode).toBe(200);
    expect(await t.handle.db.$count(sessions, eq(sessions.userCode, doomed.userCode))).toBe(0);
    expect((await t.get('GetRoles', doomed.cookie)).statusCode).toBe(401);
  });

  it("a new password ends the user's other sessions, and keeps the editor's own", async () => {
    const admin = await t.login();
    const target = await t.userWith(['VIEW_ROLES']);
    const [row] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, target.roleCode));
    const res = await t.post(
      'UpdateUser',
      {
        userCode: target.userCode,
        username: (await t.get('GetSession', target.cookie)).json().data.username,
        email: `${target.userCode.toLowerCase()}@example.com`,
        password: 'brand-new-password-9',
        roleCode: row!.roleCode,
      },
      admin,
    );
    expect(res.statusCode).toBe(200);
    expect((await t.get('GetRoles', target.cookie)).statusCode).toBe(401);
    expect((await t.get('GetSession', admin)).statusCode).toBe(200);
  });

  it("applies a change of the role's permissions on the very next request", async () => {
    const user = await t.userWith(['VIEW_ROLES', 'VIEW_USERS']);
    expect((await t.get('GetUsers', user.cookie)).statusCode).toBe(200);
    const [viewUsers] = await t.handle.db
      .select()
      .from(permissions)
      .where(eq(permissions.permissionName, 'VIEW_USERS'));
    await t.handle.db
      .delete(rolePermissions)
      .where(
        sql`${rolePermissions.roleCode} = ${user.roleCode} and ${rolePermissions.permissionCode} = ${viewUsers!.permissionCode}`,
      );
    // Written behind the server's back: a change through the API is seen before its answer.
    await t.settle();
    expect((await t.get('GetUsers', user.cookie)).statusCode).toBe(403);
    expect((await t.get('GetRoles', user.cookie)).statusCode).toBe(200);
  });

  it('is read once while nothing it depends on changes, and read again after any change', async () => {
    const user = await t.userWith(['VIEW_ROLES', 'VIEW_USERS']);
    expect((await t.get('GetRoles', user.cookie)).statusCode).toBe(200);
    const before = { ...t.services.sessions.stats };
    expect((await t.get('GetRoles', user.cookie)).statusCode).toBe(200);
    expect((await t.get('GetUsers', user.cookie)).statusCode).toBe(200);
    expect(t.services.sessions.stats).toEqual({ hits: before.hits + 2, misses: before.misses });

    // Any write to a table the lookup reads drops what was kept, here the role's description.
    await t.handle.db
      .update(roles)
      .set({ roleDescription: 'Changed behind the server' })
      .where(eq(roles.roleCode, user.roleCode));
    await t.settle();
    expect((await t.get('GetRoles', user.cookie)).statusCode).toBe(200);
    expect(t.services.sessions.stats).toEqual({ hits: before.hits + 2, misses: before.misses + 1 });
  });

  it('answers a made-up or malformed cookie with 401 and clears it', async () => {
    for (const cookie of ['sid=made-up', 'sid=', `sid=${'x'.repeat(5000)}`, 'sid=%00%ff']) {
      const res = await t.get('GetSession', cookie);
      expect(res.statusCode, cookie.slice(0, 20)).toBe(401);
    }
  });
});

describe('the session timing told to the browser', () => {
  const IDLE_MS = IDLE_MINUTES * 60_000;
  const ABSOLUTE_MS = ABSOLUTE_HOURS * 3_600_000;
  /** Within `slack` ms below `expected`: the answer is computed a moment before it is read here. */
  const near = (actual: number, expected: number, slack = 10_000) => {
    expect(actual).toBeLessThanOrEqual(expected);
    expect(actual).toBeGreaterThan(expected - slack);
  };

  it('comes with the sign-in answer: the whole idle window and lifetime ahead', async () => {
    const res = await signIn(t.app);
    const { session } = res.json().data;
    expect(session).toMatchObject({ idleMs: IDLE_MS, touchIntervalMs: 60_000 });
    near(session.idleExpiresInMs, IDLE_MS);
    near(session.absoluteExpiresInMs, ABSOLUTE_MS);
  });

  it('GetSession counts from the last-seen time the server has stored, as its own expiry check does', async () => {
    const cookie = await t.login();
    // Seen 30 s ago: within the touch interval, so this call does not move the stored time.
    await shift(cookie, 'last_seen_at', 30_000);
    await shift(cookie, 'created_at', 2 * 3_600_000);
    const quiet = (await t.get('GetSession', cookie)).json().data.session;
    near(quiet.idleExpiresInMs, IDLE_MS - 30_000);
    near(quiet.absoluteExpiresInMs, ABSOLUTE_MS - 2 * 3_600_000);

    // Seen 10 minutes ago: this call writes the new last-seen time, and the answer counts from it.
    await shift(cookie, 'last_seen_at', 10 * 60_000);
    const touched = (await t.get('GetSession', cookie)).json().data.session;
    near(touched.idleExpiresInMs, IDLE_MS);
  });

  it('follows the configured idle window and touch interval', async () => {
    const short = await buildApp(
      makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/', SESSION_IDLE_MINUTES: 1 })),
    );
    try {
      const res = await signIn(short);
      expect(res.json().data.session).toMatchObject({ idleMs: 60_000, touchIntervalMs: 15_000 });
    } finally {
      await short.close();
    }
  });
});
