import { auditResource, permissionResource, roleResource, userResource } from './access.ts';
import type { FormFieldDef, ResourceDef, ResourceKey, SubListDef } from './define.ts';
import { cityResource, countryResource, stateResource } from './geography.ts';
import { employeeResource, profileResource } from './people.ts';
import { departmentResource, genderResource, skillResource } from './reference.ts';

export * from './access.ts';
export * from './define.ts';
export * from './geography.ts';
export * from './people.ts';
export * from './reference.ts';

/** Every registry module, in the order of the Modules screen. */
export const RESOURCES: readonly ResourceDef[] = [
  permissionResource,
  auditResource,
  roleResource,
  userResource,
  profileResource,
  genderResource,
  countryResource,
  stateResource,
  cityResource,
  departmentResource,
  skillResource,
  employeeResource,
];

export const RESOURCE_BY_KEY = Object.fromEntries(RESOURCES.map((r) => [r.key, r])) as Record<
  ResourceKey,
  ResourceDef
>;

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
