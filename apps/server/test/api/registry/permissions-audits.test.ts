import { ALL_PERMISSION_NAMES, PERMISSION_CATALOGUE } from '@wfc/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { expectNoSecrets, type Json, names, permissionCodes } from './support.ts';

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

describe('permissions', () => {
  it('lists the whole catalogue with underscore names, searchable and sortable', async () => {
    const all = expectOk(
      await t.get('GetPermissions', admin, { limit: 100 }),
      'Permissions fetched successfully',
    );
    expect(all.total).toBe(ALL_PERMISSION_NAMES.length);
    expect(names(all.data, 'permissionName').sort()).toEqual([...ALL_PERMISSION_NAMES].sort());
    expect(all.data[0]).toEqual({
      permissionCode: expect.stringMatching(/^PERM-[0-9A-Z]{16}$/),
      permissionName: expect.stringMatching(/^[A-Z_]+$/),
      permissionDescription: expect.any(String),
      createdAt: expect.any(String),
    });
    const profile = (
      await t.get('GetPermissions', admin, {
        keyword: 'profile',
        sortField: 'permissionName',
        sortValue: 'asc',
      })
    ).json();
    expect(names(profile.data, 'permissionName')).toEqual([
      'CREATE_PROFILE',
      'DELETE_PROFILE',
      'UPDATE_PROFILE',
      'VIEW_PROFILES',
    ]);
    const byDescription = (await t.get('GetPermissions', admin, { keyword: 'snapshot' })).json();
    expect(names(byDescription.data, 'permissionName')).toEqual(['VIEW_PERFORMANCES']);
    expectError(await t.get('GetPermissions', admin, { sortField: 'permissionCode' }), 400, 'Invalid input');
  });

  it('gives one permission by code, 404 for an unknown one, and needs VIEW_PERMISSIONS', async () => {
    const [code] = await permissionCodes(t, 'VIEW_AUDITS');
    const one = expectOk(
      await t.post('GetPermissionByCode', { permissionCode: code }, admin),
      'Permission fetched successfully',
    );
    const seed = PERMISSION_CATALOGUE.find((p) => p.name === 'VIEW_AUDITS');
    expect(one.data).toMatchObject({
      permissionCode: code,
      permissionName: 'VIEW_AUDITS',
      permissionDescription: seed?.description,
    });
    expectError(
      await t.post('GetPermissionByCode', { permissionCode: 'PERM-NOPE' }, admin),
      404,
      'Permission not found',
    );
    const viewer = await t.userWith(['VIEW_PERMISSIONS']);
    expectOk(
      await t.post('GetPermissionByCode', { permissionCode: code }, viewer.cookie),
      'Permission fetched successfully',
    );
    const stranger = await t.userWith(['VIEW_ROLES']);
    expectError(await t.get('GetPermissions', stranger.cookie), 403, 'You do not have permission to do this');
    expectError(
      await t.post('GetPermissionByCode', { permissionCode: code }, stranger.cookie),
      403,
      'You do not have permission to do this',
    );
    expectError(await t.get('GetPermissions'), 401, 'Not signed in');
  });

  it("lists a role's permissions with the list query, and is read-only", async () => {
    const codes = await permissionCodes(t, 'VIEW_CITIES', 'CREATE_CITY', 'UPDATE_CITY');
    const role = (await t.post('CreateRole', { roleName: 'City desk', rolePermissions: codes }, admin)).json()
      .data;
    const page = expectOk(
      await t.post('GetPermissionsByRoleCode', { roleCode: role.roleCode }, admin, {
        sortField: 'permissionName',
        sortValue: 'asc',
        limit: 2,
      }),
      'Permissions fetched successfully',
    );
    expect(page.total).toBe(3);
    expect(names(page.data, 'permissionName')).toEqual(['CREATE_CITY', 'UPDATE_CITY']);
    const filtered = (
      await t.post('GetPermissionsByRoleCode', { roleCode: role.roleCode }, admin, { keyword: 'view' })
    ).json();
    expect(names(filtered.data, 'permissionName')).toEqual(['VIEW_CITIES']);
    expectError(
      await t.post('GetPermissionsByRoleCode', { roleCode: 'ROLE-NOPE' }, admin),
      404,
      'Role not found',
    );
    const editor = await t.userWith(['UPDATE_ROLE']);
    const lookup = expectOk(
      await t.post('GetPermissionsByRoleCode', { roleCode: role.roleCode }, editor.cookie),
      'Permissions fetched successfully',
    );
    for (const row of lookup.data as Json[])
      expect(Object.keys(row).sort()).toEqual(['permissionCode', 'permissionName']);
    for (const path of ['CreatePermission', 'UpdatePermission', 'DeletePermission']) {
      const res = await t.post(path, { permissionCode: codes[0], permissionName: 'X' }, admin);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`No such endpoint: POST /api/${path}`);
    }
  });
});

describe('audit logs', () => {
  it('records sign-ins and changes, lists them newest first, and filters and sorts them', async () => {
    const gender = (await t.post('CreateGender', { genderName: 'Audited' }, admin)).json().data;
    await t.post('UpdateGender', { genderCode: gender.genderCode, genderName: 'Audited' }, admin);
    const list = expectOk(await t.get('GetAudits', admin), 'Audit Logs fetched successfully');
    expect(list.data[0]).toEqual({
      auditCode: expect.stringMatching(/^AUDIT-[0-9A-Z]{16}$/),
      action: 'UPDATE',
      collection: 'genders',
      recordCode: gender.genderCode,
      changes: {},
      before: gender,
      after: expect.objectContaining({ genderCode: gender.genderCode, genderName: 'Audited' }),
      user: { userCode: expect.any(String), username: 'admin' },
      createdAt: expect.any(String),
    });
    expect(list.data[1]).toMatchObject({
      action: 'CREATE',
      collection: 'genders',
      before: null,
      after: gender,
    });

    const logins = (
      await t.get('GetAudits', admin, { keyword: 'LOGIN', sortField: 'createdAt', sortValue: 'asc' })
    ).json();
    expect(logins.data[0]).toMatchObject({
      action: 'LOGIN',
      collection: 'auth',
      after: { username: 'admin' },
    });
    const byCollection = (await t.get('GetAudits', admin, { keyword: 'GENDERS' })).json();
    expect(byCollection.total).toBe(2);
    const byUser = (
      await t.get('GetAudits', admin, { sortField: 'user.username', sortValue: 'asc', limit: 100 })
    ).json();
    const usernames = byUser.data.map((a: { user: { username: string } | null }) => a.user?.username ?? null);
    expect(usernames.filter(Boolean)).toEqual([...usernames.filter(Boolean)].sort());
    expectError(await t.get('GetAudits', admin, { sortField: 'before' }), 400, 'Invalid input');
    const bare = (await t.get('GetAudits', admin, { keyword: 'genders', populate: 'false' })).json();
    expect(bare.data[0].user).toEqual({ userCode: expect.any(String) });
    expect(bare.data[0].changes).toEqual({});
  });

  it('gives one record exactly as stored, and has no way to change or delete one', async () => {
    const row = (await t.handle.db.select().from(audits).where(eq(audits.action, 'CREATE')))[0]!;
    const one = expectOk(
      await t.post('GetAuditByCode', { auditCode: row.auditCode }, admin),
      'Audit Log fetched successfully',
    );
    expect(one.data).toMatchObject({
      auditCode: row.auditCode,
      before: row.before,
      after: row.after,
      changes: row.changes,
    });
    expectError(
      await t.post('GetAuditByCode', { auditCode: 'AUDIT-NOPE' }, admin),
      404,
      'Audit Log not found',
    );
    for (const path of ['CreateAudit', 'UpdateAudit', 'DeleteAudit']) {
      expect((await t.post(path, { auditCode: row.auditCode }, admin)).statusCode).toBe(404);
    }
    expect(await t.handle.db.select().from(audits).where(eq(audits.auditCode, row.auditCode))).toHaveLength(
      1,
    );
  });

  it('needs VIEW_AUDITS, and never holds a password', async () => {
    const stranger = await t.userWith(['VIEW_USERS']);
    expectError(await t.get('GetAudits', stranger.cookie), 403, 'You do not have permission to do this');
    const row = (await t.handle.db.select().from(audits))[0]!;
    expectError(
      await t.post('GetAuditByCode', { auditCode: row.auditCode }, stranger.cookie),
      403,
      'You do not have permission to do this',
    );
    const auditor = await t.userWith(['VIEW_AUDITS']);
    const roleCode = (await t.post('CreateRole', { roleName: 'Temp' }, admin)).json().data.roleCode;
    const u = (
      await t.post(
        'register',
        { username: 'audited', email: 'audited@example.com', password: 'secret-password-123', roleCode },
        admin,
      )
    ).json().data;
    await t.post('UpdateUser', { ...u, roleCode, password: 'other-password-456' }, admin);
    await t.post('DeleteUser', { userCode: u.userCode }, admin);
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: 'username=audited&password=wrong-password-1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const all = expectOk(
      await t.get('GetAudits', auditor.cookie, { limit: 100 }),
      'Audit Logs fetched successfully',
    );
    expect(all.data.map((a: Json) => a.action)).toEqual(
      expect.arrayContaining(['CREATE', 'UPDATE', 'DELETE', 'LOGIN_FAILED']),
    );
    expectNoSecrets(all.data);
    const stored = JSON.stringify(await t.handle.db.select().from(audits));
    for (const secret of ['secret-password-123', 'other-password-456', 'wrong-password-1', '$argon2']) {
      expect(stored).not.toContain(secret);
    }
  });
});
