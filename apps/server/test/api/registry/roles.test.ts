import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rolePermissions, roles, users } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { expectNoSecrets, type Json, lastAudit, names, permissionCodes } from './support.ts';

const t = sharedTestApp();
let admin: string;
let adminRoleCode: string;

beforeAll(async () => {
  admin = await t.login();
  const [row] = await t.handle.db.select().from(users).where(eq(users.username, 'admin'));
  adminRoleCode = row!.roleCode;
});

const storedPermissionCodes = async (roleCode: string) =>
  (await t.handle.db.select().from(rolePermissions).where(eq(rolePermissions.roleCode, roleCode)))
    .map((r) => r.permissionCode)
    .sort();

describe('CreateRole and GetRoleByCode', () => {
  it('takes rolePermissions as permission codes and answers [{permissionCode, permissionName}]', async () => {
    const [viewGenders, createGender] = await permissionCodes(t, 'VIEW_GENDERS', 'CREATE_GENDER');
    const res = await t.post(
      'CreateRole',
      {
        roleName: ' Gender clerk ',
        roleDescription: 'Keeps genders',
        rolePermissions: [viewGenders, createGender],
      },
      admin,
    );
    const body = expectOk(res, 'Role created successfully');
    expect(body.data).toEqual({
      roleCode: expect.stringMatching(/^ROLE-[0-9A-Z]{16}$/),
      roleName: 'Gender clerk',
      roleDescription: 'Keeps genders',
      requireMfa: false,
      externalId: null,
      rolePermissions: [
        { permissionCode: viewGenders, permissionName: 'VIEW_GENDERS' },
        { permissionCode: createGender, permissionName: 'CREATE_GENDER' },
      ],
      permissionScopes: { [String(viewGenders)]: 'all', [String(createGender)]: 'all' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await storedPermissionCodes(body.data.roleCode)).toEqual([viewGenders, createGender].sort());

    const fetched = expectOk(
      await t.post('GetRoleByCode', { roleCode: body.data.roleCode }, admin),
      'Role fetched successfully',
    );
    expect(fetched.data).toEqual(body.data);

    const audit = await lastAudit(t, 'roles');
    expect(audit).toMatchObject({ action: 'CREATE', before: null, after: body.data, username: 'admin' });
    expect(audit.changes).toMatchObject({
      roleName: { old: null, new: 'Gender clerk' },
      rolePermissions: { old: null, new: body.data.rolePermissions },
    });
  });

  it('accepts JSON bodies, a single code as a string and an empty list', async () => {
    const [viewSkills] = await permissionCodes(t, 'VIEW_SKILLS');
    const json = expectOk(
      await t.postJson('CreateRole', { roleName: 'Json role', rolePermissions: [viewSkills] }, admin),
      'Role created successfully',
    );
    expect(json.data.rolePermissions).toEqual([
      { permissionCode: viewSkills, permissionName: 'VIEW_SKILLS' },
    ]);
    expect(json.data.roleDescription).toBeNull();
    const single = await t.app.inject({
      method: 'POST',
      url: '/api/CreateRole',
      payload: `roleName=Single&rolePermissions=${viewSkills}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin },
    });
    expect(single.json().data.rolePermissions).toEqual([
      { permissionCode: viewSkills, permissionName: 'VIEW_SKILLS' },
    ]);
    const empty = expectOk(
      await t.post('CreateRole', { roleName: 'Nothing' }, admin),
      'Role created successfully',
    );
    expect(empty.data.rolePermissions).toEqual([]);
  });

  it('refuses missing and bad fields, unknown permissions and duplicate names', async () => {
    const missing = expectError(await t.post('CreateRole', {}, admin), 400, 'Invalid input');
    expect(missing.errors).toEqual([{ field: 'roleName', message: 'Role name is required' }]);
    const long = expectError(
      await t.post('CreateRole', { roleName: 'r'.repeat(101), roleDescription: 'd'.repeat(501) }, admin),
      400,
      'Invalid input',
    );
    expect(long.errors).toEqual([
      { field: 'roleName', message: 'Role name must be at most 100 characters' },
      { field: 'roleDescription', message: 'Role description must be at most 500 characters' },
    ]);
    const unknown = expectError(
      await t.post('CreateRole', { roleName: 'Ghost', rolePermissions: ['PERM-NOPE'] }, admin),
      400,
      'Invalid input',
    );
    expect(unknown.errors).toEqual([{ field: 'rolePermissions', message: 'Unknown permission: PERM-NOPE' }]);
    expect(await t.handle.db.select().from(roles).where(eq(roles.roleName, 'Ghost'))).toEqual([]);

    const dup = expectError(
      await t.post('CreateRole', { roleName: 'ADMINISTRATOR' }, admin),
      409,
      'A role with this name already exists',
    );
    expect(dup.errors).toEqual([{ field: 'roleName', message: 'A role with this name already exists' }]);

    expectError(await t.post('GetRoleByCode', { roleCode: 'ROLE-UNKNOWN' }, admin), 404, 'Role not found');
    const noCode = expectError(await t.post('GetRoleByCode', {}, admin), 400, 'Invalid input');
    expect(noCode.errors).toEqual([{ field: 'roleCode', message: 'roleCode is required' }]);
  });

  it('needs a session (401) and the matching permission (403)', async () => {
    expectError(await t.get('GetRoles'), 401, 'Not signed in');
    expectError(await t.post('CreateRole', { roleName: 'X' }), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_ROLES']);
    expectOk(await t.get('GetRoles', viewer.cookie), 'Roles fetched successfully');
    for (const [path, body] of [
      ['CreateRole', { roleName: 'X' }],
      ['UpdateRole', { roleCode: adminRoleCode, roleName: 'X' }],
      ['DeleteRole', { roleCode: adminRoleCode }],
    ] as const) {
      expectError(await t.post(path, body, viewer.cookie), 403, 'You do not have permission to do this');
    }
    const nobody = await t.userWith([]);
    expectError(
      await t.post('GetRoleByCode', { roleCode: adminRoleCode }, nobody.cookie),
      403,
      'You do not have permission to do this',
    );
  });
});

describe('UpdateRole', () => {
  it('replaces the permission list and audits the change field by field', async () => {
    const [a, b, c] = await permissionCodes(t, 'VIEW_DEPARTMENTS', 'CREATE_DEPARTMENT', 'DELETE_DEPARTMENT');
    const created = expectOk(
      await t.post('CreateRole', { roleName: 'Dept', rolePermissions: [a, b] }, admin),
      'Role created successfully',
    ).data;
    const updated = expectOk(
      await t.post(
        'UpdateRole',
        {
          roleCode: created.roleCode,
          roleName: 'Departments',
          roleDescription: 'All of it',
          rolePermissions: [a, c],
        },
        admin,
      ),
      'Role updated successfully',
    ).data;
    expect(updated.rolePermissions).toEqual([
      { permissionCode: a, permissionName: 'VIEW_DEPARTMENTS' },
      { permissionCode: c, permissionName: 'DELETE_DEPARTMENT' },
    ]);
    expect(await storedPermissionCodes(created.roleCode)).toEqual([a, c].sort());
    const audit = await lastAudit(t, 'roles');
    expect(audit.action).toBe('UPDATE');
    expect(audit.before).toEqual(created);
    expect(audit.after).toEqual(updated);
    expect(audit.changes).toEqual({
      roleName: { old: 'Dept', new: 'Departments' },
      roleDescription: { old: null, new: 'All of it' },
      rolePermissions: { old: created.rolePermissions, new: updated.rolePermissions },
      // Each permission's scope is a field of the record: one held no more, one newly held.
      ...Object.fromEntries(
        [...new Set([...Object.keys(created.permissionScopes), ...Object.keys(updated.permissionScopes)])]
          .filter((code) => created.permissionScopes[code] !== updated.permissionScopes[code])
          .map((code) => [
            `permissionScopes.${code}`,
            { old: created.permissionScopes[code] ?? null, new: updated.permissionScopes[code] ?? null },
          ]),
      ),
    });
    expectError(
      await t.post('UpdateRole', { roleCode: 'ROLE-MISSING', roleName: 'X' }, admin),
      404,
      'Role not found',
    );
  });

  it("takes effect on the role's users at their next request", async () => {
    const [view, create] = await permissionCodes(t, 'VIEW_GENDERS', 'CREATE_GENDER');
    const clerk = await t.userWith(['VIEW_GENDERS']);
    expectOk(await t.get('GetGenders', clerk.cookie), 'Genders fetched successfully');
    expectError(
      await t.post('CreateGender', { genderName: 'Early' }, clerk.cookie),
      403,
      'You do not have permission to do this',
    );

    const role = (await t.post('GetRoleByCode', { roleCode: clerk.roleCode }, admin)).json().data;
    expectOk(
      await t.post(
        'UpdateRole',
        { roleCode: clerk.roleCode, roleName: role.roleName, rolePermissions: [create] },
        admin,
      ),
      'Role updated successfully',
    );
    expectError(await t.get('GetGenders', clerk.cookie), 403, 'You do not have permission to do this');
    expectOk(
      await t.post('CreateGender', { genderName: 'Late' }, clerk.cookie),
      'Gender created successfully',
    );

    await t.post(
      'UpdateRole',
      { roleCode: clerk.roleCode, roleName: role.roleName, rolePermissions: [view] },
      admin,
    );
    expectOk(await t.get('GetGenders', clerk.cookie), 'Genders fetched successfully');
    const session = expectOk(await t.get('GetSession', clerk.cookie), 'Session fetched successfully');
    expect(session.data.role.rolePermissions).toEqual([
      { permissionCode: view, permissionName: 'VIEW_GENDERS' },
    ]);
  });

  it('refuses to take UPDATE_ROLE from the last role that gives it to a user', async () => {
    const before = await storedPermissionCodes(adminRoleCode);
    const [viewRoles] = await permissionCodes(t, 'VIEW_ROLES');
    const res = await t.post(
      'UpdateRole',
      { roleCode: adminRoleCode, roleName: 'Administrator', rolePermissions: [viewRoles] },
      admin,
    );
    expectError(res, 409, 'This change would leave no user who can manage roles');
    expect(await storedPermissionCodes(adminRoleCode)).toEqual(before);
    const [row] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, adminRoleCode));
    expect(row!.roleDescription).toBe('Holds every permission');
  });
});

describe('DeleteRole', () => {
  it('refuses while users hold the role, naming them, and deletes nothing', async () => {
    const holder = await t.userWith(['VIEW_SKILLS']);
    const res = expectError(
      await t.post('DeleteRole', { roleCode: holder.roleCode }, admin),
      409,
      'Cannot delete this role: it is still used by 1 user',
    );
    expect(res.data).toBeUndefined();
    expect(await t.handle.db.select().from(roles).where(eq(roles.roleCode, holder.roleCode))).toHaveLength(1);
    expect(await storedPermissionCodes(holder.roleCode)).toHaveLength(1);
  });

  it('deletes an unused role with its permission links and audits it', async () => {
    const [p] = await permissionCodes(t, 'VIEW_CITIES');
    const role = expectOk(
      await t.post('CreateRole', { roleName: 'Short-lived', rolePermissions: [p] }, admin),
      'Role created successfully',
    ).data;
    const del = expectOk(
      await t.post('DeleteRole', { roleCode: role.roleCode }, admin),
      'Role deleted successfully',
    );
    expect(del.data).toEqual(role);
    expect(await t.handle.db.select().from(roles).where(eq(roles.roleCode, role.roleCode))).toEqual([]);
    expect(await storedPermissionCodes(role.roleCode)).toEqual([]);
    const audit = await lastAudit(t, 'roles');
    expect(audit).toMatchObject({ action: 'DELETE', before: role, after: null });
    expect(audit.changes).toMatchObject({ roleName: { old: 'Short-lived', new: null } });
    expectError(await t.post('DeleteRole', { roleCode: role.roleCode }, admin), 404, 'Role not found');
  });
});

describe('GetRoles', () => {
  it('sorts, filters, pages and gives codes only with populate=false', async () => {
    await t.post('CreateRole', { roleName: 'Zeta readers', roleDescription: 'findme-zeta' }, admin);
    await t.post('CreateRole', { roleName: 'Alpha readers', roleDescription: 'findme-alpha' }, admin);
    const filtered = expectOk(
      await t.get('GetRoles', admin, { keyword: 'FINDME', sortField: 'roleName', sortValue: 'asc' }),
      'Roles fetched successfully',
    );
    expect(filtered.total).toBe(2);
    expect(names(filtered.data, 'roleName')).toEqual(['Alpha readers', 'Zeta readers']);
    const desc = (
      await t.get('GetRoles', admin, { keyword: 'findme', sortField: 'roleName', sortValue: 'nonsense' })
    ).json();
    expect(names(desc.data, 'roleName')).toEqual(['Zeta readers', 'Alpha readers']);

    const all = (await t.get('GetRoles', admin, { limit: 1000 })).json();
    const page = (await t.get('GetRoles', admin, { limit: 2, page: 2 })).json();
    expect(page.total).toBe(all.total);
    expect(page.data).toEqual(all.data.slice(2, 4));
    const newestFirst = (await t.get('GetRoles', admin)).json();
    expect(newestFirst.data[0].roleName).toBe('Alpha readers');

    const bare = (await t.get('GetRoles', admin, { populate: 'false', keyword: 'Administrator' })).json();
    expect(bare.data[0].rolePermissions).toHaveLength(ALL_PERMISSION_NAMES.length);
    expect(Object.keys(bare.data[0].rolePermissions[0])).toEqual(['permissionCode']);

    const bad = expectError(
      await t.get('GetRoles', admin, { sortField: 'role_name; drop table roles' }),
      400,
      'Invalid input',
    );
    expect(bad.errors[0].field).toBe('sortField');
  });

  it('gives form selectors codes and names only, and refuses callers with neither permission', async () => {
    const userCreator = await t.userWith(['CREATE_USER']);
    const lookup = expectOk(
      await t.get('GetRoles', userCreator.cookie, { limit: 100 }),
      'Roles fetched successfully',
    );
    expect(lookup.total).toBeGreaterThan(1);
    for (const row of lookup.data as Json[])
      expect(Object.keys(row).sort()).toEqual(['roleCode', 'roleName']);
    expect(names(lookup.data, 'roleName')).toContain('Administrator');
    expectError(
      await t.post('GetRoleByCode', { roleCode: adminRoleCode }, userCreator.cookie),
      403,
      'You do not have permission to do this',
    );
    // The selector's search and sort reach only what it may see.
    const byDescription = (
      await t.get('GetRoles', userCreator.cookie, { keyword: 'Holds every permission' })
    ).json();
    expect(byDescription.total).toBe(0);
    expectError(
      await t.get('GetRoles', userCreator.cookie, { sortField: 'roleDescription' }),
      400,
      'Invalid input',
    );
    const sorted = (
      await t.get('GetRoles', userCreator.cookie, { sortField: 'roleName', sortValue: 'asc', limit: 100 })
    ).json();
    expect(names(sorted.data, 'roleName')).toEqual([...names(sorted.data, 'roleName')].sort());

    const neither = await t.userWith(['CREATE_GENDER']);
    expectError(await t.get('GetRoles', neither.cookie), 403, 'You do not have permission to do this');
  });

  it('lets a role editor load the role it edits', async () => {
    const editor = await t.userWith(['UPDATE_ROLE']);
    const res = expectOk(
      await t.post('GetRoleByCode', { roleCode: editor.roleCode }, editor.cookie),
      'Role fetched successfully',
    );
    expect(res.data.rolePermissions).toEqual([
      { permissionCode: (await permissionCodes(t, 'UPDATE_ROLE'))[0], permissionName: 'UPDATE_ROLE' },
    ]);
    const perms = expectOk(
      await t.get('GetPermissions', editor.cookie, { limit: 100 }),
      'Permissions fetched successfully',
    );
    expect(Object.keys(perms.data[0]).sort()).toEqual(['permissionCode', 'permissionName']);
    expectError(await t.get('GetRoles', editor.cookie), 403, 'You do not have permission to do this');
  });

  it('never puts a password in a role answer or audit record', async () => {
    expectNoSecrets((await t.get('GetRoles', admin, { limit: 100 })).body);
    expectNoSecrets(await lastAudit(t, 'roles'));
  });
});
