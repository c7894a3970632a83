import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { employees } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, lastAudit, names } from './support.ts';

const t = sharedTestApp();
let admin: string;
let sales: Json;
let support: Json;
let roleCode: string;

beforeAll(async () => {
  admin = await t.login();
  sales = (await t.post('CreateDepartment', { name: 'Sales' }, admin)).json().data;
  support = (await t.post('CreateDepartment', { name: 'Support' }, admin)).json().data;
  roleCode = (await t.post('CreateRole', { roleName: 'Staff' }, admin)).json().data.roleCode;
});

async function user(username: string) {
  const res = await t.post(
    'register',
    { username, email: `${username}@example.com`, password: 'staff-password-1', roleCode },
    admin,
  );
  return expectOk(res, 'User created successfully').data as { userCode: string; username: string };
}

const employee = (body: Json) => t.post('CreateEmployee', body, admin);

describe('employees', () => {
  it('creates with a department and an optional user, and audits', async () => {
    const u = await user('emma');
    const created = expectOk(
      await employee({
        employeeId: 'S-001',
        name: 'Emma Stone',
        departmentCode: sales.departmentCode,
        joinDate: '2021-06-15',
        userCode: u.userCode,
      }),
      'Employee created successfully',
    ).data;
    expect(created).toEqual({
      employeeCode: expect.stringMatching(/^EMP-[0-9A-Z]{16}$/),
      employeeId: 'S-001',
      name: 'Emma Stone',
      department: { departmentCode: sales.departmentCode, name: 'Sales' },
      joinDate: '2021-06-15',
      user: { userCode: u.userCode, username: 'emma' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await lastAudit(t, 'employees')).toMatchObject({ action: 'CREATE', after: created });

    const noUser = expectOk(
      await employee({
        employeeId: 'S-002',
        name: 'No Login',
        departmentCode: sales.departmentCode,
        joinDate: '2020-01-01',
        userCode: '',
      }),
      'Employee created successfully',
    ).data;
    expect(noUser.user).toBeNull();

    const byUser = expectOk(
      await t.post('GetEmployeeByUserCode', { userCode: u.userCode }, admin),
      'Employee fetched successfully',
    );
    expect(byUser.data).toEqual(created);
    const lonely = await user('lonely');
    expectError(
      await t.post('GetEmployeeByUserCode', { userCode: lonely.userCode }, admin),
      404,
      'Employee not found',
    );

    const moved = expectOk(
      await t.post(
        'UpdateEmployee',
        {
          employeeCode: created.employeeCode,
          employeeId: 'S-001',
          name: 'Emma Stone',
          departmentCode: support.departmentCode,
          joinDate: '2021-06-15',
          userCode: '',
        },
        admin,
      ),
      'Employee updated successfully',
    ).data;
    expect(moved).toMatchObject({ department: { name: 'Support' }, user: null });
    expect((await lastAudit(t, 'employees')).changes).toEqual({
      'department.departmentCode': { old: sales.departmentCode, new: support.departmentCode },
      'department.name': { old: 'Sales', new: 'Support' },
      'user.userCode': { old: u.userCode, new: null },
      'user.username': { old: 'emma', new: null },
    });
    const [row] = await t.handle.db
      .select()
      .from(employees)
      .where(eq(employees.employeeCode, created.employeeCode as string));
    expect(row!.userCode).toBeNull();
  });

  it('refuses bad dates, unknown references, a second employee for a user and duplicate ids', async () => {
    const bad = expectError(
      await employee({ employeeId: '', name: '', departmentCode: '', joinDate: '2024-02-30' }),
      400,
      'Invalid input',
    );
    expect(bad.errors).toEqual([
      { field: 'employeeId', message: 'Employee Id is required' },
      { field: 'name', message: 'Name is required' },
      { field: 'departmentCode', message: 'Department is required' },
      { field: 'joinDate', message: 'Join date must be a real date' },
    ]);
    const refs = expectError(
      await employee({
        employeeId: 'X-1',
        name: 'X',
        departmentCode: 'DEPT-NOPE',
        joinDate: '2024-02-29',
        userCode: 'USER-NOPE',
      }),
      400,
      'Invalid input',
    );
    expect(refs.errors).toEqual([
      { field: 'departmentCode', message: 'Department not found' },
      { field: 'userCode', message: 'User not found' },
    ]);
    const u = await user('twice');
    expectOk(
      await employee({
        employeeId: 'T-1',
        name: 'Twice',
        departmentCode: sales.departmentCode,
        joinDate: '2024-01-01',
        userCode: u.userCode,
      }),
      'Employee created successfully',
    );
    const second = expectError(
      await employee({
        employeeId: 'T-2',
        name: 'Twice Again',
        departmentCode: sales.departmentCode,
        joinDate: '2024-01-01',
        userCode: u.userCode,
      }),
      409,
      'This user is already linked to an employee',
    );
    expect(second.errors).toEqual([
      { field: 'userCode', message: 'This user is already linked to an employee' },
    ]);
    const dupId = expectError(
      await employee({
        employeeId: 't-1',
        name: 'Copy',
        departmentCode: sales.departmentCode,
        joinDate: '2024-01-01',
      }),
      409,
      'This Employee Id is already in use',
    );
    expect(dupId.errors).toEqual([{ field: 'employeeId', message: 'This Employee Id is already in use' }]);
    expect(await t.handle.db.select().from(employees).where(eq(employees.name, 'Copy'))).toEqual([]);
    expectError(
      await t.post('DeleteUser', { userCode: u.userCode }, admin),
      409,
      'Cannot delete this user: it is still used by 1 employee',
    );
  });

  it("lists a department's employees, sorts by joined names and searches them", async () => {
    const ops = (await t.post('CreateDepartment', { name: 'Operations' }, admin)).json().data;
    const zed = await user('zed');
    const amy = await user('amy');
    await employee({
      employeeId: 'O-2',
      name: 'Zed Ops',
      departmentCode: ops.departmentCode,
      joinDate: '2019-01-01',
      userCode: zed.userCode,
    });
    await employee({
      employeeId: 'O-1',
      name: 'Amy Ops',
      departmentCode: ops.departmentCode,
      joinDate: '2018-01-01',
      userCode: amy.userCode,
    });
    await employee({
      employeeId: 'O-3',
      name: 'Nobody Ops',
      departmentCode: ops.departmentCode,
      joinDate: '2017-01-01',
    });

    const sub = expectOk(
      await t.post('GetEmployeesByDepartmentCode', { departmentCode: ops.departmentCode }, admin, {
        sortField: 'user.username',
        sortValue: 'asc',
      }),
      'Employees fetched successfully',
    );
    expect(sub.total).toBe(3);
    expect(names(sub.data)).toEqual(['Amy Ops', 'Zed Ops', 'Nobody Ops']);
    const byDate = (
      await t.post('GetEmployeesByDepartmentCode', { departmentCode: ops.departmentCode }, admin, {
        sortField: 'joinDate',
        sortValue: 'asc',
        limit: 2,
      })
    ).json();
    expect(names(byDate.data)).toEqual(['Nobody Ops', 'Amy Ops']);
    expectError(
      await t.post('GetEmployeesByDepartmentCode', { departmentCode: 'DEPT-NOPE' }, admin),
      404,
      'Department not found',
    );

    const byDept = (
      await t.get('GetEmployees', admin, {
        keyword: 'operations',
        sortField: 'employeeId',
        sortValue: 'desc',
      })
    ).json();
    expect(names(byDept.data)).toEqual(['Nobody Ops', 'Zed Ops', 'Amy Ops']);
    const byUsername = (await t.get('GetEmployees', admin, { keyword: 'ZED' })).json();
    expect(names(byUsername.data)).toEqual(['Zed Ops']);
    const deptSorted = (
      await t.get('GetEmployees', admin, { sortField: 'department.name', sortValue: 'asc', limit: 100 })
    ).json();
    const deptNames = deptSorted.data.map((e: { department: { name: string } }) => e.department.name);
    expect(deptNames).toEqual([...deptNames].sort());
    const bare = (await t.get('GetEmployees', admin, { keyword: 'Zed Ops', populate: 'false' })).json();
    expect(bare.data[0]).toMatchObject({
      department: { departmentCode: ops.departmentCode },
      user: { userCode: zed.userCode },
    });
    expect(Object.keys(bare.data[0].department)).toEqual(['departmentCode']);
  });

  it('lets the employee form load departments and users as codes and names, and nothing more', async () => {
    const hr = await t.userWith(['CREATE_EMPLOYEE']);
    const depts = expectOk(
      await t.get('GetDepartments', hr.cookie, { sortField: 'name', sortValue: 'asc' }),
      'Departments fetched successfully',
    );
    expect(depts.data[0]).toEqual({ departmentCode: expect.any(String), name: 'Operations' });
    expectError(await t.get('GetEmployees', hr.cookie), 403, 'You do not have permission to do this');
    expectError(
      await t.post('GetDepartmentByCode', { departmentCode: sales.departmentCode }, hr.cookie),
      403,
      'You do not have permission to do this',
    );
    const created = expectOk(
      await t.post(
        'CreateEmployee',
        { employeeId: 'HR-1', name: 'By HR', departmentCode: sales.departmentCode, joinDate: '2024-05-05' },
        hr.cookie,
      ),
      'Employee created successfully',
    ).data;
    // The join date is personal data this role may write but not read back.
    expect(created).not.toHaveProperty('joinDate');
    expect(await lastAudit(t, 'employees')).toMatchObject({
      action: 'CREATE',
      after: { ...created, joinDate: '2024-05-05' },
      userCode: hr.userCode,
    });

    const editor = await t.userWith(['UPDATE_EMPLOYEE']);
    expectOk(
      await t.post('GetEmployeeByCode', { employeeCode: created.employeeCode }, editor.cookie),
      'Employee fetched successfully',
    );
    expectError(
      await t.post('GetEmployeeByUserCode', { userCode: 'USER-X' }, editor.cookie),
      403,
      'You do not have permission to do this',
    );

    const del = expectOk(
      await t.post('DeleteEmployee', { employeeCode: created.employeeCode }, admin),
      'Employee deleted successfully',
    );
    // The Administrator sees the join date the creator could not read back.
    const stored = { ...created, joinDate: '2024-05-05' };
    expect(del.data).toEqual(stored);
    expect(await lastAudit(t, 'employees')).toMatchObject({ action: 'DELETE', before: stored, after: null });
    expectError(
      await t.post('DeleteEmployee', { employeeCode: created.employeeCode }, admin),
      404,
      'Employee not found',
    );
  });
});
