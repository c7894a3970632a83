import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits, departments, employees, genders, users } from '../../../src/db/schema/index.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, lastAudit, permissionCodes } from './support.ts';

/* "Restore this version": an audited update's `before` applied to its record as a new update. */

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

const NOT_ALLOWED = 'You do not have permission to do this';

async function gender(genderName: string) {
  return expectOk(await t.post('CreateGender', { genderName }, admin), 'Gender created successfully')
    .data as Json;
}

/** Renames a gender and returns the audit entry of that update. */
async function renamed(made: Json, genderName: string) {
  expectOk(
    await t.post('UpdateGender', { genderCode: made.genderCode, genderName, version: made.version }, admin),
    'Gender updated successfully',
  );
  const entry = await lastAudit(t, 'genders');
  expect(entry).toMatchObject({ action: 'UPDATE', recordCode: made.genderCode });
  return entry.auditCode;
}

const storedGender = async (genderCode: unknown) =>
  (
    await t.handle.db
      .select()
      .from(genders)
      .where(eq(genders.genderCode, String(genderCode)))
  )[0];

const entriesOf = (recordCode: unknown) =>
  t.handle.db
    .select()
    .from(audits)
    .where(eq(audits.recordCode, String(recordCode)))
    .orderBy(asc(audits.id));

describe('RestoreVersion', () => {
  it('gives a gender its old name back as a new version, audited as an update that names the entry', async () => {
    const made = await gender('Restore alpha');
    const auditCode = await renamed(made, 'Restore beta');
    const restored = expectOk(
      await t.post('RestoreVersion', { auditCode, version: 2 }, admin),
      'Gender updated successfully',
    ).data;
    expect(restored).toMatchObject({ genderCode: made.genderCode, genderName: 'Restore alpha', version: 3 });
    expect(await storedGender(made.genderCode)).toMatchObject({ genderName: 'Restore alpha', version: 3 });
    const entries = await entriesOf(made.genderCode);
    expect(entries.map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expect(entries[2]).toMatchObject({
      collection: 'genders',
      username: 'admin',
      before: { genderName: 'Restore beta', version: 2 },
      after: { genderName: 'Restore alpha', version: 3, restoredFrom: auditCode },
      changes: {
        genderName: { old: 'Restore beta', new: 'Restore alpha' },
        restoredFrom: { old: null, new: auditCode },
      },
    });
  });

  it("restores a department's name and managers, which its form reads from a list", async () => {
    const dept = expectOk(
      await t.post('CreateDepartment', { name: 'Restore Ops' }, admin),
      'Department created successfully',
    ).data as Json;
    const employee = expectOk(
      await t.post(
        'CreateEmployee',
        {
          employeeId: 'RV-1',
          name: 'Rita Vale',
          departmentCode: dept.departmentCode,
          joinDate: '2024-01-02',
        },
        admin,
      ),
      'Employee created successfully',
    ).data as Json;
    const managed = {
      departmentCode: dept.departmentCode,
      name: 'Restore Ops',
      managerCodes: [employee.employeeCode],
    };
    expectOk(await t.post('UpdateDepartment', managed, admin), 'Department updated successfully');
    expectOk(
      await t.post(
        'UpdateDepartment',
        { departmentCode: dept.departmentCode, name: 'Restore Logistics' },
        admin,
      ),
      'Department updated successfully',
    );
    const { auditCode } = await lastAudit(t, 'departments');
    const restored = expectOk(
      await t.post('RestoreVersion', { auditCode, version: 3 }, admin),
      'Department updated successfully',
    ).data;
    expect(restored).toMatchObject({
      name: 'Restore Ops',
      managers: [{ employeeCode: employee.employeeCode, name: 'Rita Vale' }],
      version: 4,
    });
    const [row] = await t.handle.db
      .select()
      .from(departments)
      .where(eq(departments.departmentCode, String(dept.departmentCode)));
    expect(row).toMatchObject({ name: 'Restore Ops', version: 4 });
  });

  it('refuses without a session (401) and without the UPDATE permission of the entry’s module (403)', async () => {
    const made = await gender('Restore guarded');
    const auditCode = await renamed(made, 'Restore guarded 2');
    expectError(await t.post('RestoreVersion', { auditCode, version: 2 }), 401, 'Not signed in');
    const reader = await t.userWith(['VIEW_GENDERS', 'VIEW_AUDITS']);
    expectError(await t.post('RestoreVersion', { auditCode, version: 2 }, reader.cookie), 403, NOT_ALLOWED);
    // The UPDATE permission of another module is not enough.
    const other = await t.userWith(['UPDATE_DEPARTMENT', 'VIEW_AUDITS']);
    expectError(await t.post('RestoreVersion', { auditCode, version: 2 }, other.cookie), 403, NOT_ALLOWED);
    expect(await storedGender(made.genderCode)).toMatchObject({
      genderName: 'Restore guarded 2',
      version: 2,
    });
    const editor = await t.userWith(['UPDATE_GENDER']);
    expectOk(
      await t.post('RestoreVersion', { auditCode, version: 2 }, editor.cookie),
      'Gender updated successfully',
    );
    expect(await storedGender(made.genderCode)).toMatchObject({ genderName: 'Restore guarded', version: 3 });
  });

  it('refuses what is not an update of a restorable module (400), and a malformed body', async () => {
    const made = await gender('Restore created');
    const [created] = await entriesOf(made.genderCode);
    expectError(
      await t.post('RestoreVersion', { auditCode: created?.auditCode, version: 1 }, admin),
      400,
      'Only an update can be restored',
    );
    const [signIn] = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.collection, 'auth'), eq(audits.action, 'LOGIN')));
    expectError(
      await t.post('RestoreVersion', { auditCode: signIn?.auditCode, version: 1 }, admin),
      400,
      'Only an update can be restored',
    );
    const noVersion = expectError(
      await t.post('RestoreVersion', { auditCode: created?.auditCode }, admin),
      400,
      'Invalid input',
    );
    expect(noVersion.errors).toEqual([{ field: 'version', message: 'Version is required' }]);
    const noCode = expectError(await t.post('RestoreVersion', { version: 'x' }, admin), 400, 'Invalid input');
    expect(noCode.errors).toEqual([
      { field: 'auditCode', message: 'Audit code is required' },
      { field: 'version', message: 'Version must be a whole number of at least 1' },
    ]);
    expect(await storedGender(made.genderCode)).toMatchObject({ genderName: 'Restore created', version: 1 });
  });

  it('refuses a version whose personal data has been erased since, and leaves the record as it is', async () => {
    const departmentCode = expectOk(
      await t.post('CreateDepartment', { name: 'Erasures' }, admin),
      'Department created successfully',
    ).data.departmentCode;
    const made = expectOk(
      await t.post(
        'CreateEmployee',
        { employeeId: 'EMP-ER-1', name: 'Otto Forgotten', departmentCode, joinDate: '2020-01-01' },
        admin,
      ),
      'Employee created successfully',
    ).data as Json;
    const changed = expectOk(
      await t.post(
        'UpdateEmployee',
        { ...made, departmentCode, name: 'Otto Renamed', version: made.version },
        admin,
      ),
      'Employee updated successfully',
    ).data as Json;
    const { auditCode } = await lastAudit(t, 'employees');
    expectOk(
      await t.post(
        'ErasePersonalData',
        { employeeCode: made.employeeCode, currentPassword: ADMIN_PASSWORD },
        admin,
      ),
      'Personal data erased',
    );
    expectError(
      await t.post('RestoreVersion', { auditCode, version: Number(changed.version) + 1 }, admin),
      400,
      'This version held personal data that has been erased: it cannot be restored',
    );
    const [kept] = await t.handle.db
      .select()
      .from(employees)
      .where(eq(employees.employeeCode, String(made.employeeCode)));
    expect(kept?.name).toMatch(/^Erased employee \d+$/);
  });

  it('answers 404 for an unknown entry, and for a record deleted since', async () => {
    expectError(
      await t.post('RestoreVersion', { auditCode: 'AUDIT-NOSUCHENTRY0000', version: 1 }, admin),
      404,
      'Audit entry not found',
    );
    const made = await gender('Restore gone');
    const auditCode = await renamed(made, 'Restore gone 2');
    expectOk(
      await t.post('DeleteGender', { genderCode: made.genderCode }, admin),
      'Gender deleted successfully',
    );
    expectError(await t.post('RestoreVersion', { auditCode, version: 2 }, admin), 404, 'Gender not found');
    expect(await storedGender(made.genderCode)).toBeUndefined();
    expect((await entriesOf(made.genderCode)).map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('refuses a stale version with 409, the record as it stands and who changed it', async () => {
    const made = await gender('Restore stale');
    const auditCode = await renamed(made, 'Restore stale 2');
    expectOk(
      await t.post(
        'UpdateGender',
        { genderCode: made.genderCode, genderName: 'Restore stale 3', version: 2 },
        admin,
      ),
      'Gender updated successfully',
    );
    const res = await t.post('RestoreVersion', { auditCode, version: 2 }, admin);
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.message).toMatch(
      /^This gender was changed by admin at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC since you opened it$/,
    );
    expect(body.data).toMatchObject({
      genderCode: made.genderCode,
      genderName: 'Restore stale 3',
      version: 3,
    });
    expect(await storedGender(made.genderCode)).toMatchObject({ genderName: 'Restore stale 3', version: 3 });
    expect(await entriesOf(made.genderCode)).toHaveLength(3);
  });

  it('refuses a name another record has taken since, as an update would, and changes nothing', async () => {
    const made = await gender('Restore taken');
    const auditCode = await renamed(made, 'Restore moved');
    const other = await gender('Restore taken');
    const body = expectError(
      await t.post('RestoreVersion', { auditCode, version: 2 }, admin),
      409,
      'A gender with this name already exists',
    );
    expect(body.errors).toEqual([{ field: 'genderName', message: 'A gender with this name already exists' }]);
    expect(await storedGender(made.genderCode)).toMatchObject({ genderName: 'Restore moved', version: 2 });
    expect(await storedGender(other.genderCode)).toMatchObject({ genderName: 'Restore taken', version: 1 });
    expect(await entriesOf(made.genderCode)).toHaveLength(2);
  });

  it("applies the module's delegation rules: a user manager cannot restore a role they do not hold", async () => {
    const [viewUsers, viewAudits] = await permissionCodes(t, 'VIEW_USERS', 'VIEW_AUDITS');
    const wide = expectOk(
      await t.post(
        'CreateRole',
        { roleName: 'Restore wide', rolePermissions: [viewUsers, viewAudits] },
        admin,
      ),
      'Role created successfully',
    ).data as Json;
    const narrow = expectOk(
      await t.post('CreateRole', { roleName: 'Restore narrow', rolePermissions: [viewUsers] }, admin),
      'Role created successfully',
    ).data as Json;
    const user = expectOk(
      await t.post(
        'register',
        {
          username: 'restore.user',
          email: 'restore.user@example.com',
          password: 'restore-pass-123',
          roleCode: wide.roleCode,
        },
        admin,
      ),
      'User created successfully',
    ).data as Json;
    const update = {
      userCode: user.userCode,
      username: user.username,
      email: user.email,
      roleCode: narrow.roleCode,
    };
    expectOk(await t.post('UpdateUser', update, admin), 'User updated successfully');
    const { auditCode } = await lastAudit(t, 'users');
    const manager = await t.userWith(['VIEW_USERS', 'UPDATE_USER']);
    expectError(
      await t.post('RestoreVersion', { auditCode, version: 2 }, manager.cookie),
      403,
      'You cannot assign a role with permissions you do not hold',
    );
    const [row] = await t.handle.db
      .select()
      .from(users)
      .where(eq(users.userCode, String(user.userCode)));
    expect(row).toMatchObject({ roleCode: narrow.roleCode, version: 2 });
    expect(
      expectOk(await t.post('RestoreVersion', { auditCode, version: 2 }, admin), 'User updated successfully')
        .data,
    ).toMatchObject({ role: { roleCode: wide.roleCode }, version: 3 });
  });
});
