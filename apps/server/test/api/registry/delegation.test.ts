import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { asc, eq, ne } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits, rolePermissions, roles, users } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope, expectError, expectOk } from '../../support/envelope.ts';
import { type Json, lastAudit, names, permissionCodes } from './support.ts';

/**
 * Delegation: nobody gives what they do not hold. Each refusal is a 403 that says why and leaves
 * every user, role, permission link and audit record exactly as it was.
 */

const t = sharedTestApp();
let admin: string;
let adminRoleCode: string;
let emptyRoleCode: string;
/** A second user with the Administrator role: the target a user manager must not reach. */
let otherAdmin: Json;

const PASSWORD = 'correct-horse-42';
/** What a user manager holds in these tests: user management, no role management. */
const USER_MANAGER = ['CREATE_USER', 'UPDATE_USER', 'DELETE_USER', 'VIEW_USERS'];

const ASSIGN = 'You cannot assign a role with permissions you do not hold';
const CHANGE = 'You cannot change a user whose role has permissions you do not hold';
const DELETE = 'You cannot delete a user whose role has permissions you do not hold';
const GRANT = 'You cannot grant permissions you do not hold';
const OWN_ROLE = 'You cannot change your own role';
const OWN_PASSWORD = 'Change your own password in My account, which asks for the current one';

beforeAll(async () => {
  admin = await t.login();
  const [row] = await t.handle.db.select().from(users).where(eq(users.username, 'admin'));
  adminRoleCode = row!.roleCode;
  emptyRoleCode = expectOk(
    await t.post('CreateRole', { roleName: 'Empty' }, admin),
    'Role created successfully',
  ).data.roleCode;
  otherAdmin = expectOk(
    await t.post(
      'register',
      {
        username: 'second-admin',
        email: 'second-admin@example.com',
        password: PASSWORD,
        roleCode: adminRoleCode,
      },
      admin,
    ),
    'User created successfully',
  ).data;
});

/** Everything a refused change could have touched. */
async function state() {
  const db = t.handle.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    roles: await db.select().from(roles).orderBy(asc(roles.id)),
    links: await db
      .select()
      .from(rolePermissions)
      .orderBy(asc(rolePermissions.roleCode), asc(rolePermissions.permissionCode)),
    // A refusal leaves a security event (tested with the audit trail), and nothing else.
    audits: await db.$count(audits, ne(audits.collection, 'security')),
  };
}

/** Sends the request and checks the refusal: 403, its message, and nothing written. */
async function expectRefused(send: () => Promise<LightMyRequestResponse>, message: string) {
  const before = await state();
  const res = await send();
  const body = expectError(res, 403, message);
  expect(Object.keys(body).sort()).toEqual(['message', 'statusCode']);
  expect(await state()).toEqual(before);
  const events = await t.handle.db.select().from(audits).where(eq(audits.collection, 'security'));
  expect(events.some((e) => (e.after as { reason?: string }).reason === message)).toBe(true);
}

/** A role holding exactly these permissions, made by the Administrator. */
async function roleWith(roleName: string, permissionNames: string[]) {
  const codes = permissionNames.length ? await permissionCodes(t, ...permissionNames) : [];
  return expectOk(
    await t.post('CreateRole', { roleName, rolePermissions: codes }, admin),
    'Role created successfully',
  ).data.roleCode as string;
}

const registerBody = (username: string, roleCode: string) => ({
  username,
  email: `${username}@example.com`,
  password: PASSWORD,
  roleCode,
});

const userBody = (u: Json, changes: Json = {}) => ({
  userCode: u.userCode,
  username: u.username,
  email: u.email,
  roleCode: (u.role as Json).roleCode,
  ...changes,
});

async function registered(username: string, roleCode: string) {
  return expectOk(
    await t.post('register', registerBody(username, roleCode), admin),
    'User created successfully',
  ).data as Json;
}

async function userRecord(userCode: string) {
  return expectOk(await t.post('GetUserById', { userCode }, admin), 'User fetched successfully').data as Json;
}

async function rolePermissionNames(roleCode: string) {
  const role = expectOk(await t.post('GetRoleByCode', { roleCode }, admin), 'Role fetched successfully').data;
  return (names(role.rolePermissions, 'permissionName') as string[]).sort();
}

describe('register', () => {
  it('refuses a user manager registering an Administrator', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('register', registerBody('sneaky-admin', adminRoleCode), manager.cookie),
      ASSIGN,
    );
  });

  it('refuses a role with a single permission beyond the manager’s', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const wider = await roleWith('Users and roles reader', ['VIEW_USERS', 'VIEW_ROLES']);
    await expectRefused(() => t.post('register', registerBody('wider', wider), manager.cookie), ASSIGN);
  });

  it('allows a role within the manager’s permissions, the manager’s own role and an empty one', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const narrower = await roleWith('Users reader', ['VIEW_USERS']);
    for (const [username, roleCode] of [
      ['narrow-one', narrower],
      ['peer-one', manager.roleCode],
      ['empty-one', emptyRoleCode],
    ] as const) {
      expectOk(
        await t.post('register', registerBody(username, roleCode), manager.cookie),
        'User created successfully',
      );
    }
  });
});

describe('UpdateUser', () => {
  it('refuses moving oneself to the Administrator role', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const self = await userRecord(manager.userCode);
    await expectRefused(
      () => t.post('UpdateUser', userBody(self, { roleCode: adminRoleCode }), manager.cookie),
      OWN_ROLE,
    );
  });

  it('refuses moving oneself to any other role, even one with fewer permissions', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const self = await userRecord(manager.userCode);
    await expectRefused(
      () => t.post('UpdateUser', userBody(self, { roleCode: emptyRoleCode }), manager.cookie),
      OWN_ROLE,
    );
  });

  it('lets one edit one’s own user while keeping the role', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const self = await userRecord(manager.userCode);
    const res = expectOk(
      await t.post('UpdateUser', userBody(self, { email: 'renamed-self@example.com' }), manager.cookie),
      'User updated successfully',
    );
    expect(res.data.email).toBe('renamed-self@example.com');
    expect(res.data.role.roleCode).toBe(manager.roleCode);
  });

  it('refuses moving another user to a role beyond the manager’s permissions', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const u = await registered('to-promote', emptyRoleCode);
    await expectRefused(
      () => t.post('UpdateUser', userBody(u, { roleCode: adminRoleCode }), manager.cookie),
      ASSIGN,
    );
  });

  it('refuses editing an Administrator, even only the email', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('UpdateUser', userBody(otherAdmin, { email: 'hijacked@example.com' }), manager.cookie),
      CHANGE,
    );
  });

  it('refuses resetting an Administrator’s password, which then still signs in with the old one', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('UpdateUser', userBody(otherAdmin, { password: 'taken-over-pass-1' }), manager.cookie),
      CHANGE,
    );
    expect((await t.login('second-admin', PASSWORD)).length).toBeGreaterThan(0);
  });

  it('refuses demoting an Administrator (the target is out of reach, whatever the new role)', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('UpdateUser', userBody(otherAdmin, { roleCode: emptyRoleCode }), manager.cookie),
      CHANGE,
    );
  });

  it('lets a manager edit a peer within reach: rename, reset the password, move to a narrower role', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const narrower = await roleWith('Users viewer', ['VIEW_USERS']);
    const peer = await registered('peer-two', manager.roleCode);
    const res = expectOk(
      await t.post(
        'UpdateUser',
        userBody(peer, { username: 'peer-two-renamed', password: 'peer-new-pass-12', roleCode: narrower }),
        manager.cookie,
      ),
      'User updated successfully',
    );
    expect(res.data).toMatchObject({ username: 'peer-two-renamed', role: { roleCode: narrower } });
    expect((await t.login('peer-two-renamed', 'peer-new-pass-12')).length).toBeGreaterThan(0);
    expectOk(
      await t.post('UpdateUser', userBody(res.data, { roleCode: manager.roleCode }), manager.cookie),
      'User updated successfully',
    );
  });
});

describe("one's own password goes through My account", () => {
  it('refuses a user manager setting their own password through UpdateUser, which then still signs in with the old one', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const self = await userRecord(manager.userCode);
    await expectRefused(
      () => t.post('UpdateUser', userBody(self, { password: 'locked-out-pass-1' }), manager.cookie),
      OWN_PASSWORD,
    );
    expect((await t.login(manager.username, manager.password)).length).toBeGreaterThan(0);
  });

  it('refuses it to the Administrator too, with or without other changes', async () => {
    const deputy = await registered('deputy-own-password', adminRoleCode);
    const cookie = await t.login('deputy-own-password', PASSWORD);
    for (const changes of [
      { password: 'locked-out-pass-2' },
      { password: 'locked-out-pass-3', email: 'deputy-renamed@example.com', roleCode: emptyRoleCode },
    ]) {
      await expectRefused(() => t.post('UpdateUser', userBody(deputy, changes), cookie), OWN_PASSWORD);
    }
    expect((await t.login('deputy-own-password', PASSWORD)).length).toBeGreaterThan(0);
  });

  it('still lets one edit one’s own user with the password left blank', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const self = await userRecord(manager.userCode);
    const res = expectOk(
      await t.post(
        'UpdateUser',
        userBody(self, { email: 'blank-password-self@example.com', password: '' }),
        manager.cookie,
      ),
      'User updated successfully',
    );
    expect(res.data.email).toBe('blank-password-self@example.com');
    expect((await t.login(manager.username, manager.password)).length).toBeGreaterThan(0);
  });
});

/**
 * A refused caller learns nothing from a stale version: the delegation rules answer before the
 * version is compared, so the 403 carries no record where a 409 would carry the current one.
 */
describe('delegation before the version', () => {
  it('refuses a user manager’s stale update of an Administrator with 403 and no record', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () =>
        t.post(
          'UpdateUser',
          userBody(otherAdmin, { email: 'stale-hijack@example.com', version: 999 }),
          manager.cookie,
        ),
      CHANGE,
    );
  });

  it('refuses a user manager’s stale delete of an Administrator with 403 and no record', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('DeleteUser', { userCode: otherAdmin.userCode, version: 999 }, manager.cookie),
      DELETE,
    );
  });

  it('refuses a role manager’s stale grant with 403 and no record', async () => {
    const manager = await t.userWith(['VIEW_ROLES', 'UPDATE_ROLE', 'VIEW_GENDERS']);
    const target = await roleWith('Stale target', ['VIEW_GENDERS']);
    const codes = await permissionCodes(t, 'VIEW_GENDERS', 'DELETE_USER');
    await expectRefused(
      () =>
        t.post(
          'UpdateRole',
          { roleCode: target, roleName: 'Stale target', rolePermissions: codes, version: 999 },
          manager.cookie,
        ),
      GRANT,
    );
  });

  it('still answers a permitted stale write with 409 and the current record', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const peer = await registered('stale-peer', manager.roleCode);
    const res = await t.post(
      'UpdateUser',
      userBody(peer, { email: 'stale-peer-2@example.com', version: 999 }),
      manager.cookie,
    );
    const body = expectEnvelope(res, 409);
    expect(body.message).toMatch(/^This user was changed by admin at .* since you opened it$/);
    expect(body.data).toMatchObject({ userCode: peer.userCode, version: 1 });
    // The email is personal data this manager does not hold VIEW_PERSONAL_DATA for.
    expect(body.data).not.toHaveProperty('email');
  });
});

describe('DeleteUser', () => {
  it('refuses a user manager deleting an Administrator', async () => {
    const manager = await t.userWith(USER_MANAGER);
    await expectRefused(
      () => t.post('DeleteUser', { userCode: otherAdmin.userCode }, manager.cookie),
      DELETE,
    );
  });

  it('lets a user manager delete a user within reach', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const u = await registered('to-delete', manager.roleCode);
    expectOk(
      await t.post('DeleteUser', { userCode: u.userCode }, manager.cookie),
      'User deleted successfully',
    );
  });
});

describe('CreateRole and UpdateRole', () => {
  const ROLE_MANAGER = ['VIEW_ROLES', 'CREATE_ROLE', 'UPDATE_ROLE', 'VIEW_GENDERS'];

  it('refuses creating a role with a permission the manager lacks', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const codes = await permissionCodes(t, 'VIEW_GENDERS', 'DELETE_USER');
    await expectRefused(
      () => t.post('CreateRole', { roleName: 'Deleter', rolePermissions: codes }, manager.cookie),
      GRANT,
    );
  });

  it('refuses creating a copy of the Administrator role', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const codes = await permissionCodes(t, ...ALL_PERMISSION_NAMES);
    await expectRefused(
      () => t.postJson('CreateRole', { roleName: 'Shadow admin', rolePermissions: codes }, manager.cookie),
      GRANT,
    );
  });

  it('lets a role manager create a role from permissions it holds', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const codes = await permissionCodes(t, 'VIEW_GENDERS', 'VIEW_ROLES');
    const res = expectOk(
      await t.post('CreateRole', { roleName: 'Held only', rolePermissions: codes }, manager.cookie),
      'Role created successfully',
    );
    expect(names(res.data.rolePermissions, 'permissionName').sort()).toEqual(['VIEW_GENDERS', 'VIEW_ROLES']);
  });

  it('refuses adding a permission the manager lacks to another role', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const target = await roleWith('Gender reader', ['VIEW_GENDERS']);
    const codes = await permissionCodes(t, 'VIEW_GENDERS', 'CREATE_GENDER');
    await expectRefused(
      () =>
        t.post(
          'UpdateRole',
          { roleCode: target, roleName: 'Gender reader', rolePermissions: codes },
          manager.cookie,
        ),
      GRANT,
    );
  });

  it('refuses a role manager adding a permission to its own role', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const own = await rolePermissionNames(manager.roleCode);
    const codes = await permissionCodes(t, ...own, 'DELETE_ROLE');
    const [role] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, manager.roleCode));
    await expectRefused(
      () =>
        t.post(
          'UpdateRole',
          { roleCode: manager.roleCode, roleName: role!.roleName, rolePermissions: codes },
          manager.cookie,
        ),
      GRANT,
    );
    const everything = await permissionCodes(t, ...ALL_PERMISSION_NAMES);
    await expectRefused(
      () =>
        t.post(
          'UpdateRole',
          { roleCode: manager.roleCode, roleName: role!.roleName, rolePermissions: everything },
          manager.cookie,
        ),
      GRANT,
    );
  });

  it('refuses swapping one permission the manager lacks for another it lacks', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const target = await roleWith('Auditor', ['VIEW_AUDITS']);
    const codes = await permissionCodes(t, 'VIEW_PERMISSIONS');
    await expectRefused(
      () =>
        t.post(
          'UpdateRole',
          { roleCode: target, roleName: 'Auditor', rolePermissions: codes },
          manager.cookie,
        ),
      GRANT,
    );
  });

  it('keeps permissions the manager lacks when it edits other things of the role', async () => {
    const manager = await t.userWith(ROLE_MANAGER);
    const target = await roleWith('Audit desk', ['VIEW_AUDITS', 'VIEW_GENDERS']);
    const codes = await permissionCodes(t, 'VIEW_AUDITS', 'VIEW_GENDERS', 'VIEW_ROLES');
    const res = expectOk(
      await t.post(
        'UpdateRole',
        {
          roleCode: target,
          roleName: 'Audit desk (renamed)',
          roleDescription: 'Reads audits',
          rolePermissions: codes,
        },
        manager.cookie,
      ),
      'Role updated successfully',
    );
    expect(res.data.roleName).toBe('Audit desk (renamed)');
    expect(await rolePermissionNames(target)).toEqual(['VIEW_AUDITS', 'VIEW_GENDERS', 'VIEW_ROLES']);
  });

  it('lets a manager remove permissions it lacks, and from its own role', async () => {
    const manager = await t.userWith([...ROLE_MANAGER, 'DELETE_ROLE']);
    const target = await roleWith('Shrinking', ['VIEW_AUDITS', 'DELETE_USER', 'VIEW_GENDERS']);
    const kept = await permissionCodes(t, 'VIEW_GENDERS');
    expectOk(
      await t.post(
        'UpdateRole',
        { roleCode: target, roleName: 'Shrinking', rolePermissions: kept },
        manager.cookie,
      ),
      'Role updated successfully',
    );
    expect(await rolePermissionNames(target)).toEqual(['VIEW_GENDERS']);

    const [role] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, manager.roleCode));
    const fewer = await permissionCodes(t, ...ROLE_MANAGER);
    expectOk(
      await t.post(
        'UpdateRole',
        { roleCode: manager.roleCode, roleName: role!.roleName, rolePermissions: fewer },
        manager.cookie,
      ),
      'Role updated successfully',
    );
    expect(await rolePermissionNames(manager.roleCode)).toEqual([...ROLE_MANAGER].sort());
  });
});

describe('the Administrator keeps every right', () => {
  it('assigns, edits, resets, deletes and grants anything', async () => {
    const u = await registered('admin-made', adminRoleCode);
    const moved = expectOk(
      await t.post(
        'UpdateUser',
        userBody(u, { roleCode: emptyRoleCode, password: 'admin-reset-pass-1' }),
        admin,
      ),
      'User updated successfully',
    ).data;
    expectOk(
      await t.post('UpdateUser', userBody(moved, { roleCode: adminRoleCode }), admin),
      'User updated successfully',
    );
    expectOk(await t.post('DeleteUser', { userCode: u.userCode }, admin), 'User deleted successfully');

    const everything = await permissionCodes(t, ...ALL_PERMISSION_NAMES);
    const role = expectOk(
      await t.postJson('CreateRole', { roleName: 'Full copy', rolePermissions: everything }, admin),
      'Role created successfully',
    ).data;
    expect(role.rolePermissions).toHaveLength(ALL_PERMISSION_NAMES.length);
    const target = await roleWith('Grown', []);
    expectOk(
      await t.postJson(
        'UpdateRole',
        { roleCode: target, roleName: 'Grown', rolePermissions: everything },
        admin,
      ),
      'Role updated successfully',
    );
  });

  it('may change its own role, while another user can still manage roles', async () => {
    const deputy = await registered('deputy-admin', adminRoleCode);
    const cookie = await t.login('deputy-admin', PASSWORD);
    const demoted = expectOk(
      await t.post('UpdateUser', userBody(deputy, { roleCode: emptyRoleCode }), cookie),
      'User updated successfully',
    ).data;
    expect(demoted.role.roleCode).toBe(emptyRoleCode);
  });
});

describe('the audit of a password reset', () => {
  it('says the password changed, in after and in changes, and never holds the password or its hash', async () => {
    const u = await registered('reset-me', emptyRoleCode);
    const newPassword = 'audited-new-pass-3';
    expectOk(
      await t.post('UpdateUser', userBody(u, { password: newPassword }), admin),
      'User updated successfully',
    );
    const audit = await lastAudit(t, 'users');
    expect(audit.action).toBe('UPDATE');
    expect(audit.after).toMatchObject({ userCode: u.userCode, passwordChanged: true });
    expect(audit.before).not.toHaveProperty('passwordChanged');
    expect(audit.changes).toEqual({ passwordChanged: { old: null, new: true } });
    const text = JSON.stringify(audit);
    expect(text).not.toContain(newPassword);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('$argon2');
    expect(text).not.toMatch(/passwordHash|password_hash/);
    expect(Object.keys(audit.after as Json)).not.toContain('password');

    expectOk(
      await t.post('UpdateUser', userBody(u, { email: 'reset-me-again@example.com', password: '' }), admin),
      'User updated successfully',
    );
    const plain = await lastAudit(t, 'users');
    expect(plain.after).not.toHaveProperty('passwordChanged');
    expect(plain.changes).toEqual({
      email: { old: 'reset-me@example.com', new: 'reset-me-again@example.com' },
    });
  });
});

describe('GetRoles?assignable=true', () => {
  it('lists only roles within the caller’s permissions, and everything for the Administrator', async () => {
    const manager = await t.userWith(USER_MANAGER);
    const within = await roleWith('Assignable subset', ['VIEW_USERS', 'CREATE_USER']);
    const beyond = await roleWith('Assignable beyond', ['VIEW_USERS', 'VIEW_AUDITS']);
    const listed = expectOk(
      await t.get('GetRoles', manager.cookie, { assignable: 'true', limit: 100 }),
      'Roles fetched successfully',
    );
    const codes = names(listed.data, 'roleCode');
    expect(codes).toEqual(expect.arrayContaining([within, manager.roleCode, emptyRoleCode]));
    expect(codes).not.toContain(beyond);
    expect(codes).not.toContain(adminRoleCode);
    expect(listed.total).toBe(codes.length);
    // Every listed role really is assignable: registering a user with each one passes.
    for (const [i, roleCode] of (codes as string[]).entries()) {
      expectOk(
        await t.post('register', registerBody(`assignable-${i}`, roleCode), manager.cookie),
        'User created successfully',
      );
    }

    // A caller with other permissions gets its own answer, not the first caller's cached page.
    const narrow = await t.userWith(['CREATE_USER']);
    const narrowCodes = names(
      (await t.get('GetRoles', narrow.cookie, { assignable: 'true', limit: 100 })).json().data,
      'roleCode',
    );
    expect(narrowCodes).toContain(emptyRoleCode);
    expect(narrowCodes).not.toContain(within);

    const everything = (await t.get('GetRoles', admin, { assignable: 'true', limit: 100 })).json();
    expect(names(everything.data, 'roleCode')).toEqual(
      expect.arrayContaining([adminRoleCode, beyond, within]),
    );
    expect(everything.total).toBe((await t.get('GetRoles', admin, { limit: 100 })).json().total);
  });

  it('leaves the list unchanged without the flag, or with assignable=false', async () => {
    const manager = await t.userWith(USER_MANAGER);
    for (const query of [{}, { assignable: 'false' }] as Record<string, string>[]) {
      const codes = names(
        (await t.get('GetRoles', manager.cookie, { ...query, limit: 100 })).json().data,
        'roleCode',
      );
      expect(codes).toContain(adminRoleCode);
    }
  });
});
