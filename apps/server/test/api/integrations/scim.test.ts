import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScimFlow } from '../../../scripts/scim-client.ts';
import { audits, rolePermissions, roles, sessions, users } from '../../../src/db/schema/index.ts';
import { PROVISIONED_ROLE } from '../../../src/scim/provisioning.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectOk } from '../../support/envelope.ts';
import { formEncode } from '../../support/requests.ts';
import {
  listResponseSchema,
  SCIM,
  scimErrorSchema,
  scimGroupSchema,
  scimUserSchema,
} from '../../support/scim-schemas.ts';

const t = sharedTestApp();

/** What a user manager's integration holds: users and roles, and the users' emails. */
const PROVISIONING = [
  'VIEW_USERS',
  'CREATE_USER',
  'UPDATE_USER',
  'DELETE_USER',
  'VIEW_ROLES',
  'CREATE_ROLE',
  'UPDATE_ROLE',
  'DELETE_ROLE',
  'VIEW_PERSONAL_DATA',
];
const PASSWORD = 'scim-password-1';

let admin: string;
let base: string;
let provisioner: { token: string; name: string };

/** A token made through CreateApiToken by the administrator, with a role holding these permissions. */
async function tokenWith(permissionNames: readonly string[]) {
  const holder = await t.userWith(permissionNames, { signIn: 'none' });
  const name = `Identity provider ${holder.roleCode.slice(-6)}`;
  const res = await t.post(
    'CreateApiToken',
    { name, roleCode: holder.roleCode, expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    admin,
  );
  const body = expectOk(res, 'API token created: copy the secret now, it will not be shown again');
  return { token: String(body.data.token), name };
}

beforeAll(async () => {
  admin = await t.login();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `${address}/scim/v2`;
  provisioner = await tokenWith(PROVISIONING);
});

/** A SCIM call as the identity provider makes it: the bearer token, SCIM's media type. */
function scim(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  token: string | null = provisioner.token,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** A SCIM error answer: its status, as a string too, and its `scimType`. */
function expectScimError(res: LightMyRequestResponse, status: number, scimType?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  const error = scimErrorSchema.parse(res.json());
  expect(error.status).toBe(String(status));
  expect(error.scimType).toBe(scimType);
  return error;
}

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [SCIM.user],
  userName,
  emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }],
  ...extra,
});

const login = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: formEncode({ username, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

async function sessionsOf(userCode: string) {
  const [row] = await t.handle.db
    .select({ n: count() })
    .from(sessions)
    .where(eq(sessions.userCode, userCode));
  return Number(row?.n ?? 0);
}

describe('the flow an identity provider runs (scripts/scim-client.ts over HTTP)', () => {
  it('creates, finds, disables, enables, groups and deletes a user; every answer validates', async () => {
    const userName = 'scim.flow-user';
    const seen: string[] = [];
    const result = await runScimFlow(base, provisioner.token, {
      userName,
      password: PASSWORD,
      async after(step, user) {
        seen.push(step);
        const [stored] = await t.handle.db.select().from(users).where(eq(users.userCode, user.id));
        if (step === 'created') {
          expect(stored).toMatchObject({ username: userName, active: true, externalId: user.externalId });
          // No group named and no SCIM_DEFAULT_ROLE: the built-in role without permissions.
          const [role] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, stored!.roleCode));
          expect(role?.roleName).toBe(PROVISIONED_ROLE);
          const held = await t.handle.db
            .select()
            .from(rolePermissions)
            .where(eq(rolePermissions.roleCode, stored!.roleCode));
          expect(held).toEqual([]);
          // The password sent is honoured: the user signs in with it.
          expect((await login(userName, PASSWORD)).statusCode).toBe(200);
          expect(await sessionsOf(user.id)).toBe(1);
          // Written through the user definition: audited under the integration's name.
          const [entry] = await t.handle.db
            .select()
            .from(audits)
            .where(and(eq(audits.recordCode, user.id), eq(audits.action, 'CREATE')));
          expect(entry?.username).toBe(provisioner.name);
        }
        if (step === 'disabled') {
          expect(stored?.active).toBe(false);
          expect(await sessionsOf(user.id)).toBe(0);
        }
        if (step === 'enabled') {
          expect(stored?.active).toBe(true);
          expect((await login(userName, PASSWORD)).statusCode).toBe(200);
        }
        if (step === 'joined') expect(stored?.roleCode).toBe(user.groups?.[0]?.value);
      },
    });
    expect(seen).toEqual(['created', 'disabled', 'enabled', 'joined', 'left']);
    // Deleted through the console's own delete: gone from GetUsers.
    const listed = expectOk(
      await t.get('GetUsers', admin, { keyword: userName }),
      'Users fetched successfully',
    );
    expect(listed.data).toEqual([]);
    expect(result.user.userName).toBe(userName);
  });

  it('a disabled user cannot sign in with the password (403), and can again once enabled', async () => {
    const created = scimUserSchema.parse(
      (await scim('POST', '/Users', newUser('scim.disabled', { password: PASSWORD }))).json(),
    );
    const disabled = await scim('PATCH', `/Users/${created.id}`, {
      schemas: [SCIM.patchOp],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(scimUserSchema.parse(disabled.json()).active).toBe(false);
    const refused = await login('scim.disabled', PASSWORD);
    expect(refused.statusCode, refused.body).toBe(403);
    await scim('PATCH', `/Users/${created.id}`, {
      schemas: [SCIM.patchOp],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect((await login('scim.disabled', PASSWORD)).statusCode).toBe(200);
  });
});

describe('Users', () => {
  it('gives a new user the role of the first group the request names', async () => {
    const group = scimGroupSchema.parse(
      (await scim('POST', '/Groups', { schemas: [SCIM.group], displayName: 'SCIM first group' })).json(),
    );
    const res = await scim('POST', '/Users', newUser('scim.grouped', { groups: [{ value: group.id }] }));
    expect(res.statusCode, res.body).toBe(201);
    const user = scimUserSchema.parse(res.json());
    expect(user.groups).toEqual([
      {
        value: group.id,
        display: 'SCIM first group',
        $ref: `http://localhost:80/scim/v2/Groups/${group.id}`,
        type: 'direct',
      },
    ]);
    expect(res.headers.location).toBe(user.meta.location);
    expect(res.headers.etag).toBe(user.meta.version);
  });

  it('pages a list with startIndex and count', async () => {
    for (const n of [1, 2, 3]) await scim('POST', '/Users', newUser(`scim.page${n}`));
    const filter = encodeURIComponent('userName sw "scim.page"');
    const page = listResponseSchema(scimUserSchema).parse(
      (await scim('GET', `/Users?filter=${filter}&startIndex=2&count=1`)).json(),
    );
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.Resources?.map((u) => u.userName)).toEqual(['scim.page2']);
    const counted = listResponseSchema(scimUserSchema).parse(
      (await scim('GET', `/Users?filter=${filter}&count=0`)).json(),
    );
    expect(counted.totalResults).toBe(3);
    expect(counted.Resources ?? []).toEqual([]);
  });

  it('without a password, the user has one nobody knows: the password sign-in fails', async () => {
    await scim('POST', '/Users', newUser('scim.sso-only'));
    const [stored] = await t.handle.db.select().from(users).where(eq(users.username, 'scim.sso-only'));
    expect(stored?.passwordHash).toMatch(/^\$argon2/);
    expect((await login('scim.sso-only', '')).statusCode).not.toBe(200);
  });

  it('PUT replaces the kept attributes, keeping the role', async () => {
    const created = scimUserSchema.parse((await scim('POST', '/Users', newUser('scim.put'))).json());
    const res = await scim(
      'PUT',
      `/Users/${created.id}`,
      newUser('scim.put-renamed', { externalId: 'idp-put', active: true }),
    );
    const replaced = scimUserSchema.parse(res.json());
    expect(replaced).toMatchObject({ userName: 'scim.put-renamed', externalId: 'idp-put' });
    expect(replaced.groups).toEqual(created.groups);
    expect(replaced.meta.version).not.toBe(created.meta.version);
  });

  it('PATCH replaces userName and externalId, removes externalId, and honours If-Match', async () => {
    const user = scimUserSchema.parse((await scim('POST', '/Users', newUser('scim.patched'))).json());
    const patch = (operations: unknown[], headers: Record<string, string> = {}) =>
      scim(
        'PATCH',
        `/Users/${user.id}`,
        { schemas: [SCIM.patchOp], Operations: operations },
        undefined,
        headers,
      );
    const renamed = scimUserSchema.parse(
      (
        await patch([
          { op: 'replace', path: 'userName', value: 'scim.patched-renamed' },
          { op: 'add', path: 'externalId', value: 'idp-patched' },
        ])
      ).json(),
    );
    expect(renamed).toMatchObject({ userName: 'scim.patched-renamed', externalId: 'idp-patched' });
    const [stored] = await t.handle.db.select().from(users).where(eq(users.userCode, user.id));
    expect(stored).toMatchObject({ username: 'scim.patched-renamed', externalId: 'idp-patched' });
    const removed = scimUserSchema.parse((await patch([{ op: 'remove', path: 'externalId' }])).json());
    expect(removed.externalId).toBeUndefined();
    // Based on the first version, two changes ago: refused, nothing written.
    const stale = await patch([{ op: 'replace', path: 'userName', value: 'scim.stale' }], {
      'if-match': user.meta.version,
    });
    expectScimError(stale, 412);
    const current = await patch([{ op: 'replace', path: 'active', value: false }], {
      'if-match': removed.meta.version,
    });
    expect(scimUserSchema.parse(current.json())).toMatchObject({
      userName: 'scim.patched-renamed',
      active: false,
    });
  });

  it('refuses a taken userName with 409 uniqueness', async () => {
    expectScimError(await scim('POST', '/Users', newUser('ADMIN')), 409, 'uniqueness');
  });

  it('refuses a userName the console does not allow, and a password its rules refuse, with 400 invalidValue', async () => {
    const at = expectScimError(
      await scim('POST', '/Users', newUser('jane@example.com')),
      400,
      'invalidValue',
    );
    expect(at.detail).toContain('userName');
    expectScimError(
      await scim('POST', '/Users', newUser('scim.weak', { password: 'short' })),
      400,
      'invalidValue',
    );
    expectScimError(
      await scim('POST', '/Users', { schemas: [SCIM.user], userName: 'scim.noemail' }),
      400,
      'invalidValue',
    );
  });

  it('refuses a filter it cannot read with 400 invalidFilter', async () => {
    for (const filter of ['userName xx "a"', 'userName eq', 'title eq "x"', 'userName eq "a" and']) {
      expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    }
  });

  it('answers 404 for an unknown id', async () => {
    expectScimError(await scim('GET', '/Users/USER-NOSUCHUSER00000'), 404);
    expectScimError(
      await scim('PATCH', '/Users/USER-NOSUCHUSER00000', {
        schemas: [SCIM.patchOp],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
      404,
    );
    expectScimError(await scim('DELETE', '/Users/USER-NOSUCHUSER00000'), 404);
  });

  it('refuses a PATCH of an attribute it does not know, and of the groups', async () => {
    const user = scimUserSchema.parse((await scim('POST', '/Users', newUser('scim.patchpath'))).json());
    const patch = (path: string, value: unknown) =>
      scim('PATCH', `/Users/${user.id}`, {
        schemas: [SCIM.patchOp],
        Operations: [{ op: 'replace', path, value }],
      });
    expectScimError(await patch('nosuch', 'x'), 400, 'invalidPath');
    expectScimError(await patch('groups', [{ value: 'ROLE-X' }]), 400, 'mutability');
    // Attributes of the core schema the console does not keep are accepted and left out.
    const kept = await patch('name.givenName', 'Jane');
    expect(kept.statusCode).toBe(200);
    expect(scimUserSchema.parse(kept.json()).meta.version).toBe(user.meta.version);
  });
});

describe('Groups', () => {
  it('members join and leave; a role still held is not deleted (409)', async () => {
    const user = scimUserSchema.parse((await scim('POST', '/Users', newUser('scim.member'))).json());
    const group = scimGroupSchema.parse(
      (await scim('POST', '/Groups', { schemas: [SCIM.group], displayName: 'SCIM members' })).json(),
    );
    const joined = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM.patchOp],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: user.id }] }],
    });
    expect(scimGroupSchema.parse(joined.json()).members?.map((m) => m.value)).toEqual([user.id]);
    const filter = encodeURIComponent(`members eq "${user.id}"`);
    const byMember = listResponseSchema(scimGroupSchema).parse(
      (await scim('GET', `/Groups?filter=${filter}`)).json(),
    );
    expect(byMember.Resources?.map((g) => g.id)).toEqual([group.id]);
    const held = expectScimError(await scim('DELETE', `/Groups/${group.id}`), 409);
    expect(held.detail).toContain('1 user');
    // Microsoft Entra ID removes with a value list.
    await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM.patchOp],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: user.id }] }],
    });
    const [stored] = await t.handle.db.select().from(users).where(eq(users.userCode, user.id));
    expect(stored?.roleCode).toBe(user.groups?.[0]?.value);
    const withoutMembers = scimGroupSchema.parse(
      (await scim('GET', `/Groups/${group.id}?excludedAttributes=members`)).json(),
    );
    expect(withoutMembers.members).toBeUndefined();
    expect((await scim('DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
  });

  it('finds a group by displayName in any case, and renames it by PATCH', async () => {
    const group = scimGroupSchema.parse(
      (await scim('POST', '/Groups', { schemas: [SCIM.group], displayName: 'SCIM Finance' })).json(),
    );
    const filter = encodeURIComponent('displayName eq "scim finance"');
    const found = listResponseSchema(scimGroupSchema).parse(
      (await scim('GET', `/Groups?filter=${filter}`)).json(),
    );
    expect(found.Resources?.map((g) => g.id)).toEqual([group.id]);
    const renamed = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM.patchOp],
      Operations: [{ op: 'replace', value: { id: group.id, displayName: 'SCIM Finance EU' } }],
    });
    expect(scimGroupSchema.parse(renamed.json()).displayName).toBe('SCIM Finance EU');
    expectScimError(
      await scim('POST', '/Groups', { schemas: [SCIM.group], displayName: 'scim finance eu' }),
      409,
      'uniqueness',
    );
  });
});

describe('who may call it', () => {
  it('answers 401 in the SCIM format without a token, or with one that is not valid', async () => {
    const none = expectScimError(await scim('GET', '/Users', undefined, null), 401);
    expect(none.detail).toContain('API token');
    expectScimError(await scim('GET', '/Users', undefined, 'wfc_not-a-token'), 401);
    // A session cookie is no way in.
    expectScimError(await scim('GET', '/Users', undefined, null, { cookie: admin }), 401);
    expectScimError(await scim('POST', '/Users', newUser('scim.anonymous'), null), 401);
  });

  it('answers 403 to a token whose role cannot manage users, naming what it lacks', async () => {
    const genders = await tokenWith(['VIEW_GENDERS']);
    expectScimError(await scim('GET', '/Users', undefined, genders.token), 403);
    const viewer = await tokenWith(['VIEW_USERS']);
    expect((await scim('GET', '/Users', undefined, viewer.token)).statusCode).toBe(200);
    const refused = expectScimError(await scim('POST', '/Users', newUser('scim.viewer'), viewer.token), 403);
    expect(refused.detail).toContain('CREATE_USER');
    const [made] = await t.handle.db.select().from(users).where(eq(users.username, 'scim.viewer'));
    expect(made).toBeUndefined();
  });

  it('serves discovery to any valid token, and an unknown path as a SCIM 404', async () => {
    const viewer = await tokenWith([]);
    expect((await scim('GET', '/ServiceProviderConfig', undefined, viewer.token)).statusCode).toBe(200);
    expectScimError(await scim('GET', '/NoSuchThing'), 404);
  });
});
