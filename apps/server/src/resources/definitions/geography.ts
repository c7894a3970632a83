import { cityResource, countryResource, stateResource } from '@wfc/contract';
import { and, eq } from 'drizzle-orm';
import { cities, countries, profiles, states } from '../../db/schema/index.ts';
import { badRequest } from '../../http/envelope.ts';
import type { ServerResource } from '../server-resource.ts';

const countryNotFound = { column: countries.countryCode, notFound: 'Country not found' };

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
    { column: states.countryCode, label: 'states' },
    { column: cities.countryCode, label: 'cities' },
    { column: profiles.countryCode, label: 'profiles' },
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
    { column: cities.stateCode, label: 'cities' },
    { column: profiles.stateCode, label: 'profiles' },
  ],
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
  dependents: [{ column: profiles.cityCode, label: 'profiles' }],
  async validate(input, { tx }) {
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
