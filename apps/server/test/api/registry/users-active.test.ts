import { API_TOKEN_MESSAGES, DISABLED_USER_MESSAGE, USER_ACTIVE_MESSAGES } from '@wfc/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  audits,
  permissions,
  rolePermissions,
  sessions,
  userMfa,
  users,
} from '../../../src/db/schema/index.ts';
import { createTestApp, sharedTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type ProviderAccount,
  startProvider,
  type TestProvider,
  throughProvider,
} from '../../support/oidc.ts';
import { formEncode } from '../../support/requests.ts';
import { USER_PASSWORD } from '../../support/users.ts';
import { awayFromStepEdge, codeAt, cookieOf, enrol, passwordStep, verify } from '../account/support.ts';
import { type Json, lastAudit } from './support.ts';

const t = sharedTestApp();
let admin: string;
let adminCode: string;

beforeAll(async () => {
  admin = await t.login();
  const [row] = await t.handle.db.select().from(users).where(eq(users.username, 'admin'));
  adminCode = row!.userCode;
});

const stored = async (userCode: string) =>
  (await t.handle.db.select().from(users).where(eq(users.userCode, userCode)))[0]!;

const sessionCount = (userCode: string) => t.handle.db.$count(sessions, eq(sessions.userCode, userCode));

/** UpdateUser with the user's own fields and `changes` on top, as the edit form sends it. */
async function updateUser(userCode: string, changes: Json, cookie = admin) {
  const user = await stored(userCode);
  return t.post(
    'UpdateUser',
    { userCode, username: user.username, email: user.email, roleCode: user.roleCode, ...changes },
    cookie,
  );
}

const signIn = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: formEncode({ username, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

describe('disabling a user', () => {
  it('ends their sessions at once, refuses their password with 403 and says nothing to a wrong one', async () => {
    const user = await t.userWith(['VIEW_GENDERS']);
    const second = await t.login(user.username, USER_PASSWORD);
    expect(await sessionCount(user.userCode)).toBe(2);
    expect((await t.get('GetGenders', user.cookie)).statusCode).toBe(200);

    const res = await updateUser(user.userCode, { active: false });
    const body = expectOk(res, 'User updated successfully');
    expect(body.data).toMatchObject({ userCode: user.userCode, active: false });
    expect((await stored(user.userCode)).active).toBe(false);
    expect(await sessionCount(user.userCode)).toBe(0);
    for (const cookie of [user.cookie, second]) {
      expectError(await t.get('GetSession', cookie), 401, 'Not signed in');
      expectError(await t.get('GetGenders', cookie), 401, 'Not signed in');
    }

    expectError(await signIn(user.username, USER_PASSWORD), 403, DISABLED_USER_MESSAGE);
    // Whoever does not know the password learns nothing: the usual refusal.
    expectError(await signIn(user.username, 'wrong-password-1'), 401, 'Invalid username or password');
    expect(await sessionCount(user.userCode)).toBe(0);
    const refusals = await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(and(eq(audits.action, 'LOGIN_FAILED'), eq(audits.userCode, user.userCode)));
    expect(refusals.map((r) => (r.after as Json).reason)).toEqual(['disabled', undefined]);

    // Lists and views say so.
    const listed = expectOk(
      await t.get('GetUsers', admin, { keyword: user.username }),
      'Users fetched successfully',
    );
    expect(listed.data).toEqual([expect.objectContaining({ userCode: user.userCode, active: false })]);

    const enabled = expectOk(await updateUser(user.userCode, { active: true }), 'User updated successfully');
    expect(enabled.data).toMatchObject({ active: true });
    const cookie = await t.login(user.username, USER_PASSWORD);
    expect((await t.get('GetGenders', cookie)).statusCode).toBe(200);
  });

  it('is audited as an update from active to disabled, with a new version', async () => {
    const user = await t.userWith([], { signIn: 'none' });
    const before = await stored(user.userCode);
    expectOk(
      await updateUser(user.userCode, { active: 'false', version: before.version }),
      'User updated successfully',
    );
    const audit = await lastAudit(t, 'users');
    expect(audit).toMatchObject({ action: 'UPDATE', recordCode: user.userCode, username: 'admin' });
    expect(audit.changes).toEqual(expect.objectContaining({ active: { old: true, new: false } }));
    expect((await stored(user.userCode)).version).toBe(before.version + 1);
  });

  it('leaves the user as it is when the update does not name the switch', async () => {
    const user = await t.userWith([], { signIn: 'none' });
    await updateUser(user.userCode, { active: false });
    expectOk(
      await updateUser(user.userCode, { email: `${user.username}@elsewhere.example` }),
      'User updated successfully',
    );
    expect(await stored(user.userCode)).toMatchObject({
      active: false,
      email: `${user.username}@elsewhere.example`,
    });
  });

  it('refuses a second factor given after the user was disabled', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await t.handle.db.update(userMfa).set({ lastStep: null }).where(eq(userMfa.userCode, user.userCode));
    const { challenge } = await passwordStep(t, user.username, USER_PASSWORD);
    expect(challenge).toBeDefined();
    expectOk(await updateUser(user.userCode, { active: false }), 'User updated successfully');
    await awayFromStepEdge();
    expectError(await verify(t, challenge, { code: codeAt(secret) }), 403, DISABLED_USER_MESSAGE);
    expect(await sessionCount(user.userCode)).toBe(0);
    // Disabled before the password step: refused there, with no second step opened.
    const again = await passwordStep(t, user.username, USER_PASSWORD);
    expectError(again.res, 403, DISABLED_USER_MESSAGE);
    expect(again.challenge).toBeUndefined();
  });

  it('refuses a session row that slipped through', async () => {
    const user = await t.userWith([]);
    // Behind the hooks' back: as if the session were made while the user was being disabled.
    await t.handle.db.update(users).set({ active: false }).where(eq(users.userCode, user.userCode));
    await t.settle();
    expect(await sessionCount(user.userCode)).toBe(1);
    expectError(await t.get('GetSession', user.cookie), 401, 'Not signed in');
  });
});

describe('who may disable', () => {
  it('nobody disables their own user, the Administrator neither', async () => {
    const res = await updateUser(adminCode, { active: false });
    expectError(res, 403, USER_ACTIVE_MESSAGES.self);
    expect((await stored(adminCode)).active).toBe(true);
    const manager = await t.userWith(['VIEW_USERS', 'UPDATE_USER']);
    expectError(
      await updateUser(manager.userCode, { active: false }, manager.cookie),
      403,
      USER_ACTIVE_MESSAGES.self,
    );
    expect(await sessionCount(manager.userCode)).toBe(1);
    // Keeping oneself active is no change, and allowed.
    expectOk(await updateUser(adminCode, { active: true }), 'User updated successfully');
  });

  it('401 without a session, 403 without UPDATE_USER or beyond the delegation rules', async () => {
    const target = await t.userWith(['VIEW_GENDERS'], { signIn: 'none' });
    expectError(await updateUser(target.userCode, { active: false }, ''), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_USERS']);
    expectError(
      await updateUser(target.userCode, { active: false }, viewer.cookie),
      403,
      'You do not have permission to do this',
    );
    // A user manager without VIEW_GENDERS cannot touch a user whose role has it.
    const manager = await t.userWith(['VIEW_USERS', 'UPDATE_USER']);
    expectError(
      await updateUser(target.userCode, { active: false }, manager.cookie),
      403,
      'You cannot change a user whose role has permissions you do not hold',
    );
    expect((await stored(target.userCode)).active).toBe(true);
    // Within reach, the same manager may.
    const plain = await t.userWith([], { signIn: 'none' });
    expectOk(
      await updateUser(plain.userCode, { active: false }, manager.cookie),
      'User updated successfully',
    );
    expect((await stored(plain.userCode)).active).toBe(false);
  });

  it('400 for an active that is no switch', async () => {
    const user = await t.userWith([], { signIn: 'none' });
    for (const active of ['yes', 'maybe']) {
      const res = expectError(await updateUser(user.userCode, { active }), 400, 'Invalid input');
      expect(res.errors?.map((e: { field: string }) => e.field)).toEqual(['active']);
    }
    const json = await t.postJson(
      'UpdateUser',
      { ...(await stored(user.userCode)), password: undefined, active: 3 },
      admin,
    );
    expect(json.statusCode).toBe(400);
    expect((await stored(user.userCode)).active).toBe(true);
  });

  it('409 for a stale version, changing nothing', async () => {
    const user = await t.userWith([]);
    const { version } = await stored(user.userCode);
    expectOk(
      await updateUser(user.userCode, { email: `${user.username}@new.example`, version }),
      'User updated successfully',
    );
    const res = await updateUser(user.userCode, { active: false, version });
    expect(res.statusCode).toBe(409);
    expect((await stored(user.userCode)).active).toBe(true);
    expect(await sessionCount(user.userCode)).toBe(1);
  });

  it('refuses to disable the last active user who can manage roles', async () => {
    // Only a caller who is no user can try: whoever else may disable a role manager manages roles
    // too, and stays. Here an API token made by that manager, acting on its maker.
    const manager = await t.userWith([
      'VIEW_USERS',
      'UPDATE_USER',
      'VIEW_ROLES',
      'UPDATE_ROLE',
      'MANAGE_INTEGRATIONS',
    ]);
    const created = await t.post(
      'CreateApiToken',
      { name: `Provisioning ${manager.userCode.slice(-6)}`, roleCode: manager.roleCode, noExpiry: true },
      manager.cookie,
    );
    const { token } = created.json().data as { token: string };
    const disableManager = async () => {
      const user = await stored(manager.userCode);
      return t.app.inject({
        method: 'POST',
        url: '/api/UpdateUser',
        payload: formEncode({
          userCode: user.userCode,
          username: user.username,
          email: user.email,
          roleCode: user.roleCode,
          active: false,
        }),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
    };
    // Every other active user who can manage roles is set aside for the test, then put back.
    const others = await t.handle.db
      .select({ userCode: users.userCode })
      .from(users)
      .innerJoin(rolePermissions, eq(rolePermissions.roleCode, users.roleCode))
      .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
      .where(and(eq(permissions.permissionName, 'UPDATE_ROLE'), eq(users.active, true)));
    const parked = others.map((o) => o.userCode).filter((c) => c !== manager.userCode);
    expect(parked).toContain(adminCode);
    const setActive = async (codes: string[], active: boolean) => {
      if (codes.length) await t.handle.db.update(users).set({ active }).where(inArray(users.userCode, codes));
      await t.settle();
    };
    await setActive(parked, false);
    try {
      expectError(await disableManager(), 409, 'This change would leave no user who can manage roles');
      expect((await stored(manager.userCode)).active).toBe(true);
      expect(await sessionCount(manager.userCode)).toBe(1);
    } finally {
      await setActive(parked, true);
    }
    // With another active role manager, the same change passes (and the token then stops working).
    expect((await disableManager()).statusCode).toBe(200);
    expect(await sessionCount(manager.userCode)).toBe(0);
    expectError(await disableManager(), 403, API_TOKEN_MESSAGES.creatorDisabled);
  });
});

describe('API tokens of a disabled user', () => {
  it('stop working while their creator is disabled, and work again once enabled', async () => {
    const creator = await t.userWith(['MANAGE_INTEGRATIONS', 'VIEW_GENDERS']);
    const created = await t.post(
      'CreateApiToken',
      { name: `Sync ${creator.userCode.slice(-6)}`, roleCode: creator.roleCode, noExpiry: true },
      creator.cookie,
    );
    const { token } = expectOk(created, created.json().message).data as { token: string };
    const call = () =>
      t.app.inject({ method: 'GET', url: '/api/GetGenders', headers: { authorization: `Bearer ${token}` } });
    expect((await call()).statusCode).toBe(200);

    expectOk(await updateUser(creator.userCode, { active: false }), 'User updated successfully');
    expectError(await call(), 403, API_TOKEN_MESSAGES.creatorDisabled);

    expectOk(await updateUser(creator.userCode, { active: true }), 'User updated successfully');
    expect((await call()).statusCode).toBe(200);
  });
});

describe('selectors and lists', () => {
  it('say which users are disabled, and sort by it', async () => {
    const user = await t.userWith([], { signIn: 'none' });
    await updateUser(user.userCode, { active: false });
    const res = expectOk(
      await t.get('GetUsers', admin, { sortField: 'active', sortValue: 'asc', limit: 1 }),
      'Users fetched successfully',
    );
    expect(res.data).toEqual([expect.objectContaining({ active: false })]);
  });
});

describe('single sign-on of a disabled user', () => {
  const REDIRECT_URI = 'http://console.test/api/oidc/callback';
  let provider: TestProvider;
  let sso: TestApp;
  beforeAll(async () => {
    provider = await startProvider(REDIRECT_URI);
    sso = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_REDIRECT_URI: REDIRECT_URI,
    });
  });
  afterAll(async () => {
    await sso?.close();
    await provider?.close();
  });

  async function throughProviderAs(account: ProviderAccount) {
    provider.signInAs = account;
    const start = await sso.app.inject({ method: 'GET', url: '/api/oidc/login' });
    const back = await throughProvider(String(start.headers.location), REDIRECT_URI);
    return sso.app.inject({
      method: 'GET',
      url: `/api/oidc/callback${back.search}`,
      headers: { cookie: cookieOf(start, 'wfc-oidc') ?? '' },
    });
  }

  it('goes back to the sign-in page saying so, with no session, once the provider vouched for the account', async () => {
    const user = await sso.userWith([], { signIn: 'none', username: 'sso.leaver' });
    const account = { sub: 'subject-leaver', username: 'sso.leaver' };
    const first = await throughProviderAs(account);
    expect(first.headers.location).toBe('/login?sso=signed-in&next=%2F');
    expect(await sso.handle.db.$count(sessions, eq(sessions.userCode, user.userCode))).toBe(1);

    const ssoAdmin = await sso.login();
    const row = (await sso.handle.db.select().from(users).where(eq(users.userCode, user.userCode)))[0]!;
    const off = await sso.post(
      'UpdateUser',
      {
        userCode: row.userCode,
        username: row.username,
        email: row.email,
        roleCode: row.roleCode,
        active: false,
      },
      ssoAdmin,
    );
    expectOk(off, 'User updated successfully');
    expect(await sso.handle.db.$count(sessions, eq(sessions.userCode, user.userCode))).toBe(0);

    const again = await throughProviderAs(account);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/login?sso=disabled');
    expect(cookieOf(again, 'sid')).toBeUndefined();
    expect(await sso.handle.db.$count(sessions, eq(sessions.userCode, user.userCode))).toBe(0);
    const [failure] = await sso.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(eq(audits.action, 'SSO_FAILED'))
      .orderBy(desc(audits.id))
      .limit(1);
    expect(failure?.after).toMatchObject({ reason: 'the user is disabled', username: 'sso.leaver' });
  });
});
