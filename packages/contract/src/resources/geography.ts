import { z } from 'zod';
import { codeRef, requiredText } from '../fields.ts';
import { cascadeFrom, defineResource, selectField, TIMESTAMP_COLUMNS } from './define.ts';
import { referenceSchema, text, versioned } from './record-parts.ts';

export const countryRecordSchema = z.strictObject({
  countryCode: text,
  name: text,
  iso2: text,
  iso3: text,
  ...versioned,
});

const countryRef = referenceSchema('countryCode', 'name');
const stateRef = referenceSchema('stateCode', 'name');

export const stateRecordSchema = z.strictObject({
  stateCode: text,
  name: text,
  iso: text,
  country: countryRef,
  ...versioned,
});

export const cityRecordSchema = z.strictObject({
  cityCode: text,
  name: text,
  state: stateRef,
  country: countryRef,
  ...versioned,
});

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
  import: { key: ['iso2'] },
  recordSchema: countryRecordSchema,
  label: 'Country',
  plural: 'Countries',
  nameField: 'name',
  createSchema: countryCreateSchema,
  updateSchema: countryUpdateSchema,
  columns: [
    { path: 'name', label: 'Name', sortable: true },
    { path: 'iso2', label: 'ISO2', sortable: true },
    { path: 'iso3', label: 'ISO3', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    { name: 'iso2', label: 'ISO2', kind: 'text' },
    { name: 'iso3', label: 'ISO3', kind: 'text' },
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

/** States and cities are both filtered by their country. */
const BY_COUNTRY = {
  param: 'countryCode',
  label: 'Country',
  path: 'country.countryCode',
  match: 'equals',
  source: 'country',
} as const;

export const stateResource = defineResource({
  key: 'state',
  import: { key: ['countryCode', 'iso'] },
  recordSchema: stateRecordSchema,
  label: 'State',
  plural: 'States',
  listedBy: ['country'],
  nameField: 'name',
  createSchema: stateCreateSchema,
  updateSchema: stateUpdateSchema,
  columns: [
    { path: 'name', label: 'Name', sortable: true },
    { path: 'iso', label: 'ISO', sortable: true },
    { path: 'country.name', label: 'Country', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  filters: [BY_COUNTRY],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    { name: 'iso', label: 'ISO', kind: 'text' },
    selectField(countryResource),
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
  import: { key: ['stateCode', 'name'] },
  recordSchema: cityRecordSchema,
  label: 'City',
  plural: 'Cities',
  listedBy: ['state', 'country'],
  nameField: 'name',
  createSchema: cityCreateSchema,
  updateSchema: cityUpdateSchema,
  columns: [
    { path: 'name', label: 'Name', sortable: true },
    { path: 'state.name', label: 'State', sortable: true },
    { path: 'country.name', label: 'Country', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  filters: [
    BY_COUNTRY,
    { param: 'stateCode', label: 'State', path: 'state.stateCode', match: 'equals', source: 'state' },
  ],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    selectField(countryResource),
    selectField(stateResource, { dependsOn: cascadeFrom(stateResource, 'country') }),
  ],
});
