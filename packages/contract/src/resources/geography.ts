import { z } from 'zod';
import { codeRef, requiredText } from '../fields.ts';
import { defineResource, TIMESTAMP_COLUMNS } from './define.ts';

const letters = (label: string, n: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(new RegExp(`^[A-Za-z]{${n}}$`), `${label} must be exactly ${n} letters`)
    .transform((s) => s.toUpperCase());

const countryFields = { name: requiredText('Name', 100), iso2: letters('ISO2', 2), iso3: letters('ISO3', 3) };
export const countryCreateSchema = z.object(countryFields);
export const countryUpdateSchema = z.object({ countryCode: codeRef('Country code'), ...countryFields });

export const countryResource = defineResource({
  key: 'country',
  label: 'Country',
  plural: 'Countries',
  listSegment: 'countries',
  itemSegment: 'country',
  code: 'countryCode',
  prefix: 'COUNTRY-',
  nameField: 'name',
  permissions: {
    view: 'VIEW_COUNTRIES',
    create: 'CREATE_COUNTRY',
    update: 'UPDATE_COUNTRY',
    delete: 'DELETE_COUNTRY',
  },
  endpoints: {
    list: 'GetCountries',
    get: 'GetCountryByCode',
    create: 'CreateCountry',
    update: 'UpdateCountry',
    delete: 'DeleteCountry',
  },
  createSchema: countryCreateSchema,
  updateSchema: countryUpdateSchema,
  sortFields: ['name', 'iso2', 'iso3', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'name', label: 'Name', sortField: 'name' },
    { path: 'iso2', label: 'ISO2', sortField: 'iso2' },
    { path: 'iso3', label: 'ISO3', sortField: 'iso3' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    { name: 'iso2', label: 'ISO2', kind: 'text' },
    { name: 'iso3', label: 'ISO3', kind: 'text' },
  ],
  subLists: [
    {
      resource: 'state',
      segment: 'states',
      endpoint: 'GetStatesByCountryCode',
      param: 'countryCode',
      buttonLabel: 'View States',
    },
    {
      resource: 'city',
      segment: 'cities',
      endpoint: 'GetCitiesByCountryCode',
      param: 'countryCode',
      buttonLabel: 'View Cities',
    },
  ],
});

const stateFields = {
  name: requiredText('Name', 100),
  iso: z
    .string({ error: 'ISO is required' })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,10}$/, 'ISO must be 1 to 10 letters, digits or dashes')
    .transform((s) => s.toUpperCase()),
  countryCode: codeRef('Country'),
};
export const stateCreateSchema = z.object(stateFields);
export const stateUpdateSchema = z.object({ stateCode: codeRef('State code'), ...stateFields });

export const stateResource = defineResource({
  key: 'state',
  label: 'State',
  plural: 'States',
  listSegment: 'states',
  itemSegment: 'state',
  code: 'stateCode',
  prefix: 'STATE-',
  nameField: 'name',
  permissions: {
    view: 'VIEW_STATES',
    create: 'CREATE_STATE',
    update: 'UPDATE_STATE',
    delete: 'DELETE_STATE',
  },
  endpoints: {
    list: 'GetStates',
    get: 'GetStateByCode',
    create: 'CreateState',
    update: 'UpdateState',
    delete: 'DeleteState',
  },
  createSchema: stateCreateSchema,
  updateSchema: stateUpdateSchema,
  sortFields: ['name', 'iso', 'country.name', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'name', label: 'Name', sortField: 'name' },
    { path: 'iso', label: 'ISO', sortField: 'iso' },
    { path: 'country.name', label: 'Country', sortField: 'country.name' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    { name: 'iso', label: 'ISO', kind: 'text' },
    {
      name: 'countryCode',
      label: 'Country',
      kind: 'select',
      source: 'country',
      valuePath: 'country.countryCode',
      labelPath: 'country.name',
    },
  ],
  subLists: [
    {
      resource: 'city',
      segment: 'cities',
      endpoint: 'GetCitiesByStateCode',
      param: 'stateCode',
      buttonLabel: 'View Cities',
    },
  ],
});

const cityFields = {
  name: requiredText('Name', 100),
  countryCode: codeRef('Country'),
  stateCode: codeRef('State'),
};
export const cityCreateSchema = z.object(cityFields);
export const cityUpdateSchema = z.object({ cityCode: codeRef('City code'), ...cityFields });

export const cityResource = defineResource({
  key: 'city',
  label: 'City',
  plural: 'Cities',
  listSegment: 'cities',
  itemSegment: 'city',
  code: 'cityCode',
  prefix: 'CITY-',
  nameField: 'name',
  permissions: { view: 'VIEW_CITIES', create: 'CREATE_CITY', update: 'UPDATE_CITY', delete: 'DELETE_CITY' },
  endpoints: {
    list: 'GetCities',
    get: 'GetCityByCode',
    create: 'CreateCity',
    update: 'UpdateCity',
    delete: 'DeleteCity',
  },
  createSchema: cityCreateSchema,
  updateSchema: cityUpdateSchema,
  sortFields: ['name', 'state.name', 'country.name', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'name', label: 'Name', sortField: 'name' },
    { path: 'state.name', label: 'State', sortField: 'state.name' },
    { path: 'country.name', label: 'Country', sortField: 'country.name' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    {
      name: 'countryCode',
      label: 'Country',
      kind: 'select',
      source: 'country',
      valuePath: 'country.countryCode',
      labelPath: 'country.name',
    },
    {
      name: 'stateCode',
      label: 'State',
      kind: 'select',
      source: 'state',
      valuePath: 'state.stateCode',
      labelPath: 'state.name',
      dependsOn: { field: 'countryCode', endpoint: 'GetStatesByCountryCode', param: 'countryCode' },
    },
  ],
});
