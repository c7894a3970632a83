import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits, genders } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Company, company, makeEmployee, registerUser, scopedRole } from '../scopes/support.ts';

/*
 * What every registry list offers besides its page: the CSV export (by default of the list's own
 * columns, in the list's order, within the caller's reach), the bulk delete (Delete{Plural}) and,
 * where a definition declares `bulkChange`, the bulk change of a reference (Update{Plural}): all
 * or nothing, each record checked and audited as its single write would be.
 */

const t = sharedTestApp();
let admin: string;
let firm: Company;

beforeAll(async () => {
  admin = await t.login();
  firm = await company(t, admin);
});

/** The rows of a CSV answer, the header first (every field quoted, CRLF, a byte-order mark). */
function csvRows(body: string): string[][] {
  return body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      line
        .slice(1, -1)
        .split('","')
        .map((f) => f.replaceAll('""', '"')),
    );
}

describe('Export{Plural} on a module that names no export columns', () => {
  it('writes the list columns, filtered by the keyword and in the list order, dates in ISO 8601', async () => {
    const res = await t.get('ExportDepartments', admin, {
      keyword: 'a',
      sortField: 'name',
      sortValue: 'desc',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="departments-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(['Name', 'Created At', 'Updated At']);
    expect(rows.map((r) => r[0])).toEqual(['Beta', 'Alpha']);
    expect(rows[0]?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('walks past the batch size in the sort order, each record once, ties broken by creation', {
    timeout: 60_000,
  }, async () => {
    // One statement: every row gets the same created_at, so the sort column alone cannot order them.
    await t.handle.db.execute(
      sql`insert into ${genders} (gender_code, gender_name)
          select 'GENDER-bulk-' || n, 'Bulk ' || lpad(n::text, 4, '0') from generate_series(1, 1205) n`,
    );
    await t.settle();
    const res = await t.get('ExportGenders', admin, {
      keyword: 'Bulk ',
      sortField: 'createdAt',
      sortValue: 'asc',
    });
    const [, ...rows] = csvRows(res.body);
    expect(rows.map((r) => r[0])).toEqual(
      Array.from({ length: 1205 }, (_, i) => `Bulk ${String(i + 1).padStart(4, '0')}`),
    );
    const byName = csvRows(
      (await t.get('ExportGenders', admin, { keyword: 'Bulk ', sortField: 'genderName' })).body,
    );
    expect(byName.slice(1).map((r) => r[0])).toEqual(rows.map((r) => r[0]).reverse());
  });

  it('exports only what a scoped caller reaches', async () => {
    const [, ...rows] = csvRows(
      (await t.get('ExportEmployees', firm.lena, { sortField: 'name', sortValue: 'asc' })).body,
    );
    expect(rows.map((r) => r[1])).toEqual(['Anna Alpha', 'Lena Lead']);
    const [, ...own] = csvRows((await t.get('ExportEmployees', firm.anna, {})).body);
    expect(own.map((r) => r[1])).toEqual(['Anna Alpha']);
  });

  it('refuses as its list does: 401, 403 and an unknown sort field', async () => {
    expectError(await t.get('ExportDepartments', undefined, {}), 401, 'Not signed in');
    expectError(
      await t.get('ExportDepartments', firm.anna, {}),
      403,
      'You do not have permission to do this',
    );
    const bad = expectError(
      await t.get('ExportDepartments', admin, { sortField: 'nope' }),
      400,
      'Invalid input',
    );
    expect(bad.errors).toEqual([{ field: 'sortField', message: "Cannot sort by 'nope'" }]);
  });
});

async function gender(name: string) {
  const res = await t.post('CreateGender', { genderName: name }, admin);
  return expectOk(res, 'Gender created successfully').data as { genderCode: string; version: number };
}

/** The audit entries of these records for one action, oldest first. */
async function auditsOf(action: string, codes: readonly string[]) {
  return t.handle.db
    .select({
      recordCode: audits.recordCode,
      before: audits.before,
      after: audits.after,
      username: audits.username,
    })
    .from(audits)
    .where(and(eq(audits.action, action), inArray(audits.recordCode, [...codes])))
    .orderBy(asc(audits.id));
}

async function exists(path: string, body: Record<string, string>) {
  return (await t.post(path, body, admin)).statusCode === 200;
}

describe('Delete{Plural}', () => {
  it('deletes every named record in one go, with one audit entry each', async () => {
    const made = [await gender('Bulk one'), await gender('Bulk two'), await gender('Bulk three')];
    const codes = made.map((g) => g.genderCode);
    const res = await t.postJson('DeleteGenders', { codes, versions: made.map((g) => g.version) }, admin);
    const body = expectOk(res, 'Genders deleted successfully');
    expect((body.data as { genderCode: string }[]).map((g) => g.genderCode)).toEqual(codes);
    for (const genderCode of codes) expect(await exists('GetGenderByCode', { genderCode })).toBe(false);
    const entries = await auditsOf('DELETE', codes);
    expect(entries.map((e) => e.recordCode)).toEqual(codes);
    expect(entries.map((e) => (e.before as { genderName: string }).genderName)).toEqual([
      'Bulk one',
      'Bulk two',
      'Bulk three',
    ]);
  });

  it('deletes nothing when one record is still used, and names it', async () => {
    const free = expectOk(
      await t.post('CreateDepartment', { name: 'Bulk free' }, admin),
      'Department created successfully',
    ).data.departmentCode as string;
    const res = await t.post('DeleteDepartments', { codes: [free, firm.alpha] }, admin);
    const body = expectError(
      res,
      409,
      'Nothing was deleted. Alpha: Cannot delete this department: it is still used by 2 employees',
    );
    expect(body.errors).toEqual([
      { field: 'codes.1', message: 'Alpha: Cannot delete this department: it is still used by 2 employees' },
    ]);
    expect(await exists('GetDepartmentByCode', { departmentCode: free })).toBe(true);
    expect(await auditsOf('DELETE', [free, firm.alpha])).toEqual([]);
  });

  it('refuses a stale version with 409, naming who changed the record', async () => {
    const made = await gender('Bulk stale');
    expectOk(
      await t.post('UpdateGender', { genderCode: made.genderCode, genderName: 'Bulk staler' }, admin),
      'Gender updated successfully',
    );
    const res = await t.postJson(
      'DeleteGenders',
      { codes: [made.genderCode], versions: [made.version] },
      admin,
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^Nothing was deleted\. Bulk staler: This gender was changed by admin at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC since you opened it$/,
    );
    expect(await exists('GetGenderByCode', { genderCode: made.genderCode })).toBe(true);
  });

  it('refuses as the single delete does: 401, 403, and 400 on its body', async () => {
    const made = await gender('Bulk kept');
    expectError(await t.postJson('DeleteGenders', { codes: [made.genderCode] }), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_GENDERS']);
    expectError(
      await t.postJson('DeleteGenders', { codes: [made.genderCode] }, viewer.cookie),
      403,
      'You do not have permission to do this',
    );
    const empty = expectError(await t.postJson('DeleteGenders', { codes: [] }, admin), 400, 'Invalid input');
    expect(empty.errors).toEqual([{ field: 'codes', message: 'Choose at least one record' }]);
    const unpaired = expectError(
      await t.postJson('DeleteGenders', { codes: [made.genderCode], versions: [1, 2] }, admin),
      400,
      'Invalid input',
    );
    expect(unpaired.errors).toEqual([
      { field: 'versions', message: 'Versions must pair one for one with the codes' },
    ]);
    expect(await exists('GetGenderByCode', { genderCode: made.genderCode })).toBe(true);
  });

  it('lets a team-scoped caller delete only within the team, naming others by code alone', async () => {
    const temp = await makeEmployee(t, admin, 'B-900', 'Bulk Outsider', firm.beta);
    const res = await t.postJson('DeleteEmployees', { codes: [temp.employeeCode] }, firm.lena);
    expectError(
      res,
      403,
      `Nothing was deleted. ${temp.employeeCode}: You cannot delete this employee: it is outside the records your role reaches`,
    );
    expect(await exists('GetEmployeeByCode', { employeeCode: temp.employeeCode })).toBe(true);
  });
});

describe('Update{Plural}', () => {
  it('moves employees to another department, one audit entry each', async () => {
    const gamma = expectOk(
      await t.post('CreateDepartment', { name: 'Gamma' }, admin),
      'Department created successfully',
    ).data.departmentCode as string;
    const one = await makeEmployee(t, admin, 'C-001', 'Cora Change', firm.beta);
    const two = await makeEmployee(t, admin, 'C-002', 'Cid Change', firm.beta);
    const codes = [one.employeeCode, two.employeeCode];
    const res = await t.post('UpdateEmployees', { codes, versions: [1, 1], departmentCode: gamma }, admin);
    const body = expectOk(res, 'Employees updated successfully');
    const changed = body.data as { department: { name: string }; version: number; name: string }[];
    expect(changed.map((e) => [e.name, e.department.name, e.version])).toEqual([
      ['Cora Change', 'Gamma', 2],
      ['Cid Change', 'Gamma', 2],
    ]);
    const entries = await auditsOf('UPDATE', codes);
    expect(
      entries.map((e) => [e.recordCode, (e.before as { department: { name: string } }).department.name]),
    ).toEqual([
      [one.employeeCode, 'Beta'],
      [two.employeeCode, 'Beta'],
    ]);
    expect(entries.map((e) => (e.after as { department: { name: string } }).department.name)).toEqual([
      'Gamma',
      'Gamma',
    ]);
  });

  it('refuses a department that does not exist, once, and a body without a new value', async () => {
    const res = await t.post(
      'UpdateEmployees',
      { codes: [firm.people.bert.employeeCode], departmentCode: 'DEPARTMENT-none' },
      admin,
    );
    const body = expectError(res, 400, 'Invalid input');
    expect(body.errors).toEqual([{ field: 'departmentCode', message: 'Department not found' }]);
    const none = expectError(
      await t.post('UpdateEmployees', { codes: [firm.people.bert.employeeCode] }, admin),
      400,
      'Invalid input',
    );
    expect(none.errors).toEqual([{ field: '_', message: 'Name a new departmentCode' }]);
  });

  it('keeps a team-scoped caller within the team: nothing moves when one record is outside it', async () => {
    const inside = firm.people.anna.employeeCode;
    const outside = firm.people.bert.employeeCode;
    const res = await t.postJson(
      'UpdateEmployees',
      { codes: [inside, outside], departmentCode: firm.alpha },
      firm.lena,
    );
    expectError(
      res,
      403,
      `Nothing was changed. ${outside}: You cannot change this employee: it is outside the records your role reaches`,
    );
    // Moving a team member out of the team is changing it beyond reach too.
    const away = await t.postJson(
      'UpdateEmployees',
      { codes: [inside], departmentCode: firm.beta },
      firm.lena,
    );
    expectError(
      away,
      403,
      'Nothing was changed. Anna Alpha: You cannot change this employee: it is outside the records your role reaches',
    );
    const anna = expectOk(
      await t.post('GetEmployeeByCode', { employeeCode: inside }, admin),
      'Employee fetched successfully',
    );
    expect(anna.data.department.departmentCode).toBe(firm.alpha);
    expect(anna.data.version).toBe(firm.people.anna.version);
  });

  it("changes users' role under the delegation rule: no role with permissions the caller lacks", async () => {
    const manager = await scopedRole(t, admin, 'Bulk user manager', {
      VIEW_USERS: 'all',
      UPDATE_USER: 'all',
      VIEW_ROLES: 'all',
      VIEW_GENDERS: 'all',
    });
    const plain = await scopedRole(t, admin, 'Bulk plain', { VIEW_GENDERS: 'all' });
    const wider = await scopedRole(t, admin, 'Bulk wider', { VIEW_GENDERS: 'all', DELETE_GENDER: 'all' });
    const other = await scopedRole(t, admin, 'Bulk other', { VIEW_USERS: 'all' });
    await registerUser(t, admin, 'bulk.manager', manager.roleCode);
    const cookie = await t.login('bulk.manager', 'scoped-password-1');
    const codes = [
      await registerUser(t, admin, 'bulk.one', plain.roleCode),
      await registerUser(t, admin, 'bulk.two', plain.roleCode),
    ];
    const refused = await t.postJson('UpdateUsers', { codes, roleCode: wider.roleCode }, cookie);
    expectError(
      refused,
      403,
      'Nothing was changed. bulk.one: You cannot assign a role with permissions you do not hold; bulk.two: You cannot assign a role with permissions you do not hold',
    );
    expect(await auditsOf('UPDATE', codes)).toEqual([]);
    const res = await t.postJson('UpdateUsers', { codes, roleCode: other.roleCode }, cookie);
    const body = expectOk(res, 'Users updated successfully');
    expect((body.data as { role: { roleName: string } }[]).map((u) => u.role.roleName)).toEqual([
      'Bulk other',
      'Bulk other',
    ]);
    expect((await auditsOf('UPDATE', codes)).map((e) => e.username)).toEqual([
      'bulk.manager',
      'bulk.manager',
    ]);
  });
});
