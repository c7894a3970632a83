import type { SearchResult } from '@wfc/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../support/app.ts';
import { expectError, expectOk } from '../support/envelope.ts';
import { type Company, company } from './scopes/support.ts';

/**
 * `POST Search`: the records of every module the caller may view, matched by name, code or the
 * module's other identifiers, within the records the caller's VIEW permission reaches.
 */

const t = sharedTestApp();
let admin: string;
let c: Company;
let cityCode: string;

const FOUND = 'Search results fetched successfully';

async function search(cookie: string, keyword: string, limit?: number) {
  const res = await t.post('Search', { keyword, ...(limit === undefined ? {} : { limit }) }, cookie);
  return (expectOk(res, FOUND).data as { results: SearchResult[] }).results;
}

const found = (results: SearchResult[]) => results.map((r) => `${r.resource}:${r.name}`);

beforeAll(async () => {
  admin = await t.login();
  c = await company(t, admin);
  const country = expectOk(
    await t.post('CreateCountry', { name: 'Searchland', iso2: 'SL', iso3: 'SLD' }, admin),
    'Country created successfully',
  ).data.countryCode as string;
  const state = expectOk(
    await t.post('CreateState', { name: 'Querystate', iso: 'QS', countryCode: country }, admin),
    'State created successfully',
  ).data.stateCode as string;
  cityCode = expectOk(
    await t.post('CreateCity', { name: 'Findmeville', countryCode: country, stateCode: state }, admin),
    'City created successfully',
  ).data.cityCode as string;
});

describe('search across modules', () => {
  it('needs a session', async () => {
    expectError(await t.post('Search', { keyword: 'Anna' }), 401, 'Not signed in');
  });

  it('refuses a body without a keyword, or with a limit out of range', async () => {
    const blank = expectError(await t.post('Search', { keyword: '   ' }, admin), 400, 'Invalid input');
    expect(blank.errors).toEqual([{ field: 'keyword', message: 'Keyword is required' }]);
    expectError(await t.post('Search', {}, admin), 400, 'Invalid input');
    const many = expectError(
      await t.post('Search', { keyword: 'a', limit: 11 }, admin),
      400,
      'Invalid input',
    );
    expect(many.errors).toEqual([{ field: 'limit', message: 'Limit must be at most 10' }]);
    expectError(await t.postJson('Search', { keyword: 'a', limit: 'many' }, admin), 400, 'Invalid input');
  });

  it('finds an employee by Employee Id, with the Id beside the name', async () => {
    expect(await search(admin, 'b-001')).toEqual([
      { resource: 'employee', code: c.people.bert.employeeCode, name: 'Bert Beta', detail: 'B-001' },
    ]);
  });

  it('finds records by name across modules, and one by its whole code', async () => {
    expect(found(await search(admin, 'findme'))).toEqual(['city:Findmeville']);
    expect(found(await search(admin, 'alpha'))).toEqual(
      expect.arrayContaining(['user:anna.alpha', 'department:Alpha', 'employee:Anna Alpha']),
    );
    expect(await search(admin, cityCode.toLowerCase())).toEqual([
      { resource: 'city', code: cityCode, name: 'Findmeville' },
    ]);
  });

  it('gives at most the asked number per module, names starting with the keyword first', async () => {
    const results = await search(admin, 'a', 2);
    const modules = new Set(results.map((r) => r.resource));
    expect(modules.size).toBeGreaterThan(3);
    for (const m of modules) expect(results.filter((r) => r.resource === m).length).toBeLessThanOrEqual(2);
    expect(found(await search(admin, 'beta')).filter((r) => r.startsWith('department:'))).toEqual([
      'department:Beta',
    ]);
    // Audit entries have no name to find them by.
    expect(results.some((r) => r.resource === 'audit')).toBe(false);
  });

  it('leaves out the modules the caller may not view, without refusing', async () => {
    const cities = await t.userWith(['VIEW_CITIES']);
    const wide = await search(cities.cookie, 'e', 10);
    expect(found(wide)).toContain('city:Findmeville');
    expect(new Set(wide.map((r) => r.resource))).toEqual(new Set(['city']));
    expect(await search(cities.cookie, 'B-001')).toEqual([]);
    const nothing = await t.userWith(['CREATE_GENDER']);
    expect(await search(nothing.cookie, 'Findmeville')).toEqual([]);
  });

  it('reaches a team lead’s team only, and an employee’s own records only', async () => {
    expect(found(await search(c.lena, 'a-00')).sort()).toEqual(['employee:Anna Alpha', 'employee:Lena Lead']);
    expect(await search(c.lena, 'Bert')).toEqual([]);
    expect(await search(c.lena, 'B-001')).toEqual([]);
    expect(await search(c.lena, c.people.bert.employeeCode)).toEqual([]);
    expect(found(await search(c.anna, 'a'))).toEqual(['profile:Anna', 'employee:Anna Alpha']);
    expect(await search(c.anna, 'Lena')).toEqual([]);
  });
});
