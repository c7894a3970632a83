import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits, employees, profilePictures } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, postMultipart } from '../registry/support.ts';
import { type Company, company } from './support.ts';

/**
 * Employees and profiles held for a team (Lena manages Alpha: Lena and Anna) or for oneself
 * (Anna): every list, total, view, sub-list, export and write reaches only those records, and a
 * record beyond reach answers exactly as one that does not exist.
 */

const t = sharedTestApp();
let admin: string;
let c: Company;

const CHANGE = 'You cannot change this employee: it is outside the records your role reaches';
const DELETE = 'You cannot delete this employee: it is outside the records your role reaches';
const CREATE = 'You cannot create an employee outside the records your role reaches';
const PROFILE_CHANGE = 'You cannot change this profile: it is outside the records your role reaches';

beforeAll(async () => {
  admin = await t.login();
  c = await company(t, admin);
});

const names = (data: Json[]) => data.map((r) => String(r.name ?? r.firstName)).sort();
/** The audit entries of employee records: a refused write adds none. */
const auditCount = async () =>
  (await t.handle.db.select().from(audits).where(eq(audits.collection, 'employees'))).length;

async function list(path: string, cookie: string, query: Record<string, string | number> = {}) {
  const res = await t.get(path, cookie, query);
  const body = expectOk(res, res.json().message);
  return { names: names(body.data), total: body.total as number };
}

describe('department managers', () => {
  it('are answered on the department record, and must be employees', async () => {
    const alpha = expectOk(
      await t.post('GetDepartmentByCode', { departmentCode: c.alpha }, admin),
      'Department fetched successfully',
    ).data;
    expect(alpha.managers).toEqual([{ employeeCode: c.people.lena.employeeCode, name: 'Lena Lead' }]);
    const unknown = expectError(
      await t.post('CreateDepartment', { name: 'Gamma', managerCodes: ['EMP-0000000000000000'] }, admin),
      400,
      'Invalid input',
    );
    expect(unknown.errors).toEqual([
      { field: 'managerCodes', message: 'Employee not found: EMP-0000000000000000' },
    ]);
  });

  it('are chosen from every employee by whoever edits departments, as names only', async () => {
    const editor = await t.userWith(['UPDATE_DEPARTMENT']);
    const options = expectOk(await t.get('GetEmployees', editor.cookie), 'Employees fetched successfully');
    expect(options.total).toBeGreaterThanOrEqual(3);
    expect(Object.keys(options.data[0]).sort()).toEqual(['employeeCode', 'name']);
  });
});

describe('employees held for a team', () => {
  it('lists only the team, and counts only it', async () => {
    expect(await list('GetEmployees', c.lena)).toEqual({ names: ['Anna Alpha', 'Lena Lead'], total: 2 });
    expect(await list('GetEmployees', c.lena, { limit: 1 })).toMatchObject({ total: 2 });
    expect(await list('GetEmployees', c.lena, { keyword: 'Bert' })).toEqual({ names: [], total: 0 });
    expect(await list('GetEmployees', admin)).toMatchObject({ total: 3 });
  });

  it('lists a department outside the team as empty: the sub-list leaks nobody', async () => {
    const alpha = await t.post('GetEmployeesByDepartmentCode', { departmentCode: c.alpha }, c.lena);
    expect(names(expectOk(alpha, 'Employees fetched successfully').data)).toEqual([
      'Anna Alpha',
      'Lena Lead',
    ]);
    const beta = expectOk(
      await t.post('GetEmployeesByDepartmentCode', { departmentCode: c.beta }, c.lena),
      'Employees fetched successfully',
    );
    expect(beta).toMatchObject({ data: [], total: 0 });
  });

  it('views a team member, and answers anyone else as a code that does not exist', async () => {
    expectOk(
      await t.post('GetEmployeeByCode', { employeeCode: c.people.anna.employeeCode }, c.lena),
      'Employee fetched successfully',
    );
    const outside = expectError(
      await t.post('GetEmployeeByCode', { employeeCode: c.people.bert.employeeCode }, c.lena),
      404,
      'Employee not found',
    );
    const missing = expectError(
      await t.post('GetEmployeeByCode', { employeeCode: 'EMP-0000000000000000' }, c.lena),
      404,
      'Employee not found',
    );
    expect(outside).toEqual(missing);
    expectError(
      await t.post('GetEmployeeByUserCode', { userCode: c.users.bert }, c.lena),
      404,
      'Employee not found',
    );
  });

  it('creates into the team’s department only; a refusal writes nothing', async () => {
    const made = expectOk(
      await t.post(
        'CreateEmployee',
        { employeeId: 'A-100', name: 'New Alpha', departmentCode: c.alpha, joinDate: '2024-01-01' },
        c.lena,
      ),
      'Employee created successfully',
    ).data;
    const before = await auditCount();
    expectError(
      await t.post(
        'CreateEmployee',
        { employeeId: 'B-100', name: 'New Beta', departmentCode: c.beta, joinDate: '2024-01-01' },
        c.lena,
      ),
      403,
      CREATE,
    );
    expect(await t.handle.db.select().from(employees).where(eq(employees.employeeId, 'B-100'))).toEqual([]);
    expect(await auditCount()).toBe(before);
    expectOk(
      await t.post('DeleteEmployee', { employeeCode: made.employeeCode }, c.lena),
      'Employee deleted successfully',
    );
  });

  it('changes and deletes team members only, refusing others and unknown codes alike, without the record', async () => {
    const bert = {
      employeeId: 'B-001',
      name: 'Bert Renamed',
      departmentCode: c.beta,
      joinDate: '2021-03-01',
    };
    const outside = expectError(
      await t.post(
        'UpdateEmployee',
        { employeeCode: c.people.bert.employeeCode, ...bert, version: 1 },
        c.lena,
      ),
      403,
      CHANGE,
    );
    const missing = expectError(
      await t.post('UpdateEmployee', { employeeCode: 'EMP-0000000000000000', ...bert, version: 1 }, c.lena),
      403,
      CHANGE,
    );
    expect(outside).toEqual(missing);
    expect(outside.data).toBeUndefined();
    expectError(
      await t.post('DeleteEmployee', { employeeCode: c.people.bert.employeeCode }, c.lena),
      403,
      DELETE,
    );
    const stored = await t.handle.db
      .select()
      .from(employees)
      .where(eq(employees.employeeCode, c.people.bert.employeeCode));
    expect(stored[0]?.name).toBe('Bert Beta');
  });

  it('refuses moving a team member out of the team, and answers a stale change with the in-scope record', async () => {
    const anna = {
      employeeCode: c.people.anna.employeeCode,
      employeeId: 'A-002',
      joinDate: '2021-03-01',
      userCode: c.users.anna,
    };
    expectError(
      await t.post('UpdateEmployee', { ...anna, name: 'Anna Alpha', departmentCode: c.beta }, c.lena),
      403,
      CHANGE,
    );
    const renamed = expectOk(
      await t.post(
        'UpdateEmployee',
        { ...anna, name: 'Anna Alpha', departmentCode: c.alpha, version: 1 },
        c.lena,
      ),
      'Employee updated successfully',
    ).data;
    expect(renamed.version).toBe(2);
    const stale = await t.post(
      'UpdateEmployee',
      { ...anna, name: 'Anna A.', departmentCode: c.alpha, version: 1 },
      c.lena,
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().data).toMatchObject({ employeeCode: anna.employeeCode, version: 2 });
  });
});

describe('employees held for oneself', () => {
  it('lists and views one’s own employee record only', async () => {
    expect(await list('GetEmployees', c.anna)).toEqual({ names: ['Anna Alpha'], total: 1 });
    expectOk(
      await t.post('GetEmployeeByUserCode', { userCode: c.users.anna }, c.anna),
      'Employee fetched successfully',
    );
    expectError(
      await t.post('GetEmployeeByCode', { employeeCode: c.people.lena.employeeCode }, c.anna),
      404,
      'Employee not found',
    );
    const sub = expectOk(
      await t.post('GetEmployeesByDepartmentCode', { departmentCode: c.alpha }, c.anna),
      'Employees fetched successfully',
    );
    expect(sub.total).toBe(1);
  });

  it('may not write employee records at all', async () => {
    const res = await t.post(
      'CreateEmployee',
      { employeeId: 'A-200', name: 'Nope', departmentCode: c.alpha, joinDate: '2024-01-01' },
      c.anna,
    );
    expect(res.statusCode).toBe(403);
  });

  it('tells the signed-in user who they are and how far each permission reaches', async () => {
    const session = expectOk(await t.get('GetSession', c.anna), 'Session fetched successfully').data;
    expect(session.employee).toEqual({
      employeeCode: c.people.anna.employeeCode,
      name: 'Anna Alpha',
      departmentCode: c.alpha,
    });
    expect(Object.values(session.role.permissionScopes)).toEqual(['own', 'own', 'own', 'own']);
    const adminSession = expectOk(await t.get('GetSession', admin), 'Session fetched successfully').data;
    expect(adminSession.employee).toBeNull();
  });
});

const profileBody = (code: string, firstName: string, extra: Json = {}) => ({
  profileCode: code,
  firstName,
  lastName: 'Tester',
  dob: '1990-01-01',
  genderCode: c.genderCode,
  isProfilePictureChanged: false,
  ...extra,
});

describe('profiles', () => {
  it('lists and views the team’s profiles only', async () => {
    expect(await list('GetProfiles', c.lena)).toEqual({ names: ['Anna', 'Lena'], total: 2 });
    expectError(
      await t.post('GetProfileByCode', { profileCode: c.profiles.bert }, c.lena),
      404,
      'Profile not found',
    );
    expectError(
      await t.post('GetProfileByUserCode', { userCode: c.users.bert }, c.lena),
      404,
      'Profile not found',
    );
    expectOk(
      await t.post('GetProfileByUserCode', { userCode: c.users.anna }, c.lena),
      'Profile fetched successfully',
    );
  });

  it('serves the pictures of reachable profiles only', async () => {
    const picture = {
      original: Buffer.from('png'),
      thumbnail: Buffer.from('webp'),
      contentType: 'image/png',
    };
    for (const code of [c.profiles.anna, c.profiles.bert]) {
      await t.handle.db
        .insert(profilePictures)
        .values({ profileCode: code, ...picture, filename: 'p.png', extension: 'png' });
    }
    const get = (code: string, cookie: string) =>
      t.app.inject({ method: 'GET', url: `/api/ProfilePicture/${code}/thumbnail`, headers: { cookie } });
    expect((await get(c.profiles.anna, c.lena)).statusCode).toBe(200);
    expect((await get(c.profiles.anna, c.anna)).statusCode).toBe(200);
    expect((await get(c.profiles.bert, c.lena)).statusCode).toBe(404);
    expect((await get(c.profiles.anna, c.bert)).statusCode).toBe(404);
    expect((await get(c.profiles.bert, admin)).statusCode).toBe(200);
  });

  it('lets a team lead change a team member’s profile, not anyone else’s', async () => {
    const ok = await postMultipart(
      t,
      'UpdateProfile',
      profileBody(c.profiles.anna, 'Anna', { phoneNumber: '+44 1' }),
      [],
      c.lena,
    );
    expectOk(ok, 'Profile updated successfully');
    const refused = await postMultipart(t, 'UpdateProfile', profileBody(c.profiles.bert, 'Bert'), [], c.lena);
    expectError(refused, 403, PROFILE_CHANGE);
  });

  it('gives oneself one’s own profile, whose self-service fields alone one may change', async () => {
    expect(await list('GetProfiles', c.bert)).toEqual({ names: ['Bert'], total: 1 });
    const own = await postMultipart(
      t,
      'UpdateProfile',
      profileBody(c.profiles.bert, 'Bert', {
        phoneNumber: '+44 20 7946 0000',
        social: { linkedin: 'https://www.linkedin.com/in/bert' },
      }),
      [],
      c.bert,
    );
    expect(expectOk(own, 'Profile updated successfully').data).toMatchObject({
      phoneNumber: '+44 20 7946 0000',
    });
    expectError(
      await postMultipart(t, 'UpdateProfile', profileBody(c.profiles.bert, 'Robert'), [], c.bert),
      403,
      'You cannot change these fields of your own profile: firstName',
    );
    expectError(
      await postMultipart(t, 'UpdateProfile', profileBody(c.profiles.anna, 'Anna'), [], c.bert),
      403,
      PROFILE_CHANGE,
    );
  });
});

describe('exports', () => {
  async function csv(path: string, cookie: string) {
    const res = await t.get(path, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return res.body.split('\n').slice(1).filter(Boolean).join('\n');
  }

  it('hold only the records within reach: the team’s, or one’s own', async () => {
    const team = await csv('ExportEmployees', c.lena);
    expect(team).toContain('Anna Alpha');
    expect(team).toContain('Lena Lead');
    expect(team).not.toContain('Bert');
    const own = await csv('ExportEmployees', c.anna);
    expect(own).toContain('Anna Alpha');
    expect(own).not.toContain('Lena');
    const profiles = await csv('ExportProfiles', c.lena);
    expect(profiles).toContain('Anna');
    expect(profiles).not.toContain('Bert');
    expect(await csv('ExportEmployees', admin)).toContain('Bert');
  });
});
