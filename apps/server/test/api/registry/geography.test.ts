import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, countries, states } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, lastAudit, names } from './support.ts';

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

async function country(name: string, iso2: string, iso3: string) {
  return expectOk(await t.post('CreateCountry', { name, iso2, iso3 }, admin), 'Country created successfully')
    .data as Json;
}
async function state(name: string, iso: string, countryCode: unknown) {
  return expectOk(
    await t.post('CreateState', { name, iso, countryCode }, admin),
    'State created successfully',
  ).data as Json;
}
async function city(name: string, stateCode: unknown, countryCode: unknown) {
  return expectOk(
    await t.post('CreateCity', { name, stateCode, countryCode }, admin),
    'City created successfully',
  ).data as Json;
}

describe('countries', () => {
  it('creates with upper-cased ISO codes, audits, updates and refuses duplicates per field', async () => {
    const fr = await country('France', 'fr', 'fra');
    expect(fr).toEqual({
      countryCode: expect.stringMatching(/^COUNTRY-[0-9A-Z]{16}$/),
      name: 'France',
      iso2: 'FR',
      iso3: 'FRA',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await lastAudit(t, 'countries')).toMatchObject({ action: 'CREATE', after: fr });
    expect(
      expectOk(
        await t.post('GetCountryByCode', { countryCode: fr.countryCode }, admin),
        'Country fetched successfully',
      ).data,
    ).toEqual(fr);
    for (const [body, field, message] of [
      [{ name: 'FRANCE', iso2: 'XF', iso3: 'XFR' }, 'name', 'A country with this name already exists'],
      [{ name: 'Frankland', iso2: 'Fr', iso3: 'XFR' }, 'iso2', 'A country with this ISO2 already exists'],
      [{ name: 'Frankland', iso2: 'XF', iso3: 'fra' }, 'iso3', 'A country with this ISO3 already exists'],
    ] as const) {
      const res = expectError(await t.post('CreateCountry', body, admin), 409, message);
      expect(res.errors).toEqual([{ field, message }]);
    }
    const bad = expectError(
      await t.post('CreateCountry', { name: '', iso2: 'F1', iso3: 'FRAN' }, admin),
      400,
      'Invalid input',
    );
    expect(bad.errors).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'iso2', message: 'ISO2 must be exactly 2 letters' },
      { field: 'iso3', message: 'ISO3 must be exactly 3 letters' },
    ]);

    const upd = expectOk(
      await t.post(
        'UpdateCountry',
        { countryCode: fr.countryCode, name: 'French Republic', iso2: 'FR', iso3: 'FRA' },
        admin,
      ),
      'Country updated successfully',
    );
    expect(upd.data.name).toBe('French Republic');
    const audit = await lastAudit(t, 'countries');
    expect(audit).toMatchObject({ action: 'UPDATE', before: fr, after: upd.data });
    expect(audit.changes).toEqual({ name: { old: 'France', new: 'French Republic' } });
    expectError(
      await t.post(
        'UpdateCountry',
        { countryCode: 'COUNTRY-NOPE', name: 'X', iso2: 'XX', iso3: 'XXX' },
        admin,
      ),
      404,
      'Country not found',
    );
  });

  it('refuses to delete a country with states or cities, naming them, and deletes nothing', async () => {
    const es = await country('Spain', 'ES', 'ESP');
    const s1 = await state('Catalonia', 'CT', es.countryCode);
    await state('Galicia', 'GA', es.countryCode);
    await city('Barcelona', s1.stateCode, es.countryCode);
    const res = expectError(
      await t.post('DeleteCountry', { countryCode: es.countryCode }, admin),
      409,
      'Cannot delete this country: it is still used by 2 states, 1 city',
    );
    expect(res.errors).toBeUndefined();
    expect(
      await t.handle.db
        .select()
        .from(countries)
        .where(eq(countries.countryCode, es.countryCode as string)),
    ).toHaveLength(1);
    expect(
      await t.handle.db
        .select()
        .from(states)
        .where(eq(states.countryCode, es.countryCode as string)),
    ).toHaveLength(2);

    const empty = await country('Andorra', 'AD', 'AND');
    const del = expectOk(
      await t.post('DeleteCountry', { countryCode: empty.countryCode }, admin),
      'Country deleted successfully',
    );
    expect(del.data).toEqual(empty);
    expect(await lastAudit(t, 'countries')).toMatchObject({ action: 'DELETE', before: empty, after: null });
    expect(
      await t.handle.db
        .select()
        .from(countries)
        .where(eq(countries.countryCode, empty.countryCode as string)),
    ).toEqual([]);
  });
});

describe('states', () => {
  it('nests the country, checks it exists, and keeps ISO unique within a country only', async () => {
    const de = await country('Germany', 'DE', 'DEU');
    const at = await country('Austria', 'AT', 'AUT');
    const by = await state('Bavaria', 'by', de.countryCode);
    expect(await lastAudit(t, 'states')).toMatchObject({
      action: 'CREATE',
      before: null,
      after: by,
      changes: { iso: { old: null, new: 'BY' }, 'country.name': { old: null, new: 'Germany' } },
    });
    expect(by).toEqual({
      stateCode: expect.stringMatching(/^STATE-/),
      name: 'Bavaria',
      iso: 'BY',
      country: { countryCode: de.countryCode, name: 'Germany' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expectOk(
      await t.post('CreateState', { name: 'Burgenland', iso: 'BY', countryCode: at.countryCode }, admin),
      'State created successfully',
    );
    const dup = expectError(
      await t.post('CreateState', { name: 'Bayern', iso: 'By', countryCode: de.countryCode }, admin),
      409,
      'A state with this ISO already exists in this country',
    );
    expect(dup.errors).toEqual([
      { field: 'iso', message: 'A state with this ISO already exists in this country' },
    ]);
    const unknown = expectError(
      await t.post('CreateState', { name: 'Nowhere', iso: 'NW', countryCode: 'COUNTRY-NOPE' }, admin),
      400,
      'Invalid input',
    );
    expect(unknown.errors).toEqual([{ field: 'countryCode', message: 'Country not found' }]);
    const missing = expectError(await t.post('CreateState', {}, admin), 400, 'Invalid input');
    expect(missing.errors.map((e: Json) => e.field)).toEqual(['name', 'iso', 'countryCode']);
    expectError(await t.post('GetStateByCode', { stateCode: 'STATE-NOPE' }, admin), 404, 'State not found');
    expect(
      expectOk(
        await t.post('GetStateByCode', { stateCode: by.stateCode }, admin),
        'State fetched successfully',
      ).data,
    ).toEqual(by);
  });

  it("lists a country's states with paging, sorts by the country's name and searches it", async () => {
    const it_ = await country('Italy', 'IT', 'ITA');
    for (const [name, iso] of [
      ['Lazio', '62'],
      ['Sicily', '82'],
      ['Tuscany', '52'],
    ] as const)
      await state(name, iso, it_.countryCode);
    const sub = expectOk(
      await t.post('GetStatesByCountryCode', { countryCode: it_.countryCode }, admin, {
        limit: 2,
        page: 2,
        sortField: 'name',
        sortValue: 'asc',
      }),
      'States fetched successfully',
    );
    expect(sub.total).toBe(3);
    expect(names(sub.data)).toEqual(['Tuscany']);
    expectError(
      await t.post('GetStatesByCountryCode', { countryCode: 'COUNTRY-NOPE' }, admin),
      404,
      'Country not found',
    );
    const noCode = expectError(await t.post('GetStatesByCountryCode', {}, admin), 400, 'Invalid input');
    expect(noCode.errors).toEqual([{ field: 'countryCode', message: 'countryCode is required' }]);

    const byCountry = (
      await t.get('GetStates', admin, { keyword: 'ital', sortField: 'name', sortValue: 'desc' })
    ).json();
    expect(names(byCountry.data)).toEqual(['Tuscany', 'Sicily', 'Lazio']);
    const sorted = (
      await t.get('GetStates', admin, { sortField: 'country.name', sortValue: 'asc', limit: 100 })
    ).json();
    const countryNames = sorted.data.map((s: { country: { name: string } }) => s.country.name);
    expect(countryNames).toEqual([...countryNames].sort());
    expect(new Set(countryNames).size).toBeGreaterThan(1);
    const bare = (await t.get('GetStates', admin, { keyword: 'lazio', populate: 'false' })).json();
    expect(bare.data[0].country).toEqual({ countryCode: it_.countryCode });
    expectError(await t.get('GetStates', admin, { sortField: 'country.countryCode' }), 400, 'Invalid input');
  });

  it('refuses to move a state that has cities to another country', async () => {
    const a = await country('Portugal', 'PT', 'PRT');
    const b = await country('Brazil', 'BR', 'BRA');
    const lisbon = await state('Lisbon', '11', a.countryCode);
    await city('Sintra', lisbon.stateCode, a.countryCode);
    const res = expectError(
      await t.post(
        'UpdateState',
        { stateCode: lisbon.stateCode, name: 'Lisbon', iso: '11', countryCode: b.countryCode },
        admin,
      ),
      409,
      'Cannot move this state to another country: it is still used by 1 city',
    );
    expect(res.errors[0].field).toBe('countryCode');
    const [row] = await t.handle.db
      .select()
      .from(states)
      .where(eq(states.stateCode, lisbon.stateCode as string));
    expect(row!.countryCode).toBe(a.countryCode);
    const renamed = expectOk(
      await t.post(
        'UpdateState',
        { stateCode: lisbon.stateCode, name: 'Lisboa', iso: '11', countryCode: a.countryCode },
        admin,
      ),
      'State updated successfully',
    );
    expect((await lastAudit(t, 'states')).changes).toEqual({ name: { old: 'Lisbon', new: 'Lisboa' } });
    expect(renamed.data.name).toBe('Lisboa');
  });
});

describe('cities', () => {
  it("requires the city's state to belong to its country, on create and update", async () => {
    const us = await country('United States', 'US', 'USA');
    const ca = await country('Canada', 'CA', 'CAN');
    const tx = await state('Texas', 'TX', us.countryCode);
    const on = await state('Ontario', 'ON', ca.countryCode);
    const wrong = expectError(
      await t.post(
        'CreateCity',
        { name: 'Austin', stateCode: on.stateCode, countryCode: us.countryCode },
        admin,
      ),
      400,
      'Invalid input',
    );
    expect(wrong.errors).toEqual([
      { field: 'stateCode', message: 'State does not belong to the chosen country' },
    ]);
    expect(await t.handle.db.select().from(cities).where(eq(cities.name, 'Austin'))).toEqual([]);

    const austin = await city('Austin', tx.stateCode, us.countryCode);
    expect(austin).toEqual({
      cityCode: expect.stringMatching(/^CITY-/),
      name: 'Austin',
      state: { stateCode: tx.stateCode, name: 'Texas' },
      country: { countryCode: us.countryCode, name: 'United States' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    const badUpdate = expectError(
      await t.post(
        'UpdateCity',
        { cityCode: austin.cityCode, name: 'Austin', stateCode: tx.stateCode, countryCode: ca.countryCode },
        admin,
      ),
      400,
      'Invalid input',
    );
    expect(badUpdate.errors).toEqual([
      { field: 'stateCode', message: 'State does not belong to the chosen country' },
    ]);
    const moved = expectOk(
      await t.post(
        'UpdateCity',
        { cityCode: austin.cityCode, name: 'Toronto', stateCode: on.stateCode, countryCode: ca.countryCode },
        admin,
      ),
      'City updated successfully',
    );
    expect(moved.data).toMatchObject({ state: { name: 'Ontario' }, country: { name: 'Canada' } });
    expect((await lastAudit(t, 'cities')).changes).toEqual({
      name: { old: 'Austin', new: 'Toronto' },
      'state.stateCode': { old: tx.stateCode, new: on.stateCode },
      'state.name': { old: 'Texas', new: 'Ontario' },
      'country.countryCode': { old: us.countryCode, new: ca.countryCode },
      'country.name': { old: 'United States', new: 'Canada' },
    });
    const unknown = expectError(
      await t.post('CreateCity', { name: 'X', stateCode: 'STATE-NOPE', countryCode: 'COUNTRY-NOPE' }, admin),
      400,
      'Invalid input',
    );
    expect(unknown.errors).toEqual([
      { field: 'countryCode', message: 'Country not found' },
      { field: 'stateCode', message: 'State not found' },
    ]);
  });

  it('lists by state and by country, sorts by joined names and searches them', async () => {
    const jp = await country('Japan', 'JP', 'JPN');
    const kanto = await state('Kanto', 'KT', jp.countryCode);
    const kansai = await state('Kansai', 'KS', jp.countryCode);
    await city('Tokyo', kanto.stateCode, jp.countryCode);
    await city('Yokohama', kanto.stateCode, jp.countryCode);
    await city('Osaka', kansai.stateCode, jp.countryCode);

    const byState = expectOk(
      await t.post('GetCitiesByStateCode', { stateCode: kanto.stateCode }, admin, {
        sortField: 'name',
        sortValue: 'asc',
      }),
      'Cities fetched successfully',
    );
    expect(names(byState.data)).toEqual(['Tokyo', 'Yokohama']);
    const byCountry = (
      await t.post('GetCitiesByCountryCode', { countryCode: jp.countryCode }, admin, {
        sortField: 'state.name',
        sortValue: 'asc',
      })
    ).json();
    expect(byCountry.total).toBe(3);
    expect(names(byCountry.data)[0]).toBe('Osaka');
    expectError(
      await t.post('GetCitiesByStateCode', { stateCode: 'STATE-NOPE' }, admin),
      404,
      'State not found',
    );
    expectError(
      await t.post('GetCitiesByCountryCode', { countryCode: 'COUNTRY-NOPE' }, admin),
      404,
      'Country not found',
    );

    const search = (await t.get('GetCities', admin, { keyword: 'kans' })).json();
    expect(names(search.data)).toEqual(['Osaka']);
    const byCountryName = (
      await t.get('GetCities', admin, { sortField: 'country.name', sortValue: 'desc', limit: 100 })
    ).json();
    const cn = byCountryName.data.map((c: { country: { name: string } }) => c.country.name);
    expect(cn).toEqual([...cn].sort().reverse());
    const bare = (await t.get('GetCities', admin, { keyword: 'osaka', populate: 'false' })).json();
    expect(bare.data[0]).toMatchObject({
      state: { stateCode: kansai.stateCode },
      country: { countryCode: jp.countryCode },
    });
    expect(Object.keys(bare.data[0].state)).toEqual(['stateCode']);

    expectError(
      await t.post('DeleteState', { stateCode: kanto.stateCode }, admin),
      409,
      'Cannot delete this state: it is still used by 2 cities',
    );
    const osaka = search.data[0];
    expect(
      expectOk(
        await t.post('GetCityByCode', { cityCode: osaka.cityCode }, admin),
        'City fetched successfully',
      ).data,
    ).toEqual(osaka);
    expectOk(await t.post('DeleteCity', { cityCode: osaka.cityCode }, admin), 'City deleted successfully');
    expect(await lastAudit(t, 'cities')).toMatchObject({ action: 'DELETE', before: osaka, after: null });
    expectError(await t.post('GetCityByCode', { cityCode: osaka.cityCode }, admin), 404, 'City not found');
    expectOk(
      await t.post('DeleteState', { stateCode: kansai.stateCode }, admin),
      'State deleted successfully',
    );
    expect(await lastAudit(t, 'states')).toMatchObject({ action: 'DELETE', before: kansai, after: null });
    expect(
      await t.handle.db
        .select()
        .from(states)
        .where(eq(states.stateCode, kansai.stateCode as string)),
    ).toEqual([]);
  });

  it("lets the city form load countries and a country's states as codes and names only", async () => {
    const nz = await country('New Zealand', 'NZ', 'NZL');
    await state('Otago', 'OTA', nz.countryCode);
    const clerk = await t.userWith(['CREATE_CITY']);
    const list = expectOk(
      await t.get('GetCountries', clerk.cookie, { keyword: 'zealand' }),
      'Countries fetched successfully',
    );
    expect(list.data).toEqual([{ countryCode: nz.countryCode, name: 'New Zealand' }]);
    const sub = expectOk(
      await t.post('GetStatesByCountryCode', { countryCode: nz.countryCode }, clerk.cookie),
      'States fetched successfully',
    );
    expect(sub.data).toEqual([{ stateCode: expect.any(String), name: 'Otago' }]);
    expectError(await t.get('GetCities', clerk.cookie), 403, 'You do not have permission to do this');
    expectError(
      await t.post('GetCountryByCode', { countryCode: nz.countryCode }, clerk.cookie),
      403,
      'You do not have permission to do this',
    );
    // ISO codes are not part of the selector: searching them finds nothing.
    expect((await t.get('GetCountries', clerk.cookie, { keyword: 'NZL' })).json().total).toBe(0);

    const stranger = await t.userWith(['VIEW_SKILLS']);
    expectError(await t.get('GetCountries', stranger.cookie), 403, 'You do not have permission to do this');
    expectError(
      await t.post('GetStatesByCountryCode', { countryCode: nz.countryCode }, stranger.cookie),
      403,
      'You do not have permission to do this',
    );
    expectError(await t.get('GetCountries'), 401, 'Not signed in');
  });
});
