/**
 * Every registry module by resource key, in the permission catalogue's order, with the plural its
 * permissions are named by (VIEW_<PLURAL>, then CREATE_, UPDATE_ and DELETE_<KEY>); `null` for the
 * two read-only logs, whose view permissions follow the CRUD modules' below. The one list of the
 * modules: `ResourceKey`, the CRUD modules, the permission names and the catalogue come from it,
 * and the type checker asks the contract's and the server's definitions by key and the web app's
 * icons to cover it.
 */
const REGISTRY_MODULES = {
  role: 'roles',
  user: 'users',
  gender: 'genders',
  country: 'countries',
  state: 'states',
  city: 'cities',
  profile: 'profiles',
  department: 'departments',
  skill: 'skills',
  employee: 'employees',
  permission: null,
  audit: null,
} as const;

type Modules = typeof REGISTRY_MODULES;

/** Every registry module: the CRUD modules and the two read-only logs. */
export type ResourceKey = keyof Modules;

/** The resource key of a module with the four CRUD permissions: `gender`. */
export type CrudModuleKey = { [K in ResourceKey]: Modules[K] extends string ? K : never }[ResourceKey];

/** The CRUD modules, each with its plural, in the catalogue's order. */
const CRUD_MODULES = Object.entries(REGISTRY_MODULES).flatMap(([key, plural]) =>
  plural === null ? [] : [{ one: key.toUpperCase(), many: plural.toUpperCase() }],
);

export type PermissionName =
  | `VIEW_${Uppercase<Modules[CrudModuleKey]>}`
  | `${'CREATE' | 'UPDATE' | 'DELETE'}_${Uppercase<CrudModuleKey>}`
  | 'VIEW_PERMISSIONS'
  | 'VIEW_AUDITS'
  | 'VIEW_PERFORMANCES'
  | 'CREATE_PERFORMANCE'
  | 'UPDATE_PERFORMANCE'
  | 'VIEW_PERSONAL_DATA'
  | 'EXPORT_PERSONAL_DATA'
  | 'ERASE_PERSONAL_DATA'
  | 'MANAGE_INTEGRATIONS';

export interface PermissionSeed {
  name: PermissionName;
  description: string;
}

const lower = (s: string) => s.toLowerCase();

/**
 * 'a role', 'an employee': by the first letter, which is right for every noun the console names.
 * A 'u' is left out on purpose: 'user' is said with a consonant ('a user').
 */
export const withArticle = (noun: string): string => `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** The whole catalogue, in a stable order; inserted at start-up (docs/product.md section 6). */
export const PERMISSION_CATALOGUE: readonly PermissionSeed[] = [
  ...CRUD_MODULES.flatMap(({ one, many }) => [
    { name: `VIEW_${many}` as PermissionName, description: `View ${lower(many)}` },
    { name: `CREATE_${one}` as PermissionName, description: `Create ${withArticle(lower(one))}` },
    { name: `UPDATE_${one}` as PermissionName, description: `Update ${withArticle(lower(one))}` },
    { name: `DELETE_${one}` as PermissionName, description: `Delete ${withArticle(lower(one))}` },
  ]),
  { name: 'VIEW_PERMISSIONS', description: 'View permissions' },
  { name: 'VIEW_AUDITS', description: 'View audit logs' },
  { name: 'VIEW_PERFORMANCES', description: 'View the performance snapshot' },
  { name: 'CREATE_PERFORMANCE', description: 'Record performance scores' },
  { name: 'UPDATE_PERFORMANCE', description: 'Change performance scores' },
  { name: 'VIEW_PERSONAL_DATA', description: 'View personal data' },
  { name: 'EXPORT_PERSONAL_DATA', description: 'Export personal data' },
  { name: 'ERASE_PERSONAL_DATA', description: 'Erase personal data' },
  { name: 'MANAGE_INTEGRATIONS', description: 'Manage integrations' },
];

export const ALL_PERMISSION_NAMES: readonly PermissionName[] = PERMISSION_CATALOGUE.map((p) => p.name);

/** Names are compared with spaces and underscores treated alike (docs/product.md section 6). */
export const normalisePermissionName = (name: string): string =>
  name
    .trim()
    .toUpperCase()
    .replace(/[\s_]+/g, '_');

export interface HasPermissions {
  role?: { rolePermissions?: ReadonlyArray<{ permissionName: string }> } | null;
}

export function permissionSet(user: HasPermissions | null | undefined): Set<string> {
  return new Set((user?.role?.rolePermissions ?? []).map((p) => normalisePermissionName(p.permissionName)));
}

export function hasPermission(user: HasPermissions | null | undefined, ...required: string[]): boolean {
  const held = permissionSet(user);
  return required.every((r) => held.has(normalisePermissionName(r)));
}
