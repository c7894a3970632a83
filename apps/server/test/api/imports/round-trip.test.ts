import { asc, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cities,
  countries,
  departments,
  employees,
  genders,
  permissions,
  profiles,
  roles,
  skills,
  states,
  users,
} from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { pngImage, postMultipart } from '../registry/support.ts';
import { startImport } from './support.ts';

/*
 * An exported list imports back as no change (issue 34, "Export of every list"): for every
 * registry module, the file Export{Plural} writes, as CSV and as XLSX, uploaded as it is.
 */

const t = sharedTestApp();
let admin: string;

/** The code a create answered with. */
async function created(path: string, body: Record<string, unknown>, code: string): Promise<string> {
  const res = await t.postJson(path, body, admin);
  expect(res.statusCode, `${path} ${res.body}`).toBe(200);
  return res.json().data[code];
}

const permissionCodes = async (names: string[]) => {
  const rows = await t.handle.db
    .select({ code: permissions.permissionCode, name: permissions.permissionName })
    .from(permissions)
    .where(inArray(permissions.permissionName, names));
  return new Map(rows.map((r) => [r.name, r.code]));
};

beforeAll(async () => {
  admin = await t.login();
  for (const genderName of ['Female', 'Male', 'Non-binary'])
    await created('CreateGender', { genderName }, 'genderCode');
  const india = await created('CreateCountry', { name: 'India', iso2: 'IN', iso3: 'IND' }, 'countryCode');
  const us = await created(
    'CreateCountry',
    { name: 'United States', iso2: 'US', iso3: 'USA' },
    'countryCode',
  );
  // The same ISO in two countries: a state is named by its ISO within its country.
  const goa = await created('CreateState', { name: 'Goa', iso: 'GA', countryCode: india }, 'stateCode');
  const kerala = await created('CreateState', { name: 'Kerala', iso: 'KL', countryCode: india }, 'stateCode');
  const georgia = await created('CreateState', { name: 'Georgia', iso: 'GA', countryCode: us }, 'stateCode');
  const oregon = await created('CreateState', { name: 'Oregon', iso: 'OR', countryCode: us }, 'stateCode');
  // The same city name in two states: a city is named within its state.
  const panaji = await created(
    'CreateCity',
    { name: 'Panaji', stateCode: goa, countryCode: india },
    'cityCode',
  );
  await created('CreateCity', { name: 'Kochi', stateCode: kerala, countryCode: india }, 'cityCode');
  await created('CreateCity', { name: 'Salem', stateCode: georgia, countryCode: us }, 'cityCode');
  await created('CreateCity', { name: 'Salem', stateCode: oregon, countryCode: us }, 'cityCode');

  await created(
    'CreateSkill',
    { title: 'Negotiation', description: 'Closes deals, keeps clients: "win-win"' },
    'skillCode',
  );
  await created('CreateSkill', { title: 'TypeScript', description: '' }, 'skillCode');

  const perms = await permissionCodes([
    'VIEW_EMPLOYEES',
    'VIEW_SKILLS',
    'UPDATE_EMPLOYEE',
    'VIEW_PERFORMANCES',
  ]);
  const viewEmployees = String(perms.get('VIEW_EMPLOYEES'));
  const manager = await created(
    'CreateRole',
    {
      roleName: 'Team lead',
      roleDescription: 'Leads a team, sees its people',
      rolePermissions: [...perms.values()],
      permissionScopes: { [viewEmployees]: 'team', [String(perms.get('UPDATE_EMPLOYEE'))]: 'team' },
      requireMfa: true,
    },
    'roleCode',
  );
  const staff = await created(
    'CreateRole',
    { roleName: 'Staff', roleDescription: '', rolePermissions: [String(perms.get('VIEW_SKILLS'))] },
    'roleCode',
  );
  const user = (username: string, roleCode: string, active = true) =>
    created(
      'register',
      { username, email: `${username}@example.com`, password: 'round-trip-pass-1', roleCode, active },
      'userCode',
    );
  const asha = await user('asha', manager);
  const ben = await user('ben', staff);
  await user('carla', staff, false);

  const sales = await created('CreateDepartment', { name: 'Sales' }, 'departmentCode');
  const employee = (employeeId: string, name: string, joinDate: string, userCode?: string) =>
    created(
      'CreateEmployee',
      { employeeId, name, departmentCode: sales, joinDate, ...(userCode ? { userCode } : {}) },
      'employeeCode',
    );
  const e1 = await employee('E-001', 'Asha Rao', '2021-04-01', asha);
  const e2 = await employee('E-002', 'Ben Okafor', '2022-11-15', ben);
  await employee('E-003', 'Dana Lee', '2023-01-09');
  await created('CreateDepartment', { name: 'Engineering', managerCodes: [e1, e2] }, 'departmentCode');
  await created('CreateDepartment', { name: 'Support', managerCodes: [e1] }, 'departmentCode');

  const [female] = await t.handle.db.select().from(genders).where(eq(genders.genderName, 'Female'));
  const png = await pngImage();
  const profile = async (userCode: string, fields: Record<string, unknown>) => {
    const res = await postMultipart(
      t,
      'CreateProfile',
      { userCode, genderCode: female?.genderCode, ...fields },
      [{ name: 'me.png', type: 'image/png', data: png }],
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  await profile(asha, {
    firstName: 'Asha',
    lastName: 'Rao',
    dob: '1990-02-28',
    phoneNumber: '+91 98765 43210',
    address: {
      addressLineOne: '12 Rua de Ourem',
      addressLineTwo: 'Fontainhas',
      countryCode: india,
      stateCode: goa,
      cityCode: panaji,
      postalCode: '403001',
    },
    social: { linkedin: 'https://linkedin.example/asha', websitePortfolioUrl: 'https://asha.example' },
    notification: { email: 'true', sms: 'false', push: 'true' },
  });
  await profile(ben, { firstName: 'Ben', lastName: 'Okafor', dob: '1988-07-04' });
});

interface Case {
  module: string;
  plural: string;
  table: Parameters<ReturnType<typeof t.handle.db.select>['from']>[0];
  mapping: (string | null)[];
}

const CASES: Case[] = [
  { module: 'gender', plural: 'Genders', table: genders, mapping: ['genderName', null, null] },
  { module: 'country', plural: 'Countries', table: countries, mapping: ['name', 'iso2', 'iso3', null, null] },
  {
    module: 'state',
    plural: 'States',
    table: states,
    mapping: ['name', 'iso', 'countryCode', null, null],
  },
  {
    module: 'city',
    plural: 'Cities',
    table: cities,
    mapping: ['name', 'stateCode', 'countryCode', null, null],
  },
  { module: 'department', plural: 'Departments', table: departments, mapping: ['name', null, null] },
  { module: 'skill', plural: 'Skills', table: skills, mapping: ['title', 'description', null, null] },
  {
    module: 'employee',
    plural: 'Employees',
    table: employees,
    mapping: ['employeeId', 'name', 'departmentCode', 'joinDate', 'userCode', null, null],
  },
  {
    module: 'user',
    plural: 'Users',
    table: users,
    mapping: ['username', 'email', 'roleCode', 'active', null, null],
  },
  {
    module: 'role',
    plural: 'Roles',
    table: roles,
    mapping: ['roleName', 'roleDescription', 'rolePermissions', 'requireMfa', null, null],
  },
  {
    module: 'profile',
    plural: 'Profiles',
    table: profiles,
    mapping: [
      'firstName',
      'lastName',
      'genderCode',
      'dob',
      'phoneNumber',
      'userCode',
      'address.addressLineOne',
      'address.addressLineTwo',
      'address.countryCode',
      'address.stateCode',
      'address.cityCode',
      'address.postalCode',
      'social.linkedin',
      'social.twitter',
      'social.facebook',
      'social.instagram',
      'social.websitePortfolioUrl',
      'notification.email',
      'notification.sms',
      'notification.push',
      null,
      null,
    ],
  },
];

/** Every row of a table, by id: what a commit of no change must leave as it was, versions included. */
const snapshot = (table: Case['table']) =>
  t.handle.db
    .select()
    .from(table)
    .orderBy(asc((table as typeof genders).id));

describe('an exported list imports back as no change', () => {
  for (const c of CASES) {
    for (const format of ['csv', 'xlsx'] as const) {
      it(`${c.module} as ${format}`, async () => {
        const before = await snapshot(c.table);
        expect(before.length).toBeGreaterThan(1);
        const exported = await t.get(`Export${c.plural}`, admin, { format });
        expect(exported.statusCode, exported.body).toBe(200);
        const started = await startImport(
          t,
          admin,
          { module: c.module, mode: 'upsert' },
          { name: `${c.plural.toLowerCase()}.${format}`, data: exported.rawPayload },
        );
        expect(started.statusCode, started.body).toBe(200);
        const preview = started.json().data;
        expect(preview.errors).toEqual([]);
        expect(preview.mapping).toEqual(c.mapping);
        expect(preview.counts).toEqual({
          rows: before.length,
          create: 0,
          update: 0,
          unchanged: before.length,
          errors: 0,
          skipped: 0,
        });
        const committed = await t.post('CommitImport', { importCode: preview.importCode }, admin);
        expect(committed.statusCode, committed.body).toBe(200);
        expect(committed.json().data).toMatchObject({
          status: 'committed',
          counts: { unchanged: before.length },
        });
        expect(await snapshot(c.table)).toEqual(before);
      });
    }
  }
});

describe('an exported profile', () => {
  it('holds the whole profile but its picture, and puts back what was cleared since', async () => {
    const exported = await t.get('ExportProfiles', admin, { format: 'xlsx' });
    const [asha] = await t.handle.db.select().from(profiles).where(eq(profiles.firstName, 'Asha'));
    await t.handle.db
      .update(profiles)
      .set({ addressLineOne: null, stateCode: null, cityCode: null, linkedin: null, notifyPush: false })
      .where(eq(profiles.profileCode, asha?.profileCode ?? ''));
    await t.settle();
    const preview = (
      await startImport(t, admin, { module: 'profile' }, { name: 'profiles.xlsx', data: exported.rawPayload })
    ).json().data;
    expect(preview.errors).toEqual([]);
    expect(preview.counts).toMatchObject({ update: 1, unchanged: 1, errors: 0 });
    expect((await t.post('CommitImport', { importCode: preview.importCode }, admin)).statusCode).toBe(200);
    const [back] = await t.handle.db.select().from(profiles).where(eq(profiles.firstName, 'Asha'));
    const { version, updatedAt, ...rest } = back ?? {};
    const { version: _v, updatedAt: _u, ...was } = asha ?? {};
    expect(rest).toEqual(was);
    expect(version).toBe((asha?.version ?? 0) + 1);
  });
});

describe('files as spreadsheets save them', () => {
  it('reads a semicolon CSV with a BOM and a quoted field holding a comma and a newline', async () => {
    const description = 'Plans, runs and reports;\nfacilitates "retros" too';
    const body = `\uFEFFTitle;Description\r\nFacilitation;"${description.replaceAll('"', '""')}"\r\nPlain;one, two\r\n`;
    const preview = (
      await startImport(t, admin, { module: 'skill' }, { name: 'skills.csv', data: Buffer.from(body) })
    ).json().data;
    expect(preview.columns).toEqual(['Title', 'Description']);
    expect(preview.mapping).toEqual(['title', 'description']);
    expect(preview.counts).toMatchObject({ rows: 2, create: 2, errors: 0 });
    expect(preview.sample[0].values).toEqual({ title: 'Facilitation', description });
    expect((await t.post('CommitImport', { importCode: preview.importCode }, admin)).statusCode).toBe(200);
    const [stored] = await t.handle.db.select().from(skills).where(eq(skills.title, 'Facilitation'));
    expect(stored?.description).toBe(description);
    const [plain] = await t.handle.db.select().from(skills).where(eq(skills.title, 'Plain'));
    expect(plain?.description).toBe('one, two');

    // Written out again and read back, it is no change.
    const exported = await t.get('ExportSkills', admin, { format: 'csv' });
    const again = (
      await startImport(t, admin, { module: 'skill' }, { name: 'skills.csv', data: exported.rawPayload })
    ).json().data;
    expect(again.counts).toMatchObject({ create: 0, update: 0, errors: 0 });
  });

  it('reads an XLSX date cell and a numeric Employee Id as the values they show', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(['Employee Id', 'Name', 'Department', 'Join Date']);
    sheet.addRow([1042, 'Farah Khan', 'Sales', new Date(Date.UTC(2024, 2, 1))]);
    sheet.addRow(['E-1043', 'Gus Park', 'Engineering', '2023-12-31']);
    sheet.getCell('D2').numFmt = 'yyyy-mm-dd';
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const preview = (
      await startImport(t, admin, { module: 'employee' }, { name: 'people.xlsx', data })
    ).json().data;
    expect(preview.errors).toEqual([]);
    expect(preview.counts).toMatchObject({ rows: 2, create: 2, errors: 0 });
    expect(preview.sample.map((s: { values: Record<string, string> }) => s.values)).toEqual([
      { employeeId: '1042', name: 'Farah Khan', departmentCode: 'Sales', joinDate: '2024-03-01' },
      { employeeId: 'E-1043', name: 'Gus Park', departmentCode: 'Engineering', joinDate: '2023-12-31' },
    ]);
    expect((await t.post('CommitImport', { importCode: preview.importCode }, admin)).statusCode).toBe(200);
    const stored = await t.handle.db
      .select({ id: employees.employeeId, joinDate: employees.joinDate })
      .from(employees)
      .where(inArray(employees.employeeId, ['1042', 'E-1043']))
      .orderBy(employees.employeeId);
    expect(stored).toEqual([
      { id: '1042', joinDate: '2024-03-01' },
      { id: 'E-1043', joinDate: '2023-12-31' },
    ]);
  });
});
