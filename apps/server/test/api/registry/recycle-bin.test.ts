import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  audits,
  deletedRecords,
  departments,
  profilePictures,
  rolePermissions,
  roles,
  sessions,
  states,
} from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope, expectError, expectOk } from '../../support/envelope.ts';
import { company, PASSWORD, registerUser, scopedRole } from '../scopes/support.ts';
import { type Json, permissionCodes, pngImage, postMultipart } from './support.ts';

/*
 * The recycle bin: a delete keeps the record, its holders of the module's DELETE permission list,
 * restore and permanently delete it, each audited.
 */

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

const createDepartment = async (name: string) =>
  expectOk(await t.post('CreateDepartment', { name }, admin), 'Department created successfully').data as {
    departmentCode: string;
    version: number;
  };

const binEntry = async (collection: string, code: string) =>
  (
    await t.handle.db
      .select()
      .from(deletedRecords)
      .where(and(eq(deletedRecords.collection, collection), eq(deletedRecords.recordCode, code)))
  )[0];

const entriesOf = async (collection: string, code: string) =>
  t.handle.db
    .select({ action: audits.action, username: audits.username, before: audits.before, after: audits.after })
    .from(audits)
    .where(and(eq(audits.collection, collection), eq(audits.recordCode, code)))
    .orderBy(asc(audits.id));

const bin = (module: string, cookie: string, query: Record<string, string | number> = {}) =>
  t.get('GetDeletedRecords', cookie, { module, ...query });

describe('a delete moves the record to the bin', () => {
  it('keeps it out of lists, views and unique checks, and lists it with who deleted it and when', async () => {
    const dept = await createDepartment('Binned Sales');
    const deleted = expectOk(
      await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin),
      'Department deleted successfully',
    ).data as Json;
    expect(
      await t.handle.db.select().from(departments).where(eq(departments.departmentCode, dept.departmentCode)),
    ).toEqual([]);
    expectError(
      await t.post('GetDepartmentByCode', { departmentCode: dept.departmentCode }, admin),
      404,
      'Department not found',
    );
    const entry = await binEntry('departments', dept.departmentCode);
    expect(entry).toMatchObject({ name: 'Binned Sales', ownerCode: null, record: deleted });
    expect(Object.keys(entry?.rows as Json)).toEqual(['departments']);
    const listed = expectOk(
      await bin('departments', admin, { keyword: 'binned' }),
      'Deleted records fetched successfully',
    );
    expect(listed.total).toBe(1);
    expect(listed.data).toEqual([
      {
        module: 'departments',
        recordCode: dept.departmentCode,
        name: 'Binned Sales',
        deletedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        deletedBy: { userCode: expect.any(String), username: 'admin' },
      },
    ]);
    expect((await entriesOf('departments', dept.departmentCode)).map((a) => a.action)).toEqual([
      'CREATE',
      'DELETE',
    ]);
    // The name is free again for a new department.
    await createDepartment('Binned Sales');
  });

  it('pages, sorts and searches a module bin', async () => {
    const names = ['Paged A', 'Paged B', 'Paged C'];
    for (const name of names) {
      const d = await createDepartment(name);
      await t.post('DeleteDepartment', { departmentCode: d.departmentCode }, admin);
    }
    const first = expectOk(
      await bin('departments', admin, { keyword: 'paged', limit: 2, sortField: 'name', sortValue: 'asc' }),
      'Deleted records fetched successfully',
    );
    expect(first.total).toBe(3);
    expect((first.data as Json[]).map((r) => r.name)).toEqual(['Paged A', 'Paged B']);
    const second = expectOk(
      await bin('departments', admin, {
        keyword: 'paged',
        limit: 2,
        page: 2,
        sortField: 'name',
        sortValue: 'asc',
      }),
      'Deleted records fetched successfully',
    );
    expect((second.data as Json[]).map((r) => r.name)).toEqual(['Paged C']);
    const newest = expectOk(
      await bin('departments', admin, { keyword: 'paged' }),
      'Deleted records fetched successfully',
    );
    expect((newest.data as Json[]).map((r) => r.name)).toEqual(['Paged C', 'Paged B', 'Paged A']);
    expectOk(await bin('genders', admin, { keyword: 'paged' }), 'Deleted records fetched successfully');
    expect((await bin('genders', admin, { keyword: 'paged' })).json().total).toBe(0);
  });

  it('bins every record of a bulk delete', async () => {
    const a = await createDepartment('Bulk bin A');
    const b = await createDepartment('Bulk bin B');
    expectOk(
      await t.postJson('DeleteDepartments', { codes: [a.departmentCode, b.departmentCode] }, admin),
      'Departments deleted successfully',
    );
    expect(await binEntry('departments', a.departmentCode)).toBeDefined();
    expect(await binEntry('departments', b.departmentCode)).toBeDefined();
  });

  it('leaves nothing in the bin when the delete is refused', async () => {
    const dept = await createDepartment('Refused bin');
    await t.post(
      'CreateEmployee',
      {
        employeeId: 'BIN-1',
        name: 'Bin Keeper',
        departmentCode: dept.departmentCode,
        joinDate: '2021-03-01',
      },
      admin,
    );
    expectError(
      await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin),
      409,
      'Cannot delete this department: it is still used by 1 employee',
    );
    expect(await binEntry('departments', dept.departmentCode)).toBeUndefined();
  });
});

describe('RestoreRecord', () => {
  it('brings a role back with its code, version, history and permissions', async () => {
    const codes = await permissionCodes(t, 'VIEW_GENDERS', 'VIEW_SKILLS');
    const role = expectOk(
      await t.postJson('CreateRole', { roleName: 'Binned role', rolePermissions: codes }, admin),
      'Role created successfully',
    ).data as Json;
    const updated = expectOk(
      await t.postJson(
        'UpdateRole',
        { roleCode: role.roleCode, roleName: 'Binned role', roleDescription: 'Kept', rolePermissions: codes },
        admin,
      ),
      'Role updated successfully',
    ).data as Json;
    expectOk(await t.post('DeleteRole', { roleCode: role.roleCode }, admin), 'Role deleted successfully');
    expect(
      await t.handle.db
        .select()
        .from(rolePermissions)
        .where(eq(rolePermissions.roleCode, String(role.roleCode))),
    ).toEqual([]);
    expect(Object.keys((await binEntry('roles', String(role.roleCode)))?.rows as Json)).toEqual([
      'roles',
      'role_permissions',
    ]);

    const restored = expectOk(
      await t.post('RestoreRecord', { module: 'roles', roleCode: role.roleCode }, admin),
      'Role restored successfully',
    ).data as Json;
    expect(restored).toEqual(updated);
    expect(restored.version).toBe(2);
    const rows = await t.handle.db
      .select()
      .from(rolePermissions)
      .where(eq(rolePermissions.roleCode, String(role.roleCode)));
    expect(rows.map((r) => r.permissionCode).sort()).toEqual([...codes].sort());
    expect(await binEntry('roles', String(role.roleCode))).toBeUndefined();
    const history = await entriesOf('roles', String(role.roleCode));
    expect(history.map((a) => a.action)).toEqual(['CREATE', 'UPDATE', 'DELETE', 'RESTORE']);
    expect(history.at(-1)).toMatchObject({ username: 'admin', before: null, after: restored });
    expectOk(await t.post('GetRoleByCode', { roleCode: role.roleCode }, admin), 'Role fetched successfully');
    // The same id: the record keeps its place in creation order, and new records still get new ids.
    const [row] = await t.handle.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.roleCode, String(role.roleCode)));
    const later = expectOk(
      await t.postJson('CreateRole', { roleName: 'After restore', rolePermissions: codes }, admin),
      'Role created successfully',
    ).data as Json;
    const [next] = await t.handle.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.roleCode, String(later.roleCode)));
    expect(next!.id).toBeGreaterThan(row!.id);
  });

  it('refuses a restore whose name is taken since, and leaves the record in the bin', async () => {
    const dept = await createDepartment('Taken name');
    await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin);
    await createDepartment('TAKEN NAME');
    const refused = expectError(
      await t.post('RestoreRecord', { module: 'departments', departmentCode: dept.departmentCode }, admin),
      409,
      'Cannot restore this department: A department with this name already exists',
    );
    expect(refused.errors).toEqual([
      { field: 'name', message: 'A department with this name already exists' },
    ]);
    expect(await binEntry('departments', dept.departmentCode)).toBeDefined();
    expect((await entriesOf('departments', dept.departmentCode)).map((a) => a.action)).toEqual([
      'CREATE',
      'DELETE',
    ]);
  });

  it('refuses a state whose country is in the bin, naming it, and restores it once the country is back', async () => {
    const country = expectOk(
      await t.post('CreateCountry', { name: 'Binland', iso2: 'BQ', iso3: 'BQB' }, admin),
      'Country created successfully',
    ).data as Json;
    const state = expectOk(
      await t.post('CreateState', { name: 'Bin State', iso: 'BS', countryCode: country.countryCode }, admin),
      'State created successfully',
    ).data as Json;
    await t.post('DeleteState', { stateCode: state.stateCode }, admin);
    expectOk(
      await t.post('DeleteCountry', { countryCode: country.countryCode }, admin),
      'Country deleted successfully',
    );
    const refused = expectError(
      await t.post('RestoreRecord', { module: 'states', stateCode: state.stateCode }, admin),
      409,
      "Cannot restore this state: its country 'Binland' is in the recycle bin. Restore the country first",
    );
    expect(refused.data).toEqual({
      parent: { module: 'countries', recordCode: country.countryCode, name: 'Binland', inBin: true },
    });
    expect(
      await t.handle.db
        .select()
        .from(states)
        .where(eq(states.stateCode, String(state.stateCode))),
    ).toEqual([]);
    expectOk(
      await t.post('RestoreRecord', { module: 'countries', countryCode: country.countryCode }, admin),
      'Country restored successfully',
    );
    expect(
      expectOk(
        await t.post('RestoreRecord', { module: 'states', stateCode: state.stateCode }, admin),
        'State restored successfully',
      ).data,
    ).toEqual(state);
  });

  it('says a parent deleted for good no longer exists', async () => {
    const country = expectOk(
      await t.post('CreateCountry', { name: 'Goneland', iso2: 'GQ', iso3: 'GQG' }, admin),
      'Country created successfully',
    ).data as Json;
    const state = expectOk(
      await t.post('CreateState', { name: 'Gone State', iso: 'GS', countryCode: country.countryCode }, admin),
      'State created successfully',
    ).data as Json;
    await t.post('DeleteState', { stateCode: state.stateCode }, admin);
    await t.post('DeleteCountry', { countryCode: country.countryCode }, admin);
    expectOk(
      await t.post('PurgeRecord', { module: 'countries', countryCode: country.countryCode }, admin),
      'Record deleted permanently',
    );
    const refused = expectError(
      await t.post('RestoreRecord', { module: 'states', stateCode: state.stateCode }, admin),
      409,
      'Cannot restore this state: its country no longer exists',
    );
    expect(refused.data).toEqual({
      parent: { module: 'countries', recordCode: country.countryCode, name: null, inBin: false },
    });
  });

  it('restores a profile with its picture', async () => {
    const role = await scopedRole(t, admin, 'Bin people', { VIEW_GENDERS: 'all' });
    const userCode = await registerUser(t, admin, 'bin.person', role.roleCode);
    const gender = expectOk(
      await t.post('CreateGender', { genderName: 'Bin gender' }, admin),
      'Gender created successfully',
    ).data as Json;
    const created = await postMultipart(
      t,
      'CreateProfile',
      { firstName: 'Binny', lastName: 'Person', dob: '1990-01-01', genderCode: gender.genderCode, userCode },
      [{ name: 'p.png', type: 'image/png', data: await pngImage() }],
      admin,
    );
    const profile = expectOk(created, 'Profile created successfully').data as Json;
    const [picture] = await t.handle.db
      .select()
      .from(profilePictures)
      .where(eq(profilePictures.profileCode, String(profile.profileCode)));
    await t.post('DeleteProfile', { profileCode: profile.profileCode }, admin);
    expect((await binEntry('profiles', String(profile.profileCode)))?.ownerCode).toBe(userCode);
    expect(
      await t.handle.db
        .select()
        .from(profilePictures)
        .where(eq(profilePictures.profileCode, String(profile.profileCode))),
    ).toEqual([]);
    expect(
      expectOk(
        await t.post('RestoreRecord', { module: 'profiles', profileCode: profile.profileCode }, admin),
        'Profile restored successfully',
      ).data,
    ).toEqual(profile);
    const [back] = await t.handle.db
      .select()
      .from(profilePictures)
      .where(eq(profilePictures.profileCode, String(profile.profileCode)));
    expect(back?.original.equals(picture!.original)).toBe(true);
    expect(back?.thumbnail.equals(picture!.thumbnail)).toBe(true);
  });

  it('answers 404 for a record not in the bin and 400 for a wrong body', async () => {
    expectError(
      await t.post('RestoreRecord', { module: 'departments', departmentCode: 'DEPT-NONE' }, admin),
      404,
      'This record is not in the recycle bin',
    );
    const noCode = expectError(
      await t.post('RestoreRecord', { module: 'departments' }, admin),
      400,
      'Invalid input',
    );
    expect(noCode.errors).toEqual([{ field: 'departmentCode', message: 'Department code is required' }]);
    const badModule = expectError(
      await t.post('RestoreRecord', { module: 'audits', auditCode: 'x' }, admin),
      400,
      'Invalid input',
    );
    expect(badModule.errors?.[0]?.field).toBe('module');
    expectError(await bin('permissions', admin), 400, 'Invalid input');
    expectError(await t.get('GetDeletedRecords', admin), 400, 'Invalid input');
  });
});

describe('PurgeRecord', () => {
  it('deletes the bin entry for good, audited', async () => {
    const dept = await createDepartment('Purged');
    await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin);
    expectOk(
      await t.post('PurgeRecord', { module: 'departments', departmentCode: dept.departmentCode }, admin),
      'Record deleted permanently',
    );
    expect(await binEntry('departments', dept.departmentCode)).toBeUndefined();
    const history = await entriesOf('departments', dept.departmentCode);
    expect(history.map((a) => a.action)).toEqual(['CREATE', 'DELETE', 'PURGE']);
    expect(history.at(-1)).toMatchObject({ username: 'admin', after: null, before: { name: 'Purged' } });
    expectError(
      await t.post('RestoreRecord', { module: 'departments', departmentCode: dept.departmentCode }, admin),
      404,
      'This record is not in the recycle bin',
    );
    expectError(
      await t.post('PurgeRecord', { module: 'departments', departmentCode: dept.departmentCode }, admin),
      404,
      'This record is not in the recycle bin',
    );
  });
});

describe('who may use the bin', () => {
  it('answers 401 without a session and 403 without the module DELETE permission', async () => {
    const dept = await createDepartment('Guarded');
    await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin);
    const body = { module: 'departments', departmentCode: dept.departmentCode };
    expectError(await bin('departments', ''), 401, 'Not signed in');
    expectError(await t.post('RestoreRecord', body), 401, 'Not signed in');
    expectError(await t.post('PurgeRecord', body), 401, 'Not signed in');
    const { cookie: viewer } = await t.userWith(['VIEW_DEPARTMENTS', 'UPDATE_DEPARTMENT']);
    expectError(await bin('departments', viewer), 403, 'You do not have permission to do this');
    expectError(await t.post('RestoreRecord', body, viewer), 403, 'You do not have permission to do this');
    expectError(await t.post('PurgeRecord', body, viewer), 403, 'You do not have permission to do this');
    // Another module's DELETE permission opens the calls, not this module's bin.
    const { cookie: other } = await t.userWith(['DELETE_GENDER']);
    expectError(await bin('departments', other), 403, 'You do not have permission to do this');
    expectError(await t.post('RestoreRecord', body, other), 403, 'You do not have permission to do this');
    expectError(await t.post('PurgeRecord', body, other), 403, 'You do not have permission to do this');
    expectEnvelope(await bin('genders', other), 200);
    const { cookie: deleter } = await t.userWith(['DELETE_DEPARTMENT']);
    expect((await bin('departments', deleter, { keyword: 'Guarded' })).json().total).toBe(1);
    expectOk(await t.post('RestoreRecord', body, deleter), 'Department restored successfully');
  });
});

describe('erasure bypasses the bin', () => {
  it("deletes the person's deleted records and takes them out of others' kept in the bin", async () => {
    const role = await scopedRole(t, admin, 'Erased people', { VIEW_GENDERS: 'all' });
    const userCode = await registerUser(t, admin, 'bin.erased', role.roleCode);
    const gender = expectOk(
      await t.post('CreateGender', { genderName: 'Erasure gender' }, admin),
      'Gender created successfully',
    ).data as Json;
    const profile = expectOk(
      await postMultipart(
        t,
        'CreateProfile',
        {
          firstName: 'Zebulon',
          lastName: 'Quark',
          dob: '1990-01-01',
          genderCode: gender.genderCode,
          userCode,
        },
        [{ name: 'p.png', type: 'image/png', data: await pngImage() }],
        admin,
      ),
      'Profile created successfully',
    ).data as Json;
    await t.post('DeleteProfile', { profileCode: profile.profileCode }, admin);
    const home = await createDepartment('Erasure home');
    const employee = expectOk(
      await t.post(
        'CreateEmployee',
        {
          employeeId: 'ERASE-BIN-1',
          name: 'Zebulon Quark',
          departmentCode: home.departmentCode,
          joinDate: '2021-03-01',
          userCode,
        },
        admin,
      ),
      'Employee created successfully',
    ).data as Json;
    const managed = expectOk(
      await t.postJson(
        'CreateDepartment',
        { name: 'Managed erasure', managerCodes: [employee.employeeCode] },
        admin,
      ),
      'Department created successfully',
    ).data as Json;
    await t.post('DeleteDepartment', { departmentCode: managed.departmentCode }, admin);
    const kept = await binEntry('departments', String(managed.departmentCode));
    expect(JSON.stringify(kept)).toContain('Zebulon Quark');

    expectOk(
      await t.post('ErasePersonalData', { userCode, currentPassword: 'admin-password-1' }, admin),
      'Personal data erased',
    );
    expect(await binEntry('profiles', String(profile.profileCode))).toBeUndefined();
    const after = await binEntry('departments', String(managed.departmentCode));
    expect(JSON.stringify(after)).not.toContain('Zebulon');
    expect(JSON.stringify(after)).not.toContain('Quark');
    // Codes name nobody; the row that made them its manager is gone, as from a live department.
    expect((after?.rows as Record<string, unknown[]> | undefined)?.department_managers).toEqual([]);
    expect(after?.name).toBe('Managed erasure');
    expectOk(
      await t.post('RestoreRecord', { module: 'departments', departmentCode: managed.departmentCode }, admin),
      'Department restored successfully',
    );
  });
});

describe('a scoped DELETE permission', () => {
  it("shows and restores only the records the caller's scope reaches", async () => {
    const firm = await company(t, admin);
    expectOk(
      await t.post('DeleteEmployee', { employeeCode: firm.people.anna.employeeCode }, firm.lena),
      'Employee deleted successfully',
    );
    await t.post('DeleteEmployee', { employeeCode: firm.people.bert.employeeCode }, admin);
    const seen = expectOk(await bin('employees', firm.lena), 'Deleted records fetched successfully');
    expect((seen.data as Json[]).map((r) => r.name)).toEqual(['Anna Alpha']);
    expect(seen.total).toBe(1);
    expect((await bin('employees', admin)).json().total).toBe(2);
    expectError(
      await t.post(
        'RestoreRecord',
        { module: 'employees', employeeCode: firm.people.bert.employeeCode },
        firm.lena,
      ),
      403,
      'You cannot restore or delete this employee: it is outside the records your role reaches',
    );
    expectError(
      await t.post(
        'PurgeRecord',
        { module: 'employees', employeeCode: firm.people.bert.employeeCode },
        firm.lena,
      ),
      403,
      'You cannot restore or delete this employee: it is outside the records your role reaches',
    );
    expectOk(
      await t.post(
        'RestoreRecord',
        { module: 'employees', employeeCode: firm.people.anna.employeeCode },
        firm.lena,
      ),
      'Employee restored successfully',
    );
  });
});

describe('a restored user', () => {
  it('signs in again: sessions ended with the delete stay ended', async () => {
    const role = await scopedRole(t, admin, 'Bin sign-in', { VIEW_GENDERS: 'all' });
    const userCode = await registerUser(t, admin, 'bin.signin', role.roleCode);
    const cookie = await t.login('bin.signin', PASSWORD);
    expectOk(await t.post('DeleteUser', { userCode }, admin), 'User deleted successfully');
    expect(Object.keys((await binEntry('users', userCode))?.rows as Json)).toEqual(['users']);
    expectOk(
      await t.post('RestoreRecord', { module: 'users', userCode }, admin),
      'User restored successfully',
    );
    expect(await t.handle.db.select().from(sessions).where(eq(sessions.userCode, userCode))).toEqual([]);
    expectError(await t.get('GetGenders', cookie), 401, 'Not signed in');
    expectOk(
      await t.get('GetGenders', await t.login('bin.signin', PASSWORD)),
      'Genders fetched successfully',
    );
  });
});
