import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { permissionCodes } from '../registry/support.ts';
import { PASSWORD, registerUser, scopedRole } from './support.ts';

/**
 * A role's scopes: stored and answered with its permissions, refused where they make no sense,
 * and never given wider than the giver holds them (delegation compares scopes too).
 */

const t = sharedTestApp();
let admin: string;
let viewEmployees: string;
let createEmployee: string;
let viewGenders: string;

beforeAll(async () => {
  admin = await t.login();
  [viewEmployees = '', createEmployee = '', viewGenders = ''] = await permissionCodes(
    t,
    'VIEW_EMPLOYEES',
    'CREATE_EMPLOYEE',
    'VIEW_GENDERS',
  );
});

const role = (roleName: string, rolePermissions: string[], permissionScopes?: Record<string, string>) => ({
  roleName,
  rolePermissions,
  ...(permissionScopes ? { permissionScopes } : {}),
});

describe('role scopes', () => {
  it('stores a scope per permission, all where none is given, and answers them on create, view, list and update', async () => {
    const created = expectOk(
      await t.postJson(
        'CreateRole',
        role('Scoped A', [viewEmployees, viewGenders], { [viewEmployees]: 'team' }),
        admin,
      ),
      'Role created successfully',
    ).data;
    expect(created.permissionScopes).toEqual({ [viewEmployees]: 'team', [viewGenders]: 'all' });
    const fetched = expectOk(
      await t.post('GetRoleByCode', { roleCode: created.roleCode }, admin),
      'Role fetched successfully',
    );
    expect(fetched.data.permissionScopes).toEqual(created.permissionScopes);
    const listed = expectOk(
      await t.get('GetRoles', admin, { keyword: 'Scoped A' }),
      'Roles fetched successfully',
    );
    expect(listed.data[0].permissionScopes).toEqual(created.permissionScopes);
    const updated = expectOk(
      await t.postJson(
        'UpdateRole',
        {
          roleCode: created.roleCode,
          ...role('Scoped A', [viewEmployees], { [viewEmployees]: 'own' }),
          version: 1,
        },
        admin,
      ),
      'Role updated successfully',
    ).data;
    expect(updated.permissionScopes).toEqual({ [viewEmployees]: 'own' });
  });

  it('refuses a scope on a permission the role does not hold, one the permission does not allow, and an unknown one', async () => {
    const notHeld = expectError(
      await t.postJson('CreateRole', role('Bad 1', [viewGenders], { [viewEmployees]: 'team' }), admin),
      400,
      'Invalid input',
    );
    expect(notHeld.errors).toEqual([
      {
        field: `permissionScopes.${viewEmployees}`,
        message: 'A scope is given for a permission the role does not hold',
      },
    ]);
    const notAllowed = expectError(
      await t.postJson(
        'CreateRole',
        role('Bad 2', [createEmployee, viewGenders], { [createEmployee]: 'own', [viewGenders]: 'team' }),
        admin,
      ),
      400,
      'Invalid input',
    );
    expect(notAllowed.errors).toEqual([
      {
        field: `permissionScopes.${createEmployee}`,
        message: "CREATE_EMPLOYEE cannot be held for 'own' records (allowed: all, team)",
      },
      {
        field: `permissionScopes.${viewGenders}`,
        message: "VIEW_GENDERS cannot be held for 'team' records (allowed: all)",
      },
    ]);
    const unknown = await t.postJson(
      'CreateRole',
      role('Bad 3', [viewEmployees], { [viewEmployees]: 'world' }),
      admin,
    );
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json().errors)).toContain('Scope must be one of all, team, own');
  });

  it('needs a session (401) and the permission (403)', async () => {
    expect(
      (await t.postJson('CreateRole', role('No session', [viewEmployees], { [viewEmployees]: 'team' })))
        .statusCode,
    ).toBe(401);
    const clerk = await t.userWith(['VIEW_GENDERS']);
    expect((await t.postJson('CreateRole', role('No right', [], {}), clerk.cookie)).statusCode).toBe(403);
  });
});

describe('delegation with scopes', () => {
  let manager: string;
  let wide: string;
  let narrow: string;

  beforeAll(async () => {
    const managerRole = await scopedRole(t, admin, 'Team role manager', {
      CREATE_ROLE: 'all',
      UPDATE_ROLE: 'all',
      VIEW_ROLES: 'all',
      VIEW_EMPLOYEES: 'team',
      CREATE_USER: 'all',
      UPDATE_USER: 'all',
      VIEW_USERS: 'all',
    });
    await registerUser(t, admin, 'team.role.manager', managerRole.roleCode);
    manager = await t.login('team.role.manager', PASSWORD);
    wide = (await scopedRole(t, admin, 'Wide viewer', { VIEW_EMPLOYEES: 'all' })).roleCode;
    narrow = (await scopedRole(t, admin, 'Narrow viewer', { VIEW_EMPLOYEES: 'own' })).roleCode;
  });

  it('lets a team-scoped holder grant team or own, never all', async () => {
    expectOk(
      await t.postJson(
        'CreateRole',
        role('Given team', [viewEmployees], { [viewEmployees]: 'team' }),
        manager,
      ),
      'Role created successfully',
    );
    expectOk(
      await t.postJson('CreateRole', role('Given own', [viewEmployees], { [viewEmployees]: 'own' }), manager),
      'Role created successfully',
    );
    expectError(
      await t.postJson('CreateRole', role('Given all', [viewEmployees]), manager),
      403,
      'You cannot grant a permission for more records than you hold it for',
    );
  });

  it('refuses widening a held scope, and allows narrowing one held wider than the giver holds it', async () => {
    expectError(
      await t.postJson(
        'UpdateRole',
        { roleCode: narrow, ...role('Narrow viewer', [viewEmployees], { [viewEmployees]: 'all' }) },
        manager,
      ),
      403,
      'You cannot grant a permission for more records than you hold it for',
    );
    expectOk(
      await t.postJson(
        'UpdateRole',
        { roleCode: wide, ...role('Wide viewer', [viewEmployees], { [viewEmployees]: 'team' }) },
        manager,
      ),
      'Role updated successfully',
    );
    expectOk(
      await t.postJson(
        'UpdateRole',
        { roleCode: wide, ...role('Wide viewer', [viewEmployees], { [viewEmployees]: 'all' }) },
        admin,
      ),
      'Role updated successfully',
    );
  });

  it('assigns only roles held no wider than the assigner holds them, and offers only those', async () => {
    const user = (username: string, roleCode: string) =>
      t.post(
        'register',
        { username, email: `${username}@example.com`, password: PASSWORD, roleCode },
        manager,
      );
    expectOk(await user('given.narrow', narrow), 'User created successfully');
    expectError(
      await user('given.wide', wide),
      403,
      'You cannot assign a role with permissions you do not hold',
    );
    const assignable = expectOk(
      await t.get('GetRoles', manager, { assignable: 'true', limit: 100 }),
      'Roles fetched successfully',
    );
    const offered = assignable.data.map((r: { roleCode: string }) => r.roleCode);
    expect(offered).toContain(narrow);
    expect(offered).not.toContain(wide);
  });

  it('refuses ending the sessions of a user whose role reaches further than the manager', async () => {
    const target = await registerUser(t, admin, 'wide.target', wide);
    expectError(
      await t.post('EndUserSessions', { userCode: target }, manager),
      403,
      'You cannot change a user whose role has permissions you do not hold',
    );
  });

  it('keeps every other rule: an unscoped permission not held is still refused', async () => {
    expectError(
      await t.postJson('CreateRole', role('Beyond', [viewGenders]), manager),
      403,
      'You cannot grant permissions you do not hold',
    );
  });
});
