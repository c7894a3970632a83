import { createHash } from 'node:crypto';
import { API_TOKEN_MESSAGES, apiTokenRecordSchema, createdApiTokenSchema } from '@wfc/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { apiTokens, audits, genders } from '../../../src/db/schema/index.ts';
import { makeServices, watchChanges } from '../../../src/services.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope, expectError, expectOk } from '../../support/envelope.ts';
import { formEncode } from '../../support/requests.ts';

const t = sharedTestApp();
/**
 * A second instance on the same database, keeping token lookups as production does (its own
 * change watch), with a low rate limit: revocation must reach it at once, and its limit bites.
 */
let other: FastifyInstance;
let secondPool: DbHandle | undefined;
let stopOther: (() => Promise<void>) | undefined;
const OTHER_RATE = 4;

let admin: string;
beforeAll(async () => {
  admin = await t.login();
  const url = t.handle.url;
  secondPool = url ? await openDatabase({ dataDir: 'memory://', databaseUrl: url, poolSize: 3 }) : undefined;
  const watch = await watchChanges(secondPool ?? t.handle);
  stopOther = watch.stop;
  other = await buildApp(
    makeServices(
      (secondPool ?? t.handle).db,
      testConfig({ WEB_DIST: '/nonexistent/', API_TOKEN_RATE_PER_MINUTE: OTHER_RATE }),
      watch,
    ),
  );
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await stopOther?.();
  await secondPool?.close();
});

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A call as an integration makes it: the bearer token, no cookie, no origin. */
function call(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  options: { app?: FastifyInstance; remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return (options.app ?? t.app).inject({
    method,
    url: `/api/${path}`,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    ...(body ? { payload: formEncode(body) } : {}),
  });
}

/** A token with a role holding exactly these permissions, made by the administrator. */
async function tokenWith(
  permissionNames: readonly string[],
  extra: Record<string, unknown> = {},
): Promise<{ token: string; tokenCode: string; name: string; roleCode: string }> {
  const holder = await t.userWith(permissionNames, { signIn: 'session' });
  const name = `Integration ${holder.roleCode.slice(-6)}`;
  const res = await t.post(
    'CreateApiToken',
    { name, roleCode: holder.roleCode, expiresAt: inDays(30), ...extra },
    admin,
  );
  const body = expectOk(res, 'API token created: copy the secret now, it will not be shown again');
  return { token: body.data.token, tokenCode: body.data.tokenCode, name, roleCode: holder.roleCode };
}

describe('CreateApiToken', () => {
  it('answers the secret once, with the wfc_ prefix, and stores only its hash', async () => {
    const holder = await t.userWith(['VIEW_GENDERS'], { signIn: 'session' });
    const res = await t.post(
      'CreateApiToken',
      {
        name: '  Payroll export ',
        roleCode: holder.roleCode,
        expiresAt: inDays(90),
        allowedAddresses: ['127.0.0.1', '10.0.0.0/8'],
      },
      admin,
    );
    const body = expectOk(res, 'API token created: copy the secret now, it will not be shown again');
    const created = createdApiTokenSchema.parse(body.data);
    expect(created.token).toMatch(/^wfc_[A-Za-z0-9_-]{43}$/);
    expect(created.tokenCode).toMatch(/^APITOKEN-[0-9A-Z]{16}$/);
    expect(created).toMatchObject({
      name: 'Payroll export',
      role: { roleCode: holder.roleCode },
      tokenPrefix: created.token.slice(0, 10),
      allowedAddresses: ['127.0.0.1', '10.0.0.0/8'],
      status: 'active',
      lastUsedAt: null,
      revokedAt: null,
      createdBy: { username: 'admin' },
    });

    const [row] = await t.handle.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenCode, created.tokenCode));
    expect(row?.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.action, 'API_TOKEN_CREATED'), eq(audits.recordCode, created.tokenCode)));
    expect(entry).toMatchObject({ collection: 'api tokens', username: 'admin' });
    expect(JSON.stringify(entry)).not.toContain(created.token);
  });

  it('takes no expiry only when asked for explicitly', async () => {
    const holder = await t.userWith(['VIEW_GENDERS'], { signIn: 'session' });
    const none = await t.post('CreateApiToken', { name: 'Forever', roleCode: holder.roleCode }, admin);
    expect(expectEnvelope(none, 400).errors).toEqual([
      { field: 'expiresAt', message: API_TOKEN_MESSAGES.expiryRequired },
    ]);
    const forever = await t.post(
      'CreateApiToken',
      { name: 'Forever', roleCode: holder.roleCode, noExpiry: true },
      admin,
    );
    expect(
      expectOk(forever, 'API token created: copy the secret now, it will not be shown again').data.expiresAt,
    ).toBeNull();
  });

  it('400 for an expiry more than a year away or past, an unknown role, a bad address, no name', async () => {
    const holder = await t.userWith(['VIEW_GENDERS'], { signIn: 'session' });
    const fields = async (body: Record<string, unknown>) =>
      expectEnvelope(
        await t.post(
          'CreateApiToken',
          { name: 'X', roleCode: holder.roleCode, expiresAt: inDays(30), ...body },
          admin,
        ),
        400,
      ).errors;
    expect(await fields({ expiresAt: inDays(400) })).toEqual([
      { field: 'expiresAt', message: API_TOKEN_MESSAGES.expiryTooLate },
    ]);
    expect(await fields({ expiresAt: inDays(-1) })).toEqual([
      { field: 'expiresAt', message: API_TOKEN_MESSAGES.expiryPast },
    ]);
    expect(await fields({ roleCode: 'ROLE-NOSUCH' })).toEqual([
      { field: 'roleCode', message: 'No such role' },
    ]);
    expect((await fields({ allowedAddresses: ['example.com'] }))?.[0]?.field).toBe('allowedAddresses.0');
    expect((await fields({ name: ' ' }))?.[0]?.field).toBe('name');
    expect(await t.handle.db.select().from(apiTokens).where(eq(apiTokens.name, 'X'))).toEqual([]);
  });

  it('401 without a session, 403 without MANAGE_INTEGRATIONS', async () => {
    expectError(await t.post('CreateApiToken', { name: 'X' }), 401, 'Not signed in');
    const plain = await t.userWith(['VIEW_GENDERS']);
    expectError(
      await t.post('CreateApiToken', { name: 'X', roleCode: plain.roleCode, noExpiry: true }, plain.cookie),
      403,
      'You do not have permission to do this',
    );
  });

  it('403 for a role with a permission the creator lacks, or holds for fewer records (delegation)', async () => {
    const manager = await t.userWith(['MANAGE_INTEGRATIONS', 'VIEW_GENDERS']);
    const within = await t.userWith(['VIEW_GENDERS'], { signIn: 'session' });
    const beyond = await t.userWith(['VIEW_GENDERS', 'DELETE_GENDER'], { signIn: 'session' });
    expectError(
      await t.post(
        'CreateApiToken',
        { name: 'Too much', roleCode: beyond.roleCode, noExpiry: true },
        manager.cookie,
      ),
      403,
      'You cannot give a token a role with permissions you do not hold',
    );
    expect(await t.handle.db.select().from(apiTokens).where(eq(apiTokens.name, 'Too much'))).toEqual([]);
    // The form offers only what the manager may give, without needing to view roles.
    const offered = expectOk(await t.get('GetApiTokenRoles', manager.cookie), 'Roles fetched successfully');
    const codes = (offered.data as { roleCode: string }[]).map((r) => r.roleCode);
    expect(codes).toContain(within.roleCode);
    expect(codes).not.toContain(beyond.roleCode);
    expectOk(
      await t.post(
        'CreateApiToken',
        { name: 'Enough', roleCode: within.roleCode, noExpiry: true },
        manager.cookie,
      ),
      'API token created: copy the secret now, it will not be shown again',
    );
  });
});

describe('GetApiTokens', () => {
  it('lists every token with its status, never a secret or hash', async () => {
    const { token, tokenCode } = await tokenWith(['VIEW_GENDERS']);
    const body = expectOk(await t.get('GetApiTokens', admin), 'API tokens fetched successfully');
    const list = body.data.map((r: unknown) => apiTokenRecordSchema.parse(r));
    expect(body.total).toBe(list.length);
    expect(list.find((r: { tokenCode: string }) => r.tokenCode === tokenCode)).toMatchObject({
      status: 'active',
    });
    expect(JSON.stringify(body)).not.toContain(token);
    expect(JSON.stringify(body)).not.toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(body)).not.toMatch(/"token"|tokenHash/);
  });

  it('401 without a session, 403 without MANAGE_INTEGRATIONS', async () => {
    expectError(await t.get('GetApiTokens'), 401, 'Not signed in');
    const plain = await t.userWith(['VIEW_GENDERS']);
    expectError(await t.get('GetApiTokens', plain.cookie), 403, 'You do not have permission to do this');
  });
});

describe('a call with a token', () => {
  it('works without a cookie or origin check, within its role, and is audited under the integration', async () => {
    const { token, tokenCode, name } = await tokenWith(['VIEW_GENDERS', 'CREATE_GENDER']);
    expectOk(await call(token, 'GET', 'GetGenders'), 'Genders fetched successfully');
    // A foreign origin does not matter: the call carries no ambient credential to forge.
    const created = await call(
      token,
      'POST',
      'CreateGender',
      { genderName: 'Token gender' },
      {
        headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      },
    );
    const code = expectOk(created, 'Gender created successfully').data.genderCode as string;
    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.action, 'CREATE'), eq(audits.recordCode, code)));
    expect(entry).toMatchObject({ collection: 'genders', userCode: tokenCode, username: name });
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(await t.handle.db.select().from(genders).where(eq(genders.genderCode, code))).toHaveLength(1);
  });

  it('403 beyond its role', async () => {
    const { token } = await tokenWith(['VIEW_GENDERS']);
    expectError(
      await call(token, 'POST', 'CreateGender', { genderName: 'Nope' }),
      403,
      'You do not have permission to do this',
    );
  });

  it('403 for every account, session and token call, whatever its role', async () => {
    const { token } = await tokenWith([
      'MANAGE_INTEGRATIONS',
      'UPDATE_USER',
      'VIEW_USERS',
      'ERASE_PERSONAL_DATA',
    ]);
    for (const [method, path, body] of [
      ['GET', 'GetSession'],
      ['GET', 'logout'],
      ['GET', 'GetMySessions'],
      ['POST', 'ChangeMyPassword', { currentPassword: 'x', newPassword: 'y-password-123' }],
      ['POST', 'StartMfaEnrollment', { currentPassword: 'x' }],
      ['POST', 'EndMyOtherSessions', {}],
      ['POST', 'EndUserSessions', { userCode: 'USER-X' }],
      ['POST', 'ResetUserMfa', { userCode: 'USER-X' }],
      ['GET', 'GetApiTokens'],
      ['POST', 'CreateApiToken', { name: 'Child', noExpiry: true }],
      ['POST', 'RevokeApiToken', { tokenCode: 'APITOKEN-X' }],
    ] as const) {
      expectError(await call(token, method, path, body), 403, API_TOKEN_MESSAGES.sessionOnly);
    }
  });

  it('401 for an unknown, revoked or expired token; 400 with a cookie too', async () => {
    expectError(await call('wfc_not-a-real-token', 'GET', 'GetGenders'), 401, API_TOKEN_MESSAGES.invalid);
    expectError(await call('something-else', 'GET', 'GetGenders'), 401, API_TOKEN_MESSAGES.invalid);

    const expiring = await tokenWith(['VIEW_GENDERS']);
    expectOk(await call(expiring.token, 'GET', 'GetGenders'), 'Genders fetched successfully');
    await t.handle.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.tokenCode, expiring.tokenCode));
    await t.settle();
    expectError(await call(expiring.token, 'GET', 'GetGenders'), 401, API_TOKEN_MESSAGES.invalid);
    const listed = (await t.get('GetApiTokens', admin)).json().data as {
      tokenCode: string;
      status: string;
    }[];
    expect(listed.find((r) => r.tokenCode === expiring.tokenCode)?.status).toBe('expired');

    const { token } = await tokenWith(['VIEW_GENDERS', 'CREATE_GENDER']);
    expectError(
      await call(token, 'GET', 'GetGenders', undefined, { headers: { cookie: admin } }),
      400,
      API_TOKEN_MESSAGES.both,
    );
    // With a cookie the call is a browser's: the origin check applies before anything else.
    expectError(
      await call(
        token,
        'POST',
        'CreateGender',
        { genderName: 'Forged' },
        {
          headers: { cookie: admin, origin: 'https://elsewhere.example' },
        },
      ),
      403,
      'Cross-site request refused',
    );
  });

  it('403 from an address outside its list, as the app reads the client address', async () => {
    const { token } = await tokenWith(['VIEW_GENDERS'], {
      allowedAddresses: ['10.0.0.0/8', '2001:db8::/32'],
    });
    expectError(await call(token, 'GET', 'GetGenders'), 403, API_TOKEN_MESSAGES.address);
    expectOk(
      await call(token, 'GET', 'GetGenders', undefined, { remoteAddress: '10.20.30.40' }),
      'Genders fetched successfully',
    );
    expectOk(
      await call(token, 'GET', 'GetGenders', undefined, { remoteAddress: '2001:db8::7' }),
      'Genders fetched successfully',
    );
    // TRUST_PROXY is unset here: a forged X-Forwarded-For is not believed.
    expectError(
      await call(token, 'GET', 'GetGenders', undefined, { headers: { 'x-forwarded-for': '10.1.1.1' } }),
      403,
      API_TOKEN_MESSAGES.address,
    );
  });

  it('records its last use, at most once a minute', async () => {
    const { token, tokenCode } = await tokenWith(['VIEW_GENDERS']);
    const lastUsed = async () =>
      (await t.handle.db.select().from(apiTokens).where(eq(apiTokens.tokenCode, tokenCode)))[0]?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await call(token, 'GET', 'GetGenders');
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await call(token, 'GET', 'GetGenders');
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
    const listed = (await t.get('GetApiTokens', admin)).json().data as {
      tokenCode: string;
      lastUsedAt: string;
    }[];
    expect(listed.find((r) => r.tokenCode === tokenCode)?.lastUsedAt).toBe(first?.toISOString());
  });

  it('429 with Retry-After beyond the per-token rate, other tokens unaffected', async () => {
    const busy = await tokenWith(['VIEW_GENDERS']);
    const calm = await tokenWith(['VIEW_GENDERS']);
    for (let i = 0; i < OTHER_RATE; i++) {
      expect((await call(busy.token, 'GET', 'GetGenders', undefined, { app: other })).statusCode).toBe(200);
    }
    const refused = await call(busy.token, 'GET', 'GetGenders', undefined, { app: other });
    expectError(refused, 429, API_TOKEN_MESSAGES.rateLimited);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await call(calm.token, 'GET', 'GetGenders', undefined, { app: other })).statusCode).toBe(200);
  });
});

describe('RevokeApiToken', () => {
  it('ends the token at once on every instance, keeps it listed as revoked, and audits it', async () => {
    const { token, tokenCode } = await tokenWith(['VIEW_GENDERS']);
    // Both instances now keep the token's lookup.
    expect((await call(token, 'GET', 'GetGenders')).statusCode).toBe(200);
    expect((await call(token, 'GET', 'GetGenders', undefined, { app: other })).statusCode).toBe(200);
    const res = await t.post('RevokeApiToken', { tokenCode }, admin);
    const record = apiTokenRecordSchema.parse(expectOk(res, 'API token revoked').data);
    expect(record).toMatchObject({ tokenCode, status: 'revoked' });
    expectError(await call(token, 'GET', 'GetGenders'), 401, API_TOKEN_MESSAGES.invalid);
    // The other instance hears of the change through the database's notification.
    await expect
      .poll(async () => (await call(token, 'GET', 'GetGenders', undefined, { app: other })).statusCode, {
        timeout: 2000,
      })
      .toBe(401);
    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.action, 'API_TOKEN_REVOKED'), eq(audits.recordCode, tokenCode)));
    expect(entry).toMatchObject({ username: 'admin', collection: 'api tokens' });
    expectError(
      await t.post('RevokeApiToken', { tokenCode }, admin),
      409,
      'The API token was already revoked',
    );
  });

  it('400 without a code, 404 for an unknown one, 401 without a session, 403 without the permission', async () => {
    expect(expectEnvelope(await t.post('RevokeApiToken', {}, admin), 400).errors?.[0]?.field).toBe(
      'tokenCode',
    );
    expectError(
      await t.post('RevokeApiToken', { tokenCode: 'APITOKEN-NOSUCH' }, admin),
      404,
      'API token not found',
    );
    expectError(await t.post('RevokeApiToken', { tokenCode: 'APITOKEN-X' }), 401, 'Not signed in');
    const plain = await t.userWith(['VIEW_GENDERS']);
    expectError(
      await t.post('RevokeApiToken', { tokenCode: 'APITOKEN-X' }, plain.cookie),
      403,
      'You do not have permission to do this',
    );
  });

  it('a role still used by a token cannot be deleted', async () => {
    const { roleCode } = await tokenWith(['VIEW_GENDERS']);
    const res = await t.post('DeleteRole', { roleCode }, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/API token/);
  });
});
