import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGeography } from '../../../src/seed/geography.ts';
import { rows } from '../../../src/seed/sql.ts';
import { sharedTestApp } from '../../support/app.ts';

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  await loadGeography(t.handle.db, { cityCountries: ['GB', 'IE'] });
  admin = await t.login();
}, 120_000);

interface City {
  cityCode: string;
  name: string;
  state: { name: string };
  country: { name: string };
}

/** The keyword matches part of a city's, its state's or its country's name: the plain join it replaces. */
async function expected(keyword: string) {
  return rows<{ city_code: string }>(
    t.handle.db,
    sql`select c.city_code from cities c join states s on s.state_code = c.state_code
      join countries co on co.country_code = c.country_code
      where c.name ilike ${`%${keyword}%`} or s.name ilike ${`%${keyword}%`} or co.name ilike ${`%${keyword}%`}
      order by c.name, c.id`,
  );
}

async function allPages(keyword: string) {
  const out: City[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const body = (
      await t.get('GetCities', admin, { keyword, sortField: 'name', sortValue: 'asc', limit: 100, page })
    ).json();
    total = body.total;
    out.push(...body.data);
    if (body.data.length < 100) break;
  }
  return { out, total };
}

describe('lists over large tables', () => {
  it('matches the keyword in joined names exactly as a join would, page after page', async () => {
    // 'Munster' is an Irish province (a state) and 'Ireland' a country: matches come through the join.
    for (const keyword of ['munster', 'IRELAND', 'bridge']) {
      const want = await expected(keyword);
      const { out, total } = await allPages(keyword);
      expect(want.length).toBeGreaterThan(20);
      expect(total).toBe(want.length);
      expect(out.map((c) => c.cityCode)).toEqual(want.map((w) => w.city_code));
    }
    const munster = (await t.get('GetCities', admin, { keyword: 'munster', limit: 30 })).json();
    expect(
      munster.data.every((c: City) => /munster/i.test(`${c.name} ${c.state.name} ${c.country.name}`)),
    ).toBe(true);
  });

  it('gives exact totals on full, partial, empty and out-of-range pages', async () => {
    const want = (await expected('bridge')).length;
    const full = (await t.get('GetCities', admin, { keyword: 'bridge', limit: 10 })).json();
    expect([full.data.length, full.total]).toEqual([10, want]);
    const lastPage = Math.ceil(want / 10);
    const last = (await t.get('GetCities', admin, { keyword: 'bridge', limit: 10, page: lastPage })).json();
    expect([last.data.length, last.total]).toEqual([want - (lastPage - 1) * 10, want]);
    const beyond = (
      await t.get('GetCities', admin, { keyword: 'bridge', limit: 10, page: lastPage + 5 })
    ).json();
    expect([beyond.data.length, beyond.total]).toEqual([0, want]);
    const none = (await t.get('GetCities', admin, { keyword: 'no such place' })).json();
    expect([none.data.length, none.total]).toEqual([0, 0]);
  });

  it('reuses a page until a table it reads changes, whoever writes', async () => {
    const count = async () =>
      Number((await rows<{ n: string }>(t.handle.db, sql`select count(*) as n from cities`))[0]!.n);
    const before = await count();
    const listed = async () => (await t.get('GetCities', admin, { limit: 10 })).json().total as number;
    expect(await listed()).toBe(before);
    const [place] = await rows<{ state_code: string; country_code: string }>(
      t.handle.db,
      sql`select state_code, country_code from cities limit 1`,
    );

    // With its triggers silenced, a write cannot be seen: the kept page is what answers.
    await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into cities (city_code, name, state_code, country_code)
        values ('CITY-BEHINDTHEBACK01', 'Aardvark Cross', ${place!.state_code}, ${place!.country_code})`);
    });
    await t.settle();
    expect(await listed()).toBe(before);

    // A write behind the server's back, with its notification: the page is read afresh.
    await t.handle.db.execute(sql`insert into cities (city_code, name, state_code, country_code)
      values ('CITY-BEHINDTHEBACK02', 'Aardvark Green', ${place!.state_code}, ${place!.country_code})`);
    await t.settle();
    expect(await listed()).toBe(before + 2);

    // A write through the API is seen by the very next request.
    const created = await t.post(
      'CreateCity',
      { name: 'Zebra Crossing', stateCode: place!.state_code, countryCode: place!.country_code },
      admin,
    );
    expect(created.statusCode).toBe(200);
    expect(await listed()).toBe(before + 3);
  });

  it('reads a page afresh when a joined table changes', async () => {
    const listed = async () =>
      (await t.get('GetCities', admin, { keyword: 'Aardvark', limit: 10 })).json() as {
        data: City[];
        total: number;
      };
    const first = await listed();
    expect(first.total).toBe(2);
    const stateCode = (first.data[0] as unknown as { state: { stateCode: string } }).state.stateCode;
    await t.handle.db.execute(sql`update states set name = 'Renamed Shire' where state_code = ${stateCode}`);
    await t.settle();
    const again = await listed();
    expect(again.data.map((c) => c.state.name)).toContain('Renamed Shire');
  });
});
