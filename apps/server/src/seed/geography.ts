import { faker } from '@faker-js/faker';
import { City, Country, State } from 'country-state-city';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { cities, countries, states } from '../db/schema/index.ts';
import { codeSql, jsonRecords, rows } from './sql.ts';

/** The dataset has no alpha-3 codes; faker's ISO 3166 table has them for all but Kosovo. */
const ALPHA3_EXTRA: Record<string, string> = { XK: 'XKX' };

/**
 * Sized so that one statement's JSON stays small and the statement short: the embedded database
 * holds the server's thread while a statement runs, and requests (health probes during a first
 * start) are answered between two.
 */
const CITY_BATCH = 5_000;

export interface GeographyOptions {
  /** ISO2 codes of the countries whose cities are loaded, or 'all' (about 148,000 cities). */
  cityCountries: readonly string[] | 'all';
}

/**
 * Countries, states and cities from the country-state-city dataset. Idempotent: countries and
 * states are skipped by their unique keys, and cities load only for countries that have none yet.
 */
export async function loadGeography(db: Executor, opts: GeographyOptions) {
  const alpha3 = new Map(faker.definitions.location.country_code.map((c) => [c.alpha2, c.alpha3]));
  const countryRows = Country.getAllCountries().map((c) => ({
    name: c.name,
    iso2: c.isoCode,
    iso3: alpha3.get(c.isoCode) ?? ALPHA3_EXTRA[c.isoCode],
  }));
  await db.execute(sql`insert into ${countries} (country_code, name, iso2, iso3)
    select ${codeSql('COUNTRY-')}, r.name, r.iso2, r.iso3
    from ${jsonRecords(countryRows, sql`name text, iso2 text, iso3 text`)}
    where r.iso3 is not null
    order by r.name
    on conflict do nothing`);

  const stateRows = State.getAllStates().map((s) => ({
    name: s.name,
    iso: s.isoCode,
    country: s.countryCode,
  }));
  await db.execute(sql`insert into ${states} (state_code, name, iso, country_code)
    select ${codeSql('STATE-')}, r.name, r.iso, c.country_code
    from ${jsonRecords(stateRows, sql`name text, iso text, country text`)}
    join ${countries} c on upper(c.iso2) = r.country
    order by r.country, r.name
    on conflict do nothing`);

  const wanted = opts.cityCountries === 'all' ? undefined : new Set(opts.cityCountries);
  const already = new Set(
    (
      await rows<{ iso2: string }>(
        db,
        sql`select distinct upper(c.iso2) as iso2 from ${cities} ci join ${countries} c on c.country_code = ci.country_code`,
      )
    ).map((r) => r.iso2),
  );
  const cityRows = City.getAllCities()
    .filter((c) => (!wanted || wanted.has(c.countryCode)) && !already.has(c.countryCode))
    .map((c) => ({ name: c.name, country: c.countryCode, state: c.stateCode }));
  for (let i = 0; i < cityRows.length; i += CITY_BATCH) {
    await db.execute(sql`insert into ${cities} (city_code, name, state_code, country_code)
      select ${codeSql('CITY-')}, r.name, s.state_code, c.country_code
      from ${jsonRecords(cityRows.slice(i, i + CITY_BATCH), sql`name text, country text, state text`)}
      join ${countries} c on upper(c.iso2) = r.country
      join ${states} s on s.country_code = c.country_code and lower(s.iso) = lower(r.state)`);
  }
}
