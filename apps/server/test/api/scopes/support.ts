import { newCode } from '../../../src/db/codes.ts';
import { profiles } from '../../../src/db/schema/index.ts';
import type { TestApp } from '../../support/app.ts';
import { expectOk } from '../../support/envelope.ts';
import { permissionCodes } from '../registry/support.ts';

export const PASSWORD = 'scoped-password-1';

type Scope = 'all' | 'team' | 'own';

/** A role holding each named permission at its scope, made through CreateRole as a browser would. */
export async function scopedRole(t: TestApp, admin: string, name: string, held: Record<string, Scope>) {
  const names = Object.keys(held);
  const codes = await permissionCodes(t, ...names);
  const res = await t.postJson(
    'CreateRole',
    {
      roleName: name,
      rolePermissions: codes,
      permissionScopes: Object.fromEntries(codes.map((c, i) => [c, held[names[i] ?? ''] ?? 'all'])),
    },
    admin,
  );
  return expectOk(res, 'Role created successfully').data as {
    roleCode: string;
    permissionScopes: Record<string, Scope>;
  };
}

export async function registerUser(t: TestApp, admin: string, username: string, roleCode: string) {
  const res = await t.post(
    'register',
    { username, email: `${username}@example.com`, password: PASSWORD, roleCode },
    admin,
  );
  return expectOk(res, 'User created successfully').data.userCode as string;
}

export async function makeEmployee(
  t: TestApp,
  admin: string,
  employeeId: string,
  name: string,
  departmentCode: string,
  userCode?: string,
) {
  const res = await t.post(
    'CreateEmployee',
    { employeeId, name, departmentCode, joinDate: '2021-03-01', ...(userCode ? { userCode } : {}) },
    admin,
  );
  return expectOk(res, 'Employee created successfully').data as { employeeCode: string; version: number };
}

/** A profile written directly: the picture upload is the profile tests' concern, not the scopes'. */
export async function makeProfile(t: TestApp, userCode: string, firstName: string, genderCode: string) {
  const profileCode = newCode('PROFILE-');
  await t.handle.db
    .insert(profiles)
    .values({ profileCode, firstName, lastName: 'Tester', dob: '1990-01-01', genderCode, userCode });
  await t.settle();
  return profileCode;
}

/**
 * A company of two departments: Alpha, managed by Lena (a team lead, employee of Alpha), with
 * Anna; and Beta, with Bert. Anna and Bert sign in with a self-service role; Lena with a team
 * role. Every person has a user and a profile.
 */
export async function company(t: TestApp, admin: string) {
  const dept = async (name: string) =>
    expectOk(await t.post('CreateDepartment', { name }, admin), 'Department created successfully').data
      .departmentCode as string;
  const alpha = await dept('Alpha');
  const beta = await dept('Beta');
  const genderCode = expectOk(
    await t.post('CreateGender', { genderName: 'Scoped' }, admin),
    'Gender created successfully',
  ).data.genderCode as string;
  const teamRole = await scopedRole(t, admin, 'Scoped team lead', {
    VIEW_EMPLOYEES: 'team',
    CREATE_EMPLOYEE: 'team',
    UPDATE_EMPLOYEE: 'team',
    DELETE_EMPLOYEE: 'team',
    VIEW_PROFILES: 'team',
    UPDATE_PROFILE: 'team',
    // The team's addresses and pictures: personal data this role needs to know.
    VIEW_PERSONAL_DATA: 'all',
    VIEW_PERFORMANCES: 'team',
    CREATE_PERFORMANCE: 'team',
    UPDATE_PERFORMANCE: 'team',
  });
  const ownRole = await scopedRole(t, admin, 'Scoped employee', {
    VIEW_EMPLOYEES: 'own',
    VIEW_PROFILES: 'own',
    UPDATE_PROFILE: 'own',
    VIEW_PERFORMANCES: 'own',
  });
  const users = {
    lena: await registerUser(t, admin, 'lena.lead', teamRole.roleCode),
    anna: await registerUser(t, admin, 'anna.alpha', ownRole.roleCode),
    bert: await registerUser(t, admin, 'bert.beta', ownRole.roleCode),
  };
  const people = {
    lena: await makeEmployee(t, admin, 'A-001', 'Lena Lead', alpha, users.lena),
    anna: await makeEmployee(t, admin, 'A-002', 'Anna Alpha', alpha, users.anna),
    bert: await makeEmployee(t, admin, 'B-001', 'Bert Beta', beta, users.bert),
  };
  const managed = await t.post(
    'UpdateDepartment',
    { departmentCode: alpha, name: 'Alpha', managerCodes: [people.lena.employeeCode] },
    admin,
  );
  expectOk(managed, 'Department updated successfully');
  const profileCodes = {
    lena: await makeProfile(t, users.lena, 'Lena', genderCode),
    anna: await makeProfile(t, users.anna, 'Anna', genderCode),
    bert: await makeProfile(t, users.bert, 'Bert', genderCode),
  };
  return {
    alpha,
    beta,
    genderCode,
    teamRole,
    ownRole,
    users,
    people,
    profiles: profileCodes,
    lena: await t.login('lena.lead', PASSWORD),
    anna: await t.login('anna.alpha', PASSWORD),
    bert: await t.login('bert.beta', PASSWORD),
  };
}

export type Company = Awaited<ReturnType<typeof company>>;
