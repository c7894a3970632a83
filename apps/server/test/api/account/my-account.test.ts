import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { throttleKeys } from '../../../src/auth/throttle.ts';
import { testConfig } from '../../../src/config/config.ts';
import { type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { audits, loginThrottle, sessions } from '../../../src/db/schema/index.ts';
import { makeServices } from '../../../src/services.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { expectEnvelope, expectOk } from '../../support/envelope.ts';
import { loginCookie } from '../../support/requests.ts';
import { USER_PASSWORD } from '../../support/users.ts';

const t = sharedTestApp();
/**
 * A second server on the same database: sessions are shared, not kept by an instance. On
 * PostgreSQL it has a pool of its own, as a second instance would.
 */
let other: FastifyInstance;
let secondPool: DbHandle | undefined;

beforeAll(async () => {
  const url = (t.handle as DbHandle & { url?: string }).url;
  secondPool = url ? await openDatabase({ dataDir: 'memory://', databaseUrl: url, poolSize: 3 }) : undefined;
  other = await buildApp(
    makeServices((secondPool ?? t.handle).db, testConfig({ WEB_DIST: '/nonexistent/' })),
  );
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await secondPool?.close();
});

const NEW_PASSWORD = 'a-brand-new-pass-9';
const fieldErrors = (body: { errors?: { field: string; message: string }[] }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));

const signInAs = (username: string, password: string, app: FastifyInstance = t.app) =>
  loginCookie(app, username, password);
const mySessions = async (cookie: string, app: FastifyInstance = t.app) => {
  const res = await app.inject({ method: 'GET', url: '/api/GetMySessions', headers: { cookie } });
  return expectEnvelope(res, 200) as { data: Record<string, unknown>[]; total: number };
};

describe('ChangeMyPassword', () => {
  it('changes the password, ends the other sessions only, and audits without the password', async () => {
    const user = await t.userWith([]);
    const second = await signInAs(user.username, USER_PASSWORD, other);
    const res = await t.post(
      'ChangeMyPassword',
      { currentPassword: USER_PASSWORD, newPassword: NEW_PASSWORD },
      user.cookie,
    );
    expectOk(res, 'Your password was changed; 1 other session ended');
    expect((await t.get('GetSession', user.cookie)).statusCode).toBe(200);
    expect(
      (await other.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie: second } })).statusCode,
    ).toBe(401);
    await expect(signInAs(user.username, USER_PASSWORD)).rejects.toThrow(/401/);
    await signInAs(user.username, NEW_PASSWORD);
    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(sql`${audits.action} = 'PASSWORD_CHANGED' and ${audits.userCode} = ${user.userCode}`);
    expect(entry?.after).toEqual({ username: user.username, otherSessionsEnded: 1 });
    expect(JSON.stringify(entry)).not.toContain(NEW_PASSWORD);
  });

  it('400 on currentPassword when it is wrong, counted toward sign-in throttling', async () => {
    const user = await t.userWith([]);
    const res = await t.post(
      'ChangeMyPassword',
      { currentPassword: 'wrong-password-1', newPassword: NEW_PASSWORD },
      user.cookie,
    );
    expect(fieldErrors(expectEnvelope(res, 400))).toEqual({
      currentPassword: 'Current password is incorrect',
    });
    const [row] = await t.handle.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, throttleKeys(user.username, '127.0.0.1').accountAtAddress));
    expect(row?.attempts).toBe(1);
    const failed = await t.handle.db.$count(
      audits,
      sql`${audits.action} = 'LOGIN_FAILED' and ${audits.userCode} = ${user.userCode}`,
    );
    expect(failed).toBe(1);
  });

  it('429 with Retry-After once wrong passwords reach the limit, even the right one', async () => {
    const user = await t.userWith([]);
    for (let i = 0; i < 5; i++) {
      await t.post(
        'ChangeMyPassword',
        { currentPassword: `wrong-password-${i}`, newPassword: NEW_PASSWORD },
        user.cookie,
      );
    }
    const res = await t.post(
      'ChangeMyPassword',
      { currentPassword: USER_PASSWORD, newPassword: NEW_PASSWORD },
      user.cookie,
    );
    expect(expectEnvelope(res, 429).message).toBe('Too many failed sign-in attempts; try again later');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('400 when the new password breaks the rule or is too common', async () => {
    const user = await t.userWith([]);
    const short = await t.post(
      'ChangeMyPassword',
      { currentPassword: USER_PASSWORD, newPassword: 'short1' },
      user.cookie,
    );
    expect(fieldErrors(expectEnvelope(short, 400))).toEqual({
      newPassword: 'Password must be at least 12 characters',
    });
    const common = await t.post(
      'ChangeMyPassword',
      { currentPassword: USER_PASSWORD, newPassword: 'Password1234' },
      user.cookie,
    );
    const body = expectEnvelope(common, 400);
    expect(body.message).toBe('This password is too common');
    expect(fieldErrors(body)).toEqual({ newPassword: 'This password is too common' });
    await signInAs(user.username, USER_PASSWORD);
  });

  it('401 without a session', async () => {
    const res = await t.post('ChangeMyPassword', {
      currentPassword: USER_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(expectEnvelope(res, 401).message).toBe('Not signed in');
  });
});

describe('common passwords on every path that sets one', () => {
  it('register and UpdateUser refuse them with 400 on password', async () => {
    const admin = await t.login();
    const roles = (await t.get('GetRoles', admin)).json().data as { roleCode: string }[];
    const created = await t.post(
      'register',
      {
        username: 'common.pw',
        email: 'common@example.com',
        password: 'qwerty123456',
        roleCode: roles[0]!.roleCode,
      },
      admin,
    );
    expect(expectEnvelope(created, 400).message).toBe('This password is too common');
    expect(fieldErrors(expectEnvelope(created))).toEqual({ password: 'This password is too common' });
    const user = await t.userWith([], { signIn: 'none' });
    const updated = await t.post(
      'UpdateUser',
      {
        userCode: user.userCode,
        username: user.username,
        email: `${user.username}@example.com`,
        password: 'Password1234',
        roleCode: user.roleCode,
      },
      admin,
    );
    expect(fieldErrors(expectEnvelope(updated, 400))).toEqual({ password: 'This password is too common' });
  });
});

describe('my sessions', () => {
  it('lists the sessions by code, never id or hash, across two servers, and marks the current one', async () => {
    const user = await t.userWith([]);
    const second = await signInAs(user.username, USER_PASSWORD, other);
    const seen = await mySessions(user.cookie);
    expect(seen.total).toBe(2);
    expect(seen.data.map((s) => Object.keys(s).sort())).toEqual(
      Array(2).fill(['createdAt', 'current', 'ipAddress', 'lastSeenAt', 'sessionCode', 'userAgent']),
    );
    expect(seen.data.filter((s) => s.current)).toHaveLength(1);
    const rows = await t.handle.db.select().from(sessions).where(eq(sessions.userCode, user.userCode));
    const body = JSON.stringify(seen);
    for (const r of rows) expect(body).not.toContain(r.idHash);
    expect(body).not.toContain(user.cookie.split('=')[1]);
    const fromOther = await mySessions(second, other);
    expect(fromOther.data.map((s) => s.sessionCode).sort()).toEqual(
      seen.data.map((s) => s.sessionCode).sort(),
    );
    expect(fromOther.data.find((s) => s.current)?.sessionCode).not.toBe(
      seen.data.find((s) => s.current)?.sessionCode,
    );
  });

  it('EndMySession ends another session on the other server at once; 404 for a code not its own', async () => {
    const user = await t.userWith([]);
    const stranger = await t.userWith([]);
    const second = await signInAs(user.username, USER_PASSWORD, other);
    const secondCode = (await mySessions(second, other)).data.find((s) => s.current)!.sessionCode as string;
    expect(
      expectEnvelope(await t.post('EndMySession', { sessionCode: secondCode }, stranger.cookie), 404).message,
    ).toBe('No session with that code');
    expectOk(await t.post('EndMySession', { sessionCode: secondCode }, user.cookie), 'The session was ended');
    expect(
      (await other.inject({ method: 'GET', url: '/api/GetSession', headers: { cookie: second } })).statusCode,
    ).toBe(401);
    expect((await mySessions(user.cookie)).total).toBe(1);
    const entry = await t.handle.db.$count(
      audits,
      sql`${audits.action} = 'SESSION_ENDED' and ${audits.userCode} = ${user.userCode}`,
    );
    expect(entry).toBe(1);
    expect(fieldErrors(expectEnvelope(await t.post('EndMySession', {}, user.cookie), 400))).toEqual({
      sessionCode: 'Session code is required',
    });
  });

  it('EndMySession on the current session signs out', async () => {
    const user = await t.userWith([]);
    const code = (await mySessions(user.cookie)).data[0]!.sessionCode as string;
    const res = await t.post('EndMySession', { sessionCode: code }, user.cookie);
    expectOk(res, 'The session was ended');
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;/);
    expect((await t.get('GetSession', user.cookie)).statusCode).toBe(401);
  });

  it('EndMyOtherSessions keeps only the current one', async () => {
    const user = await t.userWith([]);
    const a = await signInAs(user.username, USER_PASSWORD, other);
    const b = await signInAs(user.username, USER_PASSWORD);
    expectOk(await t.post('EndMyOtherSessions', {}, user.cookie), '2 other sessions ended');
    for (const c of [a, b]) expect((await t.get('GetSession', c)).statusCode).toBe(401);
    expect((await mySessions(user.cookie)).total).toBe(1);
    expectOk(await t.post('EndMyOtherSessions', {}, user.cookie), 'No other session was open');
  });

  it('leaves out expired sessions', async () => {
    const user = await t.userWith([]);
    const stale = await signInAs(user.username, USER_PASSWORD);
    await t.handle.db.execute(
      sql`update sessions set last_seen_at = now() - interval '31 minutes'
          where user_code = ${user.userCode} and session_code <> ${(await mySessions(user.cookie)).data.find((s) => s.current)!.sessionCode as string}`,
    );
    expect((await mySessions(user.cookie)).total).toBe(1);
    expect(stale).toBeTruthy();
  });

  it('401 without a session', async () => {
    expect((await t.get('GetMySessions')).statusCode).toBe(401);
    expect((await t.post('EndMySession', { sessionCode: 'SESSION-X' })).statusCode).toBe(401);
    expect((await t.post('EndMyOtherSessions', {})).statusCode).toBe(401);
  });
});

describe("a user manager and another user's sessions", () => {
  it('lists and ends them everywhere (keeping their own), audited', async () => {
    const manager = await t.userWith(['UPDATE_USER']);
    const user = await t.userWith([]);
    await signInAs(user.username, USER_PASSWORD, other);
    const list = expectEnvelope(
      await t.post('GetSessionsByUserCode', { userCode: user.userCode }, manager.cookie),
      200,
    );
    expect(list.total).toBe(2);
    expectOk(
      await t.post('EndUserSessions', { userCode: user.userCode }, manager.cookie),
      '2 sessions ended',
    );
    expect((await t.get('GetSession', user.cookie)).statusCode).toBe(401);
    expect(
      expectEnvelope(await t.post('GetSessionsByUserCode', { userCode: user.userCode }, manager.cookie), 200)
        .total,
    ).toBe(0);
    const entry = (
      await t.handle.db
        .select()
        .from(audits)
        .where(sql`${audits.action} = 'SESSION_ENDED' and ${audits.recordCode} = ${user.userCode}`)
    )[0];
    expect(entry?.username).toBe(manager.username);
  });

  for (const [who, names] of [
    ['a user manager', ['UPDATE_USER']],
    ['the Administrator', ALL_PERMISSION_NAMES],
  ] as const) {
    it(`EndUserSessions on oneself: 403 for ${who}, pointing to My account; every session stays`, async () => {
      const self = await t.userWith(names);
      const elsewhere = await signInAs(self.username, USER_PASSWORD, other);
      const before = await t.handle.db.$count(sessions, eq(sessions.userCode, self.userCode));
      const refused = await t.post('EndUserSessions', { userCode: self.userCode }, self.cookie);
      expect(expectEnvelope(refused, 403).message).toBe('End your own other sessions in My account');
      expect(await t.handle.db.$count(sessions, eq(sessions.userCode, self.userCode))).toBe(before);
      expect((await t.get('GetSession', elsewhere)).statusCode).toBe(200);
      // Listing one's own sessions changes nothing and stays open to a user manager.
      expect(
        expectEnvelope(await t.post('GetSessionsByUserCode', { userCode: self.userCode }, self.cookie), 200)
          .total,
      ).toBe(before);
    });
  }

  it('403 without UPDATE_USER, or for a user whose role holds more; 404 for no such user; 400 without a code', async () => {
    const viewer = await t.userWith(['VIEW_USERS']);
    const manager = await t.userWith(['UPDATE_USER']);
    const admin = await t.login();
    const adminCode = (expectEnvelope(await t.get('GetSession', admin)).data as { userCode: string })
      .userCode;
    expect(
      expectEnvelope(await t.post('EndUserSessions', { userCode: adminCode }, viewer.cookie), 403).message,
    ).toBe('You do not have permission to do this');
    expect(
      expectEnvelope(await t.post('EndUserSessions', { userCode: adminCode }, manager.cookie), 403).message,
    ).toBe('You cannot change a user whose role has permissions you do not hold');
    expect((await t.get('GetSession', admin)).statusCode).toBe(200);
    expect(
      expectEnvelope(await t.post('EndUserSessions', { userCode: 'USER-NONE' }, manager.cookie), 404).message,
    ).toBe('User not found');
    expect(
      fieldErrors(expectEnvelope(await t.post('GetSessionsByUserCode', {}, manager.cookie), 400)),
    ).toEqual({
      userCode: 'User code is required',
    });
    expect((await t.post('GetSessionsByUserCode', { userCode: adminCode })).statusCode).toBe(401);
    expect(ADMIN_PASSWORD).toBeTruthy();
  });
});
