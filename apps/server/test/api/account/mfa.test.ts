import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { throttleKeys } from '../../../src/auth/throttle.ts';
import {
  audits,
  loginThrottle,
  mfaChallenges,
  mfaRecoveryCodes,
  userMfa,
} from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope, expectOk } from '../../support/envelope.ts';
import { USER_PASSWORD } from '../../support/users.ts';
import { awayFromStepEdge, codeAt, cookieOf, enrol, passwordStep, verify } from './support.ts';

const t = sharedTestApp();

const fieldErrors = (body: { errors?: { field: string; message: string }[] }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
/** Lets the steps already used count as unused again, so a test can sign in more than once a step. */
const forgetUsedSteps = (userCode: string) =>
  t.handle.db.update(userMfa).set({ lastStep: null }).where(eq(userMfa.userCode, userCode));
const actions = async (userCode: string) =>
  (
    await t.handle.db
      .select({ action: audits.action, after: audits.after })
      .from(audits)
      .where(eq(audits.userCode, userCode))
      .orderBy(audits.id)
  ).map((a) => a.action);

describe('enrolment', () => {
  it('answers a secret and an otpauth address, stores the secret sealed, then 10 recovery codes, hashed', async () => {
    const user = await t.userWith([]);
    const start = await t.post('StartMfaEnrollment', { currentPassword: USER_PASSWORD }, user.cookie);
    const { secret, otpauthUrl } = expectEnvelope(start, 200).data as { secret: string; otpauthUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    const [row] = await t.handle.db.select().from(userMfa).where(eq(userMfa.userCode, user.userCode));
    expect(row?.secret).not.toContain(secret);
    expect(row?.enabledAt).toBeNull();
    expect(
      (expectEnvelope(await t.get('GetSession', user.cookie)).data as { mfaEnabled: boolean }).mfaEnabled,
    ).toBe(false);

    const wrong = await t.post('ConfirmMfaEnrollment', { code: '000000' }, user.cookie);
    expect(fieldErrors(expectEnvelope(wrong, 400))).toEqual({ code: 'This code is not valid' });
    await awayFromStepEdge();
    const confirm = await t.post('ConfirmMfaEnrollment', { code: codeAt(secret) }, user.cookie);
    const { recoveryCodes } = expectEnvelope(confirm, 200).data as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    const stored = await t.handle.db
      .select()
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userCode, user.userCode));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]!.replace('-', ''));
    expect(
      (expectEnvelope(await t.get('GetSession', user.cookie)).data as { mfaEnabled: boolean }).mfaEnabled,
    ).toBe(true);
    const audit = await t.handle.db.select().from(audits).where(eq(audits.userCode, user.userCode));
    const text = JSON.stringify(audit);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(recoveryCodes[0]!);
    expect(audit.map((a) => a.action)).toContain('MFA_ENABLED');
  });

  it('StartMfaEnrollment: 400 on a wrong password, 409 when already on, 401 without a session', async () => {
    const user = await t.userWith([]);
    const wrong = await t.post('StartMfaEnrollment', { currentPassword: 'not-my-password-1' }, user.cookie);
    expect(fieldErrors(expectEnvelope(wrong, 400))).toEqual({
      currentPassword: 'Current password is incorrect',
    });
    await enrol(t, user.cookie, USER_PASSWORD);
    const again = await t.post('StartMfaEnrollment', { currentPassword: USER_PASSWORD }, user.cookie);
    expect(expectEnvelope(again, 409).message).toMatch(/already on/);
    expect((await t.post('StartMfaEnrollment', { currentPassword: USER_PASSWORD })).statusCode).toBe(401);
  });

  it('ConfirmMfaEnrollment: 409 before a start, 400 on a malformed code', async () => {
    const user = await t.userWith([]);
    expect(
      expectEnvelope(await t.post('ConfirmMfaEnrollment', { code: '123456' }, user.cookie), 409).message,
    ).toBe('Start setting up two-factor sign-in first');
    expect(
      fieldErrors(expectEnvelope(await t.post('ConfirmMfaEnrollment', { code: '12ab' }, user.cookie), 400)),
    ).toEqual({
      code: 'Enter the 6-digit code from your authenticator app',
    });
  });
});

describe('signing in with two-factor', () => {
  it('the password alone gives no session; VerifyMfa then signs in as login does', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    const { res, challenge } = await passwordStep(t, user.username, USER_PASSWORD);
    expect(expectEnvelope(res, 200).data).toEqual({ mfaRequired: true });
    expect(cookieOf(res, 'sid')).toBeUndefined();
    expect(challenge).toBeDefined();
    expect(res.cookies.find((c) => c.name === 'wfc-mfa')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    // The pending step is no session.
    expect((await t.get('GetSession', challenge)).statusCode).toBe(401);

    await awayFromStepEdge();
    const done = await verify(t, challenge, { code: codeAt(secret) });
    const body = expectEnvelope(done, 200);
    expect(body.message).toBe('Logged in successfully');
    expect(body.data).toMatchObject({ userCode: user.userCode, username: user.username, mfaEnabled: true });
    const sid = cookieOf(done, 'sid');
    expect(done.cookies.find((c) => c.name === 'sid')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    expect((await t.get('GetSession', sid)).statusCode).toBe(200);
    // The pending step is spent.
    expect(await t.handle.db.$count(mfaChallenges, eq(mfaChallenges.userCode, user.userCode))).toBe(0);
    expect(expectEnvelope(await verify(t, challenge, { code: codeAt(secret) }), 401).message).toBe(
      'Your sign-in has expired; sign in again',
    );
    const logins = await t.handle.db
      .select({ after: audits.after })
      .from(audits)
      .where(sql`${audits.action} = 'LOGIN' and ${audits.userCode} = ${user.userCode}`);
    expect(logins.at(-1)?.after).toEqual({ username: user.username, method: 'two-factor' });
  });

  it('accepts the codes of one step either side, not two; a code once only, and no older one after it', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    const signInWith = async (code: string) => {
      const { challenge } = await passwordStep(t, user.username, USER_PASSWORD);
      return verify(t, challenge, { code });
    };
    await forgetUsedSteps(user.userCode);
    await awayFromStepEdge();
    expect((await signInWith(codeAt(secret, -2))).statusCode).toBe(400);
    expect((await signInWith(codeAt(secret, 2))).statusCode).toBe(400);
    expect((await signInWith(codeAt(secret, -1))).statusCode).toBe(200);
    // Replay: the same code again, then a code of the same step.
    expect(fieldErrors(expectEnvelope(await signInWith(codeAt(secret, -1)), 400))).toEqual({
      code: 'This code is not valid',
    });
    expect((await signInWith(codeAt(secret, 1))).statusCode).toBe(200);
    // Older than one accepted: refused even though inside the window.
    expect((await signInWith(codeAt(secret, 0))).statusCode).toBe(400);
  });

  it('a recovery code works once', async () => {
    const user = await t.userWith([]);
    const { recoveryCodes } = await enrol(t, user.cookie, USER_PASSWORD);
    const [first, second] = recoveryCodes as [string, string];
    const one = await passwordStep(t, user.username, USER_PASSWORD);
    const ok = await verify(t, one.challenge, { recoveryCode: first.toLowerCase() });
    expect(expectEnvelope(ok, 200).message).toBe('Logged in successfully with a recovery code');
    const two = await passwordStep(t, user.username, USER_PASSWORD);
    expect(fieldErrors(expectEnvelope(await verify(t, two.challenge, { recoveryCode: first }), 400))).toEqual(
      {
        recoveryCode: 'This recovery code is not valid or was used',
      },
    );
    expect((await verify(t, two.challenge, { recoveryCode: second })).statusCode).toBe(200);
    expect(await t.handle.db.$count(mfaRecoveryCodes, eq(mfaRecoveryCodes.userCode, user.userCode))).toBe(8);
  });

  it('the pending step expires after 5 minutes, and needs the browser that began it', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    const { challenge } = await passwordStep(t, user.username, USER_PASSWORD);
    const [row] = await t.handle.db
      .select()
      .from(mfaChallenges)
      .where(eq(mfaChallenges.userCode, user.userCode));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(299_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(301_000);
    expect(expectEnvelope(await verify(t, undefined, { code: codeAt(secret) }), 401).message).toBe(
      'Your sign-in has expired; sign in again',
    );
    await t.handle.db
      .update(mfaChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(mfaChallenges.userCode, user.userCode));
    expect(expectEnvelope(await verify(t, challenge, { code: codeAt(secret) }), 401).message).toBe(
      'Your sign-in has expired; sign in again',
    );
  });

  it('wrong codes are throttled like passwords: 429 with Retry-After, the right code too', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    const ip = '10.9.8.7';
    const { challenge } = await passwordStep(t, user.username, USER_PASSWORD, ip);
    for (let i = 0; i < 5; i++) {
      expect((await verify(t, challenge, { code: '000000' }, ip)).statusCode).toBe(400);
    }
    const refused = await verify(t, challenge, { code: codeAt(secret) }, ip);
    expect(expectEnvelope(refused, 429).message).toBe('Too many failed sign-in attempts; try again later');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await actions(user.userCode)).toContain('LOGIN_FAILED');
  });

  it('VerifyMfa: 400 with neither code', async () => {
    const res = await verify(t, undefined, {});
    expect(fieldErrors(expectEnvelope(res, 400))).toEqual({
      code: 'Enter the 6-digit code or a recovery code',
    });
  });
});

describe('turning two-factor off, and an administrator resetting it', () => {
  it('DisableMfa needs the password and a current code', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    await awayFromStepEdge();
    const noPassword = await t.post(
      'DisableMfa',
      { currentPassword: 'wrong-password-1', code: codeAt(secret) },
      user.cookie,
    );
    expect(fieldErrors(expectEnvelope(noPassword, 400))).toEqual({
      currentPassword: 'Current password is incorrect',
    });
    const noCode = await t.post(
      'DisableMfa',
      { currentPassword: USER_PASSWORD, code: '000000' },
      user.cookie,
    );
    expect(fieldErrors(expectEnvelope(noCode, 400))).toEqual({ code: 'This code is not valid' });
    expectOk(
      await t.post('DisableMfa', { currentPassword: USER_PASSWORD, code: codeAt(secret) }, user.cookie),
      'Two-factor sign-in is off',
    );
    expect(await t.handle.db.$count(userMfa, eq(userMfa.userCode, user.userCode))).toBe(0);
    expect(await t.handle.db.$count(mfaRecoveryCodes, eq(mfaRecoveryCodes.userCode, user.userCode))).toBe(0);
    expect(
      expectEnvelope(
        await t.post('DisableMfa', { currentPassword: USER_PASSWORD, code: '123456' }, user.cookie),
        409,
      ).message,
    ).toBe('Two-factor sign-in is not on');
    const { res } = await passwordStep(t, user.username, USER_PASSWORD);
    expect(cookieOf(res, 'sid')).toBeDefined();
    expect(await actions(user.userCode)).toContain('MFA_DISABLED');
  });

  it('ResetUserMfa (UPDATE_USER) removes it; 409 when there is none; 403 without the permission', async () => {
    const manager = await t.userWith(['UPDATE_USER']);
    const viewer = await t.userWith(['VIEW_USERS']);
    const user = await t.userWith([]);
    await enrol(t, user.cookie, USER_PASSWORD);
    expect((await t.post('ResetUserMfa', { userCode: user.userCode }, viewer.cookie)).statusCode).toBe(403);
    expect((await t.post('ResetUserMfa', { userCode: user.userCode })).statusCode).toBe(401);
    expectOk(
      await t.post('ResetUserMfa', { userCode: user.userCode }, manager.cookie),
      'Two-factor sign-in was reset',
    );
    expect(
      expectEnvelope(await t.post('ResetUserMfa', { userCode: user.userCode }, manager.cookie), 409).message,
    ).toBe('This user has not set up two-factor sign-in');
    const { res } = await passwordStep(t, user.username, USER_PASSWORD);
    expect(cookieOf(res, 'sid')).toBeDefined();
    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(sql`${audits.action} = 'MFA_RESET' and ${audits.recordCode} = ${user.userCode}`);
    expect(entry?.username).toBe(manager.username);
  });
});

describe("one's own second factor goes through My account", () => {
  const OWN_MFA =
    'Turn off your own two-factor sign-in in My account, which asks for your password and a code';

  for (const [who, names] of [
    ['a user manager', ['UPDATE_USER']],
    ['the Administrator', ALL_PERMISSION_NAMES],
  ] as const) {
    it(`ResetUserMfa on oneself: 403 for ${who}; two-factor stays on and the next sign-in asks a code`, async () => {
      const self = await t.userWith(names);
      await enrol(t, self.cookie, USER_PASSWORD);
      const refused = await t.post('ResetUserMfa', { userCode: self.userCode }, self.cookie);
      expect(expectEnvelope(refused, 403).message).toBe(OWN_MFA);
      expect(await t.handle.db.$count(userMfa, eq(userMfa.userCode, self.userCode))).toBe(1);
      expect(await t.handle.db.$count(mfaRecoveryCodes, eq(mfaRecoveryCodes.userCode, self.userCode))).toBe(
        10,
      );
      expect(await actions(self.userCode)).not.toContain('MFA_RESET');
      const { res, challenge } = await passwordStep(t, self.username, USER_PASSWORD);
      expect(expectEnvelope(res, 200).data).toEqual({ mfaRequired: true });
      expect(challenge).toBeDefined();
    });
  }
});

describe('every code check is throttled as sign-ins are', () => {
  const tooMany = 'Too many failed sign-in attempts; try again later';

  it('DisableMfa with the right password: wrong codes reach 429 with Retry-After, even the right code; two-factor stays on', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await t.post(
        'DisableMfa',
        { currentPassword: USER_PASSWORD, code: '000000' },
        user.cookie,
      );
      statuses.push(wrong.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    await awayFromStepEdge();
    const res = await t.post(
      'DisableMfa',
      { currentPassword: USER_PASSWORD, code: codeAt(secret) },
      user.cookie,
    );
    expect(expectEnvelope(res, 429).message).toBe(tooMany);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.handle.db.$count(userMfa, eq(userMfa.userCode, user.userCode))).toBe(1);
    expect(await actions(user.userCode)).not.toContain('MFA_DISABLED');
  });

  it('ConfirmMfaEnrollment: wrong codes reach 429 with Retry-After, even the right code; two-factor stays off', async () => {
    const user = await t.userWith([]);
    const start = await t.post('StartMfaEnrollment', { currentPassword: USER_PASSWORD }, user.cookie);
    const { secret } = expectEnvelope(start, 200).data as { secret: string };
    for (let i = 0; i < 5; i++) {
      const wrong = await t.post('ConfirmMfaEnrollment', { code: '000000' }, user.cookie);
      expect(fieldErrors(expectEnvelope(wrong, 400))).toEqual({ code: 'This code is not valid' });
    }
    await awayFromStepEdge();
    const res = await t.post('ConfirmMfaEnrollment', { code: codeAt(secret) }, user.cookie);
    expect(expectEnvelope(res, 429).message).toBe(tooMany);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const [row] = await t.handle.db.select().from(userMfa).where(eq(userMfa.userCode, user.userCode));
    expect(row?.enabledAt).toBeNull();
    expect(await t.handle.db.$count(mfaRecoveryCodes, eq(mfaRecoveryCodes.userCode, user.userCode))).toBe(0);
  });

  it('a right code after wrong ones starts the count afresh', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    await forgetUsedSteps(user.userCode);
    for (let i = 0; i < 4; i++) {
      await t.post('DisableMfa', { currentPassword: USER_PASSWORD, code: '000000' }, user.cookie);
    }
    await awayFromStepEdge();
    expectOk(
      await t.post('DisableMfa', { currentPassword: USER_PASSWORD, code: codeAt(secret) }, user.cookie),
      'Two-factor sign-in is off',
    );
    const [row] = await t.handle.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, throttleKeys(user.username, '127.0.0.1').accountAtAddress));
    expect(row?.attempts).toBe(0);
  });
});

describe('the password checks of enrolment and turning off are throttled as sign-ins are', () => {
  const tooMany = 'Too many failed sign-in attempts; try again later';

  it('StartMfaEnrollment: 429 with Retry-After once wrong passwords reach the limit, even the right one', async () => {
    const user = await t.userWith([]);
    for (let i = 0; i < 5; i++) {
      const wrong = await t.post(
        'StartMfaEnrollment',
        { currentPassword: `wrong-password-${i}` },
        user.cookie,
      );
      expect(wrong.statusCode).toBe(400);
    }
    const res = await t.post('StartMfaEnrollment', { currentPassword: USER_PASSWORD }, user.cookie);
    expect(expectEnvelope(res, 429).message).toBe(tooMany);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.handle.db.$count(userMfa, eq(userMfa.userCode, user.userCode))).toBe(0);
  });

  it('DisableMfa: 429 with Retry-After once wrong passwords reach the limit; two-factor stays on', async () => {
    const user = await t.userWith([]);
    const { secret } = await enrol(t, user.cookie, USER_PASSWORD);
    for (let i = 0; i < 5; i++) {
      await t.post(
        'DisableMfa',
        { currentPassword: `wrong-password-${i}`, code: codeAt(secret) },
        user.cookie,
      );
    }
    const res = await t.post(
      'DisableMfa',
      { currentPassword: USER_PASSWORD, code: codeAt(secret) },
      user.cookie,
    );
    expect(expectEnvelope(res, 429).message).toBe(tooMany);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.handle.db.$count(userMfa, eq(userMfa.userCode, user.userCode))).toBe(1);
  });
});

describe('a role that requires two-factor', () => {
  it('is a switch of CreateRole and UpdateRole, shown in role records; its users may only enrol until they have', async () => {
    const admin = await t.login();
    const created = await t.post(
      'CreateRole',
      { roleName: 'Strict role', rolePermissions: [], requireMfa: 'true' },
      admin,
    );
    const role = expectEnvelope(created, 200).data as {
      roleCode: string;
      requireMfa: boolean;
      version: number;
    };
    expect(role.requireMfa).toBe(true);
    const plain = await t.post('CreateRole', { roleName: 'Plain role', rolePermissions: [] }, admin);
    expect((expectEnvelope(plain, 200).data as { requireMfa: boolean }).requireMfa).toBe(false);
    // Left out of an update, the switch keeps its value.
    const renamed = await t.post(
      'UpdateRole',
      { roleCode: role.roleCode, roleName: 'Strict role 2', rolePermissions: [], version: role.version },
      admin,
    );
    expect((expectEnvelope(renamed, 200).data as { requireMfa: boolean }).requireMfa).toBe(true);

    const user = await t.userWith(['VIEW_GENDERS']);
    await t.handle.db.execute(sql`update roles set require_mfa = true where role_code = ${user.roleCode}`);
    const refused = await t.get('GetGenders', user.cookie);
    expect(expectEnvelope(refused, 403).message).toBe('Two-factor sign-in must be set up');
    expect((await t.get('GetMySessions', user.cookie)).statusCode).toBe(403);
    const session = expectEnvelope(await t.get('GetSession', user.cookie), 200).data as {
      mfaEnabled: boolean;
      role: { requireMfa: boolean };
    };
    expect(session).toMatchObject({ mfaEnabled: false, role: { requireMfa: true } });
    await enrol(t, user.cookie, USER_PASSWORD);
    expect((await t.get('GetGenders', user.cookie)).statusCode).toBe(200);
    // Required by the role: it cannot be turned off.
    const off = await t.post('DisableMfa', { currentPassword: USER_PASSWORD, code: '123456' }, user.cookie);
    expect(expectEnvelope(off, 409).message).toBe('Your role requires two-factor sign-in');
    const denied = await t.handle.db.$count(
      audits,
      sql`${audits.action} = 'ACCESS_DENIED' and ${audits.userCode} = ${user.userCode}`,
    );
    expect(denied).toBeGreaterThan(0);
  });
});

describe('a code check the server fails to answer', () => {
  const attemptsOn = async (key: string) =>
    Number(
      (
        (await t.handle.db.execute(
          sql`select coalesce(max(attempts), 0)::int as n from login_throttle where key = ${key}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]?.n,
    );

  it('is no failed attempt: its attempt is given back on every key, and the code still works after', async () => {
    const user = await t.userWith([]);
    const { recoveryCodes } = await enrol(t, user.cookie, USER_PASSWORD);
    const ip = '10.9.8.1';
    const { challenge } = await passwordStep(t, user.username, USER_PASSWORD, ip);
    const keys = throttleKeys(user.username, ip);
    const before = await Promise.all([keys.address, keys.accountAtAddress, keys.account].map(attemptsOn));
    // The recovery code cannot be looked up: the check fails after its attempt was counted.
    await t.handle.db.execute(sql`alter table mfa_recovery_codes rename to mfa_recovery_codes_away`);
    let res: Awaited<ReturnType<typeof verify>>;
    try {
      res = await verify(t, challenge, { recoveryCode: recoveryCodes[0] ?? '' }, ip);
    } finally {
      await t.handle.db.execute(sql`alter table mfa_recovery_codes_away rename to mfa_recovery_codes`);
    }
    expect(res.statusCode).toBe(500);
    expect(await Promise.all([keys.address, keys.accountAtAddress, keys.account].map(attemptsOn))).toEqual(
      before,
    );
    expect((await verify(t, challenge, { recoveryCode: recoveryCodes[0] ?? '' }, ip)).statusCode).toBe(200);
  });
});
