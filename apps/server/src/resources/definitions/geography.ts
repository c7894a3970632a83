import { cityResource, countryResource, stateResource } from '@wfc/contract';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cities, countries, profiles, states } from '../../db/schema/index.ts';
import { badRequest, conflict } from '../../http/envelope.ts';
import { type Dependent, defineServerResource, textAt } from '../server-resource.ts';
import { referencesTo } from '../write.ts';

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

export const countries$ = defineServerResource({
  def: countryResource,
  table: countries,
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
});

const stateDependents: Dependent[] = [
  { column: cities.stateCode, one: 'city', many: 'cities' },
  { column: profiles.stateCode, one: 'profile', many: 'profiles' },
];

export const states$ = defineServerResource({
  def: stateResource,
  table: states,
  references: [{ to: countries$, via: states.countryCode }],
  search: ['name', 'iso', 'country.name'],
  unique: [
    {
      constraint: 'states_iso_unique',
      field: 'iso',
      message: 'A state with this ISO already exists in this country',
    },
  ],
  dependents: stateDependents,
  async validate(input, { tx }, existing) {
    const country = textAt(existing, 'country.countryCode');
    const code = textAt(existing, 'stateCode');
    if (country && code && country !== input.countryCode) {
      await refuseMove(tx, 'state', stateDependents, code, 'country');
    }
  },
});

const cityDependents: Dependent[] = [{ column: profiles.cityCode, one: 'profile', many: 'profiles' }];

export const cities$ = defineServerResource({
  def: cityResource,
  table: cities,
  references: [
    { to: countries$, via: cities.countryCode },
    { to: states$, via: cities.stateCode },
  ],
  search: ['name', 'state.name', 'country.name'],
  dependents: cityDependents,
  async validate(input, { tx }, existing) {
    const state = textAt(existing, 'state.stateCode');
    const code = textAt(existing, 'cityCode');
    if (state && code && state !== input.stateCode) {
      await refuseMove(tx, 'city', cityDependents, code, 'state');
    }
    const [match] = await tx
      .select({ stateCode: states.stateCode })
      .from(states)
      .where(and(eq(states.stateCode, input.stateCode), eq(states.countryCode, input.countryCode)));
    if (!match)
      throw badRequest('Invalid input', [
        { field: 'stateCode', message: 'State does not belong to the chosen country' },
      ]);
  },
});
