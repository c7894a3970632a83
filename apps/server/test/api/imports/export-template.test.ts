import { IMPORT_FORMATS, IMPORT_MESSAGES, IMPORT_MODULES } from '@wfc/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PASSWORD } from '../../../src/imports/template.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { startImport } from './support.ts';

const t = sharedTestApp();
let admin: string;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const today = () => new Date().toISOString().slice(0, 10);

/** A workbook's sheets as rows of text, the way a person reads them. */
async function sheetsOf(res: LightMyRequestResponse): Promise<Map<string, string[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const out = new Map<string, string[][]>();
  for (const ws of wb.worksheets) {
    const rows: string[][] = [];
    ws.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cell.value === null || cell.value === undefined ? '' : String(cell.value);
      });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    out.set(ws.name, rows);
  }
  return out;
}

const csvOf = (res: LightMyRequestResponse): string[][] =>
  parse(res.body, { bom: true, relax_column_count: true });

async function create(path: string, body: Record<string, unknown>, message: string) {
  return expectOk(await t.post(path, body, admin), message).data as Record<string, string>;
}

let alpha: Record<string, string>;
beforeAll(async () => {
  admin = await t.login();
  for (const name of ['Beta', 'Alpha', 'Gamma', 'Alphabet']) {
    const d = await create('CreateDepartment', { name }, 'Department created successfully');
    if (name === 'Alpha') alpha = d;
  }
  await create('CreateSkill', { title: 'Speed' }, 'Skill created successfully');
  await create('CreateSkill', { title: 'Accuracy' }, 'Skill created successfully');
  await create(
    'CreateEmployee',
    { employeeId: 'E-200', name: 'Bo Berg', departmentCode: alpha.departmentCode, joinDate: '2024-01-02' },
    'Employee created successfully',
  );
  await create(
    'CreateEmployee',
    { employeeId: 'E-100', name: 'Ann Alm', departmentCode: alpha.departmentCode, joinDate: '2024-01-01' },
    'Employee created successfully',
  );
});

describe('Export{Plural}?format=xlsx', () => {
  it("writes the list's columns and rows, filtered and sorted as the list is, as a workbook", async () => {
    const res = await t.get('ExportDepartments', admin, {
      keyword: 'alpha',
      sortField: 'name',
      sortValue: 'desc',
      format: 'xlsx',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="departments-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const sheets = await sheetsOf(res);
    expect([...sheets.keys()]).toEqual(['Departments']);
    const [header, ...rows] = sheets.get('Departments') ?? [];
    expect(header).toEqual(['Name', 'Created At', 'Updated At']);
    expect(rows.map((r) => r[0])).toEqual(['Alphabet', 'Alpha']);
    expect(rows[0]?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const asc = await sheetsOf(
      await t.get('ExportDepartments', admin, { sortField: 'name', sortValue: 'asc', format: 'xlsx' }),
    );
    expect(
      asc
        .get('Departments')
        ?.slice(1)
        .map((r) => r[0]),
    ).toEqual(['Alpha', 'Alphabet', 'Beta', 'Gamma']);
  });

  it('keeps CSV the default, and writes the same cells in both formats', async () => {
    const csv = await t.get('ExportEmployees', admin, { sortField: 'employeeId', sortValue: 'asc' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/filename="employees-\d{4}-\d{2}-\d{2}\.csv"$/);
    const xlsx = await t.get('ExportEmployees', admin, {
      sortField: 'employeeId',
      sortValue: 'asc',
      format: 'xlsx',
    });
    const fromCsv = csvOf(csv);
    const fromXlsx = (await sheetsOf(xlsx)).get('Employees') ?? [];
    expect(fromCsv.map((r) => r.slice(0, 3))).toEqual(fromXlsx.map((r) => r.slice(0, 3)));
    expect(fromXlsx.slice(1).map((r) => r[0])).toEqual(['E-100', 'E-200']);
    const explicit = await t.get('ExportEmployees', admin, { format: 'csv' });
    expect(explicit.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it("writes a role's permissions as their names joined by '; ', in CSV and XLSX", async () => {
    const perms = expectOk(
      await t.get('GetPermissions', admin, { limit: 100 }),
      'Permissions fetched successfully',
    ).data as { permissionCode: string; permissionName: string }[];
    const chosen = perms.filter((p) => ['VIEW_DEPARTMENTS', 'CREATE_DEPARTMENT'].includes(p.permissionName));
    expect(chosen).toHaveLength(2);
    const role = await create(
      'CreateRole',
      { roleName: 'Clerks', rolePermissions: chosen.map((p) => p.permissionCode) },
      'Role created successfully',
    );
    const listed = expectOk(
      await t.post('GetRoleByCode', { roleCode: role.roleCode }, admin),
      'Role fetched successfully',
    ).data as { rolePermissions: { permissionName: string }[] };
    const names = listed.rolePermissions.map((p) => p.permissionName).join('; ');
    expect(names.split('; ').sort()).toEqual(['CREATE_DEPARTMENT', 'VIEW_DEPARTMENTS']);

    const csv = csvOf(await t.get('ExportRoles', admin, { keyword: 'Clerks' }));
    const col = csv[0]?.indexOf('Permissions') ?? -1;
    expect(col).toBeGreaterThanOrEqual(0);
    expect(csv[1]?.[col]).toBe(names);
    const xlsx = (
      await sheetsOf(await t.get('ExportRoles', admin, { keyword: 'Clerks', format: 'xlsx' }))
    ).get('Roles');
    expect(xlsx?.[1]?.[col]).toBe(names);
  });

  it('refuses an unknown format, and refuses as the list does', async () => {
    const bad = expectError(await t.get('ExportDepartments', admin, { format: 'pdf' }), 400, 'Invalid input');
    expect(bad.errors?.[0]?.field).toBe('format');
    const sort = expectError(
      await t.get('ExportDepartments', admin, { format: 'xlsx', sortField: 'nope' }),
      400,
      'Invalid input',
    );
    expect(sort.errors).toEqual([{ field: 'sortField', message: "Cannot sort by 'nope'" }]);
    expectError(await t.get('ExportDepartments', undefined, { format: 'xlsx' }), 401, 'Not signed in');
  });
});

describe('GetImportTemplate', () => {
  it('refuses without a session (401), without a create permission (403), and a bad module or format (400)', async () => {
    expectError(await t.get('GetImportTemplate', undefined, { module: 'department' }), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_DEPARTMENTS']);
    expectError(
      await t.get('GetImportTemplate', viewer.cookie, { module: 'department' }),
      403,
      'You do not have permission to do this',
    );
    const clerk = await t.userWith(['CREATE_DEPARTMENT']);
    expectError(
      await t.get('GetImportTemplate', clerk.cookie, { module: 'employee' }),
      403,
      IMPORT_MESSAGES.moduleForbidden,
    );
    expectError(
      await t.get('GetImportTemplate', clerk.cookie, { module: 'performance' }),
      403,
      IMPORT_MESSAGES.moduleForbidden,
    );
    expect((await t.get('GetImportTemplate', clerk.cookie, { module: 'department' })).statusCode).toBe(200);
    const badModule = expectError(
      await t.get('GetImportTemplate', admin, { module: 'payroll' }),
      400,
      'Invalid input',
    );
    expect(badModule.errors?.[0]?.field).toBe('module');
    const badFormat = expectError(
      await t.get('GetImportTemplate', admin, { module: 'department', format: 'ods' }),
      400,
      'Invalid input',
    );
    expect(badFormat.errors?.[0]?.field).toBe('format');
    expectError(await t.get('GetImportTemplate', admin, {}), 400, 'Invalid input');
  });

  it('gives the CSV template: the form labels and one example row', async () => {
    const res = await t.get('GetImportTemplate', admin, { module: 'employee' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="employee-import-template.csv"');
    const [header, example, ...more] = csvOf(res);
    expect(header).toEqual(['Employee Id', 'Name', 'Department', 'Join Date', 'User']);
    expect(more).toEqual([]);
    // A real department and user; a plausible date.
    expect(example?.[2]).toBe('Alpha');
    expect(example?.[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(example?.[4]).toBe('admin');
  });

  it('gives the XLSX template with the values each reference column accepts', async () => {
    const res = await t.get('GetImportTemplate', admin, { module: 'user', format: 'xlsx' });
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toBe('attachment; filename="user-import-template.xlsx"');
    const sheets = await sheetsOf(res);
    expect([...sheets.keys()]).toEqual(['Users', 'Accepted values']);
    const [header, example] = sheets.get('Users') ?? [];
    expect(header).toEqual(['Username', 'Email', 'Password', 'Role', 'Active']);
    expect(example?.[2]).toBe(EXAMPLE_PASSWORD);
    expect(example?.[4]).toBe('Yes');
    const accepted = sheets.get('Accepted values') ?? [];
    expect(accepted[0]).toEqual(['Role']);
    const roles = accepted.slice(1).map((r) => r[0]);
    expect(roles).toContain('Clerks');
    expect(roles).toContain(example?.[3]);

    const employees = (
      await sheetsOf(await t.get('GetImportTemplate', admin, { module: 'employee', format: 'xlsx' }))
    ).get('Accepted values');
    expect(employees?.[0]).toEqual(['Department', 'User']);
    const column = (i: number) =>
      (employees ?? [])
        .slice(1)
        .map((r) => r[i] ?? '')
        .filter(Boolean);
    expect(column(0)).toEqual(['Alpha', 'Alphabet', 'Beta', 'Gamma']);
    expect(column(1)).toContain('admin');
  });

  it("lists a role's permissions by name", async () => {
    const roles = await sheetsOf(await t.get('GetImportTemplate', admin, { module: 'role', format: 'xlsx' }));
    const [header, example] = roles.get('Roles') ?? [];
    expect(header).toEqual(['Role Name', 'Role Description', 'Require two-factor sign-in', 'Permissions']);
    expect(example?.[3]).toMatch(/^[A-Z_]+; [A-Z_]+$/);
    const accepted = roles.get('Accepted values') ?? [];
    expect(accepted[0]).toEqual(['Permissions']);
    expect(accepted.map((r) => r[0])).toContain('VIEW_DEPARTMENTS');
  });

  it('gives the score templates, wide and long, with the skills and the employees one may score', async () => {
    const wide = csvOf(await t.get('GetImportTemplate', admin, { module: 'performance' }));
    expect(wide).toEqual([
      ['Employee Id', 'Date', 'Accuracy', 'Speed'],
      ['E-100', today(), '7', '7'],
    ]);
    const long = await sheetsOf(
      await t.get('GetImportTemplate', admin, { module: 'performance', format: 'xlsx', layout: 'long' }),
    );
    expect(long.get('Scores')).toEqual([
      ['Employee Id', 'Date', 'Skill', 'Score'],
      ['E-100', today(), 'Accuracy', '7'],
    ]);
    expect(long.get('Accepted values')).toEqual([
      ['Employee Id', 'Skill'],
      ['E-100', 'Accuracy'],
      ['E-200', 'Speed'],
    ]);
    const scorer = await t.userWith(['CREATE_PERFORMANCE']);
    expect((await t.get('GetImportTemplate', scorer.cookie, { module: 'performance' })).statusCode).toBe(200);
  });
});

describe('a template as downloaded', () => {
  it('imports without an error in every module and format: its example row is one the console accepts', async () => {
    const country = await create(
      'CreateCountry',
      { name: 'Norway', iso2: 'NO', iso3: 'NOR' },
      'Country created successfully',
    );
    const state = await create(
      'CreateState',
      { name: 'Oslo', iso: 'NO-03', countryCode: country.countryCode },
      'State created successfully',
    );
    await create(
      'CreateCity',
      { name: 'Oslo', countryCode: country.countryCode, stateCode: state.stateCode },
      'City created successfully',
    );
    await create('CreateGender', { genderName: 'Female' }, 'Gender created successfully');
    for (const module of IMPORT_MODULES) {
      for (const format of IMPORT_FORMATS) {
        const template = await t.get('GetImportTemplate', admin, { module, format });
        expect(template.statusCode).toBe(200);
        const res = await startImport(
          t,
          admin,
          { module },
          { name: `template.${format}`, data: template.rawPayload },
        );
        expect({
          module,
          format,
          status: res.statusCode,
          body: res.statusCode === 200 ? null : res.body,
        }).toEqual({ module, format, status: 200, body: null });
        const data = expectOk(res, IMPORT_MESSAGES.started).data as {
          errors: unknown[];
          counts: { rows: number; errors: number };
          mapping: (string | null)[];
        };
        expect({ module, format, errors: data.errors, rows: data.counts.rows }).toEqual({
          module,
          format,
          errors: [],
          rows: 1,
        });
        // Every header was matched to a field by itself.
        expect(data.mapping.every((m) => m !== null)).toBe(true);
      }
    }
  });
});
