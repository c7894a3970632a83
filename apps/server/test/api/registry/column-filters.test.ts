import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, names } from './support.ts';

/**
 * The lists' column filters (a reference by code, a date range) as query parameters of their list
 * calls: alone, together, with the keyword, and counted in `total` and the export alike.
 */

const t = sharedTestApp();
let admin: string;
const code: Record<string, string> = {};

async function create(path: string, body: Json, key: string) {
  const res = await t.post(path, body, admin);
  expect(res.statusCode).toBe(200);
  return String(res.json().data[key]);
}

beforeAll(async () => {
  admin = await t.login();
  code.north = await create('CreateDepartment', { name: 'Cf North' }, 'departmentCode');
  code.south = await create('CreateDepartment', { name: 'Cf South' }, 'departmentCode');
  const people: [string, string, string][] = [
    ['Cf Ada', 'north', '2020-01-15'],
    ['Cf Bo', 'north', '2022-06-30'],
    ['Cf Cy', 'south', '2022-07-01'],
  ];
  for (const [name, dept, joinDate] of people)
    await create(
      'CreateEmployee',
      { employeeId: name.replace(' ', '-'), name, departmentCode: code[dept], joinDate },
      'employeeCode',
    );
  code.land = await create('CreateCountry', { name: 'Cfland', iso2: 'QF', iso3: 'QFL' }, 'countryCode');
  code.other = await create('CreateCountry', { name: 'Cfother', iso2: 'QO', iso3: 'QOT' }, 'countryCode');
  code.east = await create(
    'CreateState',
    { name: 'Cf East', iso: 'CE', countryCode: code.land },
    'stateCode',
  );
  code.west = await create(
    'CreateState',
    { name: 'Cf West', iso: 'CW', countryCode: code.other },
    'stateCode',
  );
  await create('CreateCity', { name: 'Cf One', countryCode: code.land, stateCode: code.east }, 'cityCode');
  await create('CreateCity', { name: 'Cf Two', countryCode: code.other, stateCode: code.west }, 'cityCode');
});

/** `GetEmployees` → 'Employees fetched successfully'. */
const fetched = (path: string) => `${path.replace(/^Get/, '')} fetched successfully`;

async function listed(path: string, query: Record<string, string>) {
  const body = expectOk(await t.get(path, admin, { keyword: 'Cf', ...query }), fetched(path));
  return { names: names(body.data as Json[]).sort(), total: body.total as number };
}

describe('column filters', () => {
  it('narrow employees to a department, counted in the total', async () => {
    expect(await listed('GetEmployees', { departmentCode: code.north ?? '' })).toEqual({
      names: ['Cf Ada', 'Cf Bo'],
      total: 2,
    });
    expect(await listed('GetEmployees', { departmentCode: code.south ?? '', limit: '1' })).toMatchObject({
      total: 1,
    });
    expect(await listed('GetEmployees', { departmentCode: 'DEPT-NOPE' })).toEqual({ names: [], total: 0 });
  });

  it('narrow employees to a join-date range, whole days, with the department', async () => {
    expect(await listed('GetEmployees', { joinedFrom: '2022-06-30' })).toEqual({
      names: ['Cf Bo', 'Cf Cy'],
      total: 2,
    });
    expect(await listed('GetEmployees', { joinedTo: '2022-06-30' })).toEqual({
      names: ['Cf Ada', 'Cf Bo'],
      total: 2,
    });
    expect(
      await listed('GetEmployees', { joinedFrom: '2022-01-01', departmentCode: code.north ?? '' }),
    ).toEqual({ names: ['Cf Bo'], total: 1 });
  });

  it('refuses a range that ends before it starts, and a date that is none', async () => {
    expectError(
      await t.get('GetEmployees', admin, { joinedFrom: '2023-01-01', joinedTo: '2022-01-01' }),
      400,
      'Invalid input',
    );
    expectError(await t.get('GetEmployees', admin, { joinedFrom: '2023-02-30' }), 400, 'Invalid input');
  });

  it('narrow states and cities to a country or a state', async () => {
    expect(await listed('GetStates', { countryCode: code.land ?? '' })).toEqual({
      names: ['Cf East'],
      total: 1,
    });
    expect(await listed('GetCities', { countryCode: code.other ?? '' })).toEqual({
      names: ['Cf Two'],
      total: 1,
    });
    expect(await listed('GetCities', { stateCode: code.east ?? '' })).toEqual({
      names: ['Cf One'],
      total: 1,
    });
  });

  it('narrow the export as they narrow the list', async () => {
    const res = await t.get('ExportEmployees', admin, { departmentCode: code.south ?? '' });
    expect(res.statusCode).toBe(200);
    const rows = res.body.split('\n').slice(1).filter(Boolean);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Cf Cy');
  });

  it('narrow users to a role', async () => {
    const roles = expectOk(await t.get('GetRoles', admin, { keyword: 'Administrator' }), fetched('GetRoles'));
    const roleCode = String((roles.data as Json[])[0]?.roleCode);
    const body = expectOk(await t.get('GetUsers', admin, { roleCode }), fetched('GetUsers'));
    expect((body.data as Json[]).map((u) => u.username)).toContain('admin');
    expect((body.data as Json[]).every((u) => (u.role as Json).roleCode === roleCode)).toBe(true);
  });
});
