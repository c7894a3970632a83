import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstRow } from '../../../src/db/rows.ts';
import { audits, departments, employees } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { userWith } from '../../support/users.ts';
import { csvOf, startImport } from './support.ts';

const t = sharedTestApp();
let admin: string;
beforeAll(async () => {
  admin = await t.login();
  for (const name of ['Sales', 'Support']) await t.post('CreateDepartment', { name }, admin);
});

async function departmentCode(name: string) {
  const [d] = await t.handle.db.select().from(departments).where(eq(departments.name, name));
  return d?.departmentCode;
}

const employeeFile = (rows: string[][]) =>
  csvOf([['Employee Id', 'Name', 'Department', 'Join Date', 'Notes'], ...rows]);

describe('importing a registry module', () => {
  it('previews, commits in one go, audits once and imports the same file again as no change', async () => {
    const file = employeeFile([
      ['E-100', 'Ada Lovelace', 'Sales', '2024-01-15', 'ignored'],
      ['E-101', 'Alan Turing', 'support', '45352', ''],
    ]);
    const started = await startImport(t, admin, { module: 'employee' }, { name: 'people.csv', data: file });
    expect(started.statusCode).toBe(200);
    const preview = started.json().data;
    expect(preview).toMatchObject({
      status: 'ready',
      module: 'employee',
      mode: 'upsert',
      fileName: 'people.csv',
      format: 'csv',
      columns: ['Employee Id', 'Name', 'Department', 'Join Date', 'Notes'],
      mapping: ['employeeId', 'name', 'departmentCode', 'joinDate', null],
      counts: { rows: 2, create: 2, update: 0, unchanged: 0, errors: 0, skipped: 0 },
      errors: [],
    });
    // An Excel serial date is the day it counts: 45352 is 2024-03-01.
    expect(preview.sample[1]).toEqual({
      row: 3,
      action: 'create',
      values: { employeeId: 'E-101', name: 'Alan Turing', departmentCode: 'support', joinDate: '2024-03-01' },
    });
    expect(await t.handle.db.select().from(employees)).toHaveLength(0);

    const committed = await t.post('CommitImport', { importCode: preview.importCode }, admin);
    expect(committed.statusCode).toBe(200);
    expect(committed.json().data).toMatchObject({ status: 'committed', counts: { create: 2 } });
    const stored = await t.handle.db.select().from(employees).orderBy(employees.employeeId);
    expect(stored.map((e) => [e.employeeId, e.name, e.joinDate])).toEqual([
      ['E-100', 'Ada Lovelace', '2024-01-15'],
      ['E-101', 'Alan Turing', '2024-03-01'],
    ]);
    const [support] = await t.handle.db.select().from(departments).where(eq(departments.name, 'Support'));
    expect(stored[1]?.departmentCode).toBe(support?.departmentCode);
    const entries = await t.handle.db.select().from(audits).where(eq(audits.collection, 'employees'));
    expect(entries.filter((a) => a.action === 'CREATE')).toHaveLength(2);
    const [imported] = entries.filter((a) => a.action === 'IMPORT');
    expect(imported?.after).toMatchObject({
      fileName: 'people.csv',
      module: 'employee',
      mode: 'upsert',
      create: 2,
    });

    const again = await startImport(t, admin, { module: 'employee' }, { name: 'people.csv', data: file });
    expect(again.json().data.counts).toMatchObject({ rows: 2, create: 0, update: 0, unchanged: 2 });
  });

  it('reports every error at its row and column, and writes nothing unless told to skip them', async () => {
    const file = employeeFile([
      ['E-200', 'Grace Hopper', 'Sales', '2024-02-01', ''],
      ['E-201', '', 'Marketing', '2024-02-30', ''],
      ['E-200', 'Twice', 'Sales', '2024-02-01', ''],
    ]);
    const started = (
      await startImport(t, admin, { module: 'employee', mode: 'create' }, { name: 'bad.csv', data: file })
    ).json().data;
    expect(started.counts).toMatchObject({ rows: 3, create: 1, errors: 2 });
    expect(started.errors).toEqual([
      { row: 3, column: 'Name', message: 'Name is required' },
      { row: 3, column: 'Department', message: "Department 'Marketing' not found" },
      { row: 3, column: 'Join Date', message: 'Join date must be a real date' },
      { row: 4, column: 'Employee Id', message: 'This row names the same record as an earlier row (row 2)' },
    ]);
    const refused = await t.post('CommitImport', { importCode: started.importCode }, admin);
    expect(refused.statusCode).toBe(400);
    expect(await t.handle.db.select().from(employees).where(eq(employees.employeeId, 'E-200'))).toHaveLength(
      0,
    );

    const skipped = await t.post('CommitImport', { importCode: started.importCode, skipErrors: true }, admin);
    expect(skipped.json().data).toMatchObject({ status: 'committed', counts: { create: 1, skipped: 2 } });
    expect(await t.handle.db.select().from(employees).where(eq(employees.employeeId, 'E-200'))).toHaveLength(
      1,
    );
  });

  it('tells in the preview what the database would refuse: a user linked to an employee already', async () => {
    const users = await Promise.all([
      userWith(t, [], { signIn: 'none' }),
      userWith(t, [], { signIn: 'none' }),
    ]);
    const [linked, free] = users.map((u) => u.username);
    const linkedUser = users[0];
    await t.post(
      'CreateEmployee',
      {
        employeeId: 'E-300',
        name: 'Linked',
        departmentCode: await departmentCode('Sales'),
        joinDate: '2024-01-01',
        userCode: linkedUser?.userCode,
      },
      admin,
    );
    const file = csvOf([
      ['Employee Id', 'Name', 'Department', 'Join Date', 'User'],
      ['E-301', 'Second link', 'Sales', '2024-01-01', String(linked)],
      ['E-302', 'Free', 'Sales', '2024-01-01', String(free)],
      ['E-303', 'Free again', 'Sales', '2024-01-01', String(free).toUpperCase()],
    ]);
    const preview = (
      await startImport(t, admin, { module: 'employee' }, { name: 'links.csv', data: file })
    ).json().data;
    expect(preview.errors).toEqual([
      { row: 2, column: 'User', message: 'This user is already linked to an employee' },
      { row: 4, column: 'User', message: 'This user is already linked to an employee (row 3)' },
    ]);
    expect(preview.counts).toMatchObject({ create: 1, errors: 2 });
  });

  it('refuses with 409 when a record changed between preview and commit, writing nothing', async () => {
    await t.post('CreateDepartment', { name: 'Legal' }, admin);
    const file = csvOf([['Name'], ['Legal'], ['Finance']]);
    const preview = (
      await startImport(t, admin, { module: 'department', mode: 'upsert' }, { name: 'd.csv', data: file })
    ).json().data;
    expect(preview.counts).toMatchObject({ create: 1, unchanged: 1 });
    const [legal] = await t.handle.db.select().from(departments).where(eq(departments.name, 'Legal'));
    await t.post('UpdateDepartment', { departmentCode: legal?.departmentCode, name: 'Legal' }, admin);
    const stale = await t.post('CommitImport', { importCode: preview.importCode }, admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().errors).toEqual([
      { field: 'row 2', message: 'Department changed since the preview' },
    ]);
    expect(await t.handle.db.select().from(departments).where(eq(departments.name, 'Finance'))).toHaveLength(
      0,
    );
  });

  it('lists imports to those who may import into their module, and reports every error as CSV', async () => {
    const file = employeeFile([['E-400', '', 'Nowhere', 'soon', '']]);
    const preview = (
      await startImport(t, admin, { module: 'employee' }, { name: 'errors.csv', data: file })
    ).json().data;
    expect(preview.errorCount).toBe(3);
    const listed = await t.get('GetImports', admin, { module: 'employee', pageSize: 100 });
    expect(listed.statusCode).toBe(200);
    const item = listed.json().data.find((i: { importCode: string }) => i.importCode === preview.importCode);
    expect(item).toMatchObject({
      fileName: 'errors.csv',
      module: 'employee',
      status: 'ready',
      errorCount: 3,
    });
    expect(item).not.toHaveProperty('sample');
    expect(listed.json().total).toBeGreaterThanOrEqual(1);

    const genderOnly = await userWith(t, ['CREATE_GENDER']);
    const theirs = await t.get('GetImports', genderOnly.cookie, { pageSize: 100 });
    expect(theirs.json().data.map((i: { module: string }) => i.module)).not.toContain('employee');
    expect(
      (await t.post('GetImportByCode', { importCode: preview.importCode }, genderOnly.cookie)).statusCode,
    ).toBe(404);
    const nobody = await userWith(t, ['VIEW_EMPLOYEES']);
    expect((await t.get('GetImports', nobody.cookie)).statusCode).toBe(403);

    const report = await t.get('ExportImportErrors', admin, { importCode: preview.importCode });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-disposition']).toBe('attachment; filename="errors-errors.csv"');
    expect(
      report.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n'),
    ).toEqual([
      '"Row","Column","Message"',
      '"2","Name","Name is required"',
      '"2","Department","Department \'Nowhere\' not found"',
      '"2","Join Date","Join date must be a date (YYYY-MM-DD)"',
    ]);
    expect((await t.get('ExportImportErrors', admin, {})).statusCode).toBe(400);

    const cancelled = await t.post('CancelImport', { importCode: preview.importCode }, admin);
    expect(cancelled.json().data.status).toBe('cancelled');
    expect((await t.post('CancelImport', { importCode: preview.importCode }, admin)).statusCode).toBe(409);
    expect((await t.post('CommitImport', { importCode: preview.importCode }, admin)).statusCode).toBe(409);
  });

  it('tells webhooks of every imported record and of the import, and of nothing no one subscribed to', async () => {
    const hook = await t.postJson(
      'CreateWebhook',
      { url: 'https://8.8.8.8/imports', events: ['gender.created', 'import.committed'] },
      admin,
    );
    expect(hook.statusCode).toBe(200);
    const names = Array.from({ length: 25 }, (_, i) => [`Imported gender ${i}`]);
    const preview = (
      await startImport(
        t,
        admin,
        { module: 'gender', mode: 'create' },
        { name: 'g.csv', data: csvOf([['Gender Name'], ...names]) },
      )
    ).json().data;
    expect((await t.post('CommitImport', { importCode: preview.importCode }, admin)).json().data.status).toBe(
      'committed',
    );
    const count = async (type: string) =>
      firstRow<{ n: number }>(
        t.handle.db,
        sql`select count(*)::int as n from webhook_events where type = ${type}`,
      );
    expect(await count('gender.created')).toEqual({ n: 25 });
    expect(await count('import.committed')).toEqual({ n: 1 });
    const departments = (
      await startImport(
        t,
        admin,
        { module: 'department', mode: 'create' },
        { name: 'd.csv', data: csvOf([['Name'], ...Array.from({ length: 25 }, (_, i) => [`Hooked ${i}`])]) },
      )
    ).json().data;
    await t.post('CommitImport', { importCode: departments.importCode }, admin);
    expect(await count('department.created')).toEqual({ n: 0 });
  });

  it('answers 401 without a session, 403 without the permission and 400 for bad input', async () => {
    const file = csvOf([['Name'], ['X']]);
    expect(
      (await startImport(t, undefined, { module: 'department' }, { name: 'd.csv', data: file })).statusCode,
    ).toBe(401);
    const viewer = await userWith(t, ['VIEW_DEPARTMENTS', 'CREATE_GENDER']);
    const forbidden = await startImport(
      t,
      viewer.cookie,
      { module: 'department' },
      { name: 'd.csv', data: file },
    );
    expect(forbidden.statusCode).toBe(403);
    const creator = await userWith(t, ['CREATE_DEPARTMENT']);
    // Creating only needs CREATE; updating needs UPDATE too.
    expect(
      (
        await startImport(
          t,
          creator.cookie,
          { module: 'department', mode: 'create' },
          { name: 'd.csv', data: file },
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await startImport(
          t,
          creator.cookie,
          { module: 'department', mode: 'upsert' },
          { name: 'd.csv', data: file },
        )
      ).statusCode,
    ).toBe(403);
    const badModule = await startImport(t, admin, { module: 'nothing' }, { name: 'd.csv', data: file });
    expect(badModule.statusCode).toBe(400);
    const badMapping = await startImport(
      t,
      admin,
      { module: 'department', mapping: ['nope'] },
      { name: 'd.csv', data: file },
    );
    expect(badMapping.statusCode).toBe(400);
    expect(badMapping.json().errors).toEqual([{ field: 'mapping.0', message: 'Column Name: no field nope' }]);
    const unknown = await t.post('GetImportByCode', { importCode: 'IMPORT-NOPE' }, admin);
    expect(unknown.statusCode).toBe(404);
  });
});
