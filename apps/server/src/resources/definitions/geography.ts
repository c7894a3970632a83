import { cityResource, countryResource, stateResource } from '@wfc/contract';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cities, countries, profiles, states } from '../../db/schema/index.ts';
import { badRequest, conflict } from '../../http/envelope.ts';
import { referencesTo } from '../engine.ts';
import type { Dependent, ServerResource } from '../server-resource.ts';

const countryNotFound = { column: countries.countryCode, notFound: 'Country not found' };

/**
 * A record may not change its parent while others refer to it: their own parent would no longer
 * match (a city in one country whose state lies in another).
 */
async function refuseMove(
  tx: Executor,
  label: string,
  dependents: readonly Dependent[],
  code: string,
  parentField: string,
) {
  const blockers = await referencesTo(tx, dependents, code);
  if (blockers.length) {
    const message = `Cannot move this ${label} to another ${parentField}: it is still used by ${blockers.join(', ')}`;
    throw conflict(message, [{ field: `${parentField}Code`, message }]);
  }
}

export const countries$: ServerResource = {
  def: countryResource,
  table: countries,
  idColumn: countries.id,
  codeColumn: countries.countryCode,
  updatedAtColumn: countries.updatedAt,
  shape: {
    countryCode: countries.countryCode,
    name: countries.name,
    iso2: countries.iso2,
    iso3: countries.iso3,
    createdAt: countries.createdAt,
    updatedAt: countries.updatedAt,
  },
  search: ['name', 'iso2', 'iso3'],
  unique: [
    {
      constraint: 'countries_name_unique',
      field: 'name',
      message: 'A country with this name already exists',
    },
    {
      constraint: 'countries_iso2_unique',
      field: 'iso2',
      message: 'A country with this ISO2 already exists',
    },
    {
      constraint: 'countries_iso3_unique',
      field: 'iso3',
      message: 'A country with this ISO3 already exists',
    },
  ],
  dependents: [
    { column: states.countryCode, one: 'state', many: 'states' },
    { column: cities.countryCode, one: 'city', many: 'cities' },
    { column: profiles.countryCode, one: 'profile', many: 'profiles' },
  ],
};

export const states$: ServerResource = {
  def: stateResource,
  table: states,
  idColumn: states.id,
  codeColumn: states.stateCode,
  updatedAtColumn: states.updatedAt,
  shape: {
    stateCode: states.stateCode,
    name: states.name,
    iso: states.iso,
    country: { countryCode: countries.countryCode, name: countries.name },
    createdAt: states.createdAt,
    updatedAt: states.updatedAt,
  },
  joins: [{ table: countries, on: eq(countries.countryCode, states.countryCode) }],
  search: ['name', 'iso', 'country.name'],
  refs: [{ field: 'countryCode', column: countries.countryCode, label: 'Country' }],
  unique: [
    {
      constraint: 'states_iso_unique',
      field: 'iso',
      message: 'A state with this ISO already exists in this country',
    },
  ],
  dependents: [
    { column: cities.stateCode, one: 'city', many: 'cities' },
    { column: profiles.stateCode, one: 'profile', many: 'profiles' },
  ],
  async validate(input, { tx }, existing) {
    const country = existing?.country as { countryCode: string } | undefined;
    if (country && country.countryCode !== input.countryCode) {
      await refuseMove(tx, 'state', states$.dependents ?? [], existing?.stateCode as string, 'country');
    }
  },
  subLists: [
    {
      endpoint: 'GetStatesByCountryCode',
      param: 'countryCode',
      parent: countryNotFound,
      where: (code) => eq(states.countryCode, code),
    },
  ],
};

export const cities$: ServerResource = {
  def: cityResource,
  table: cities,
  idColumn: cities.id,
  codeColumn: cities.cityCode,
  updatedAtColumn: cities.updatedAt,
  shape: {
    cityCode: cities.cityCode,
    name: cities.name,
    state: { stateCode: states.stateCode, name: states.name },
    country: { countryCode: countries.countryCode, name: countries.name },
    createdAt: cities.createdAt,
    updatedAt: cities.updatedAt,
  },
  joins: [
    { table: states, on: eq(states.stateCode, cities.stateCode) },
    { table: countries, on: eq(countries.countryCode, cities.countryCode) },
  ],
  search: ['name', 'state.name', 'country.name'],
  refs: [
    { field: 'countryCode', column: countries.countryCode, label: 'Country' },
    { field: 'stateCode', column: states.stateCode, label: 'State' },
  ],
  dependents: [{ column: profiles.cityCode, one: 'profile', many: 'profiles' }],
  async validate(input, { tx }, existing) {
    const state = existing?.state as { stateCode: string } | undefined;
    if (state && state.stateCode !== input.stateCode) {
      await refuseMove(tx, 'city', cities$.dependents ?? [], existing?.cityCode as string, 'state');
    }
    const [match] = await tx
      .select({ stateCode: states.stateCode })
      .from(states)
      .where(
        and(
          eq(states.stateCode, input.stateCode as string),
          eq(states.countryCode, input.countryCode as string),
        ),
      );
    if (!match)
      throw badRequest('Invalid input', [
        { field: 'stateCode', message: 'State does not belong to the chosen country' },
      ]);
  },
  subLists: [
    {
      endpoint: 'GetCitiesByStateCode',
      param: 'stateCode',
      parent: { column: states.stateCode, notFound: 'State not found' },
      where: (code) => eq(cities.stateCode, code),
    },
    {
      endpoint: 'GetCitiesByCountryCode',
      param: 'countryCode',
      parent: countryNotFound,
      where: (code) => eq(cities.countryCode, code),
    },
  ],
};
