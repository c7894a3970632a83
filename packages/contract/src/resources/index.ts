import { auditResource, permissionResource, roleResource, userResource } from './access.ts';
import type { ResourceDef, ResourceKey } from './define.ts';
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

/**
 * Selector lookups (DECISIONS.md section 3): whoever may create or update a record whose form
 * offers another resource as options may read that resource's codes and names.
 */
export function lookupPermissions(key: ResourceKey): string[] {
  const extra: Record<string, string[]> = {
    // The profile form is custom; its selectors are declared here rather than in formFields.
    gender: ['CREATE_PROFILE', 'UPDATE_PROFILE'],
    country: ['CREATE_PROFILE', 'UPDATE_PROFILE'],
    state: ['CREATE_PROFILE', 'UPDATE_PROFILE'],
    city: ['CREATE_PROFILE', 'UPDATE_PROFILE'],
    user: ['CREATE_PROFILE'],
  };
  const fromForms = RESOURCES.flatMap((r) =>
    r.formFields.some((f) => f.source === key || (f.dependsOn && f.source === key))
      ? [r.permissions.create, r.permissions.update].filter((p): p is NonNullable<typeof p> => Boolean(p))
      : [],
  );
  return [...new Set([...fromForms, ...(extra[key] ?? [])])];
}
