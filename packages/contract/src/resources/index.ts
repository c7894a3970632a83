import type { z } from 'zod';
import type { ResourceKey } from '../permissions.ts';
import { auditResource, permissionResource, roleResource, userResource } from './access.ts';
import type { FormFieldDef, ResourceDef, SubListDef } from './define.ts';
import { cityResource, countryResource, stateResource } from './geography.ts';
import { employeeResource, profileResource } from './people.ts';
import { departmentResource, genderResource, skillResource } from './reference.ts';

export * from './access.ts';
export * from './bulk.ts';
export * from './define.ts';
export * from './geography.ts';
export type { BodyPathOf, RecordPathOf } from './paths.ts';
export * from './people.ts';
export * from './reference.ts';

/**
 * Every registry module's definition by key, in the order of the Modules screen. Each keeps its
 * own type, so `RegistryRecordOf<'profile'>` is the profile's record; a key of the permission
 * catalogue left without a definition, or one it does not know, fails to compile.
 */
export const RESOURCE_BY_KEY = {
  permission: permissionResource,
  audit: auditResource,
  role: roleResource,
  user: userResource,
  profile: profileResource,
  gender: genderResource,
  country: countryResource,
  state: stateResource,
  city: cityResource,
  department: departmentResource,
  skill: skillResource,
  employee: employeeResource,
} satisfies Record<ResourceKey, ResourceDef>;

/** Every registry module, in the order of the Modules screen. */
export const RESOURCES: readonly ResourceDef[] = Object.values(RESOURCE_BY_KEY);

/** The record a module's lists, views and writes answer with, as its definition's schema gives it. */
export type RegistryRecordOf<K extends ResourceKey> = z.output<(typeof RESOURCE_BY_KEY)[K]['recordSchema']>;

const SUB_LISTS = new Map<ResourceKey, SubListDef[]>(
  RESOURCES.map((parent) => [
    parent.key,
    RESOURCES.flatMap((child) =>
      child.listedBy
        .filter((l) => l.parent === parent.key && l.screen)
        .map((l) => ({
          resource: child.key,
          segment: child.listSegment,
          endpoint: l.endpoint,
          param: l.param,
          buttonLabel: `View ${child.plural}`,
        })),
    ),
  ]),
);

/** The sub-lists a record's view offers (a country's states and cities), from the children's `listedBy`. */
export const subListsOf = (def: ResourceDef): readonly SubListDef[] => SUB_LISTS.get(def.key) ?? [];

const offers = (field: FormFieldDef, key: ResourceKey) => field.source === key;

/**
 * Selector lookups: whoever may create or update a record whose form offers another resource as
 * options may read that resource's codes and names (a field shown on create only gives the create
 * permission that right).
 */
export function lookupPermissions(key: ResourceKey): string[] {
  const granted = RESOURCES.flatMap((r) =>
    r.formFields
      .filter((f) => offers(f, key))
      .flatMap((f) =>
        (['create', 'update'] as const)
          .filter((mode) => !f.modes || f.modes.includes(mode))
          .map((mode) => r.permissions[mode]),
      ),
  ).filter((p): p is NonNullable<typeof p> => Boolean(p));
  return [...new Set(granted)];
}
