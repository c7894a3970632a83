/** Modules whose four CRUD permissions follow the VIEW_<PLURAL> / <ACTION>_<SINGULAR> pattern. */
const CRUD_MODULES = [
  ['ROLE', 'ROLES'],
  ['USER', 'USERS'],
  ['GENDER', 'GENDERS'],
  ['COUNTRY', 'COUNTRIES'],
  ['STATE', 'STATES'],
  ['CITY', 'CITIES'],
  ['PROFILE', 'PROFILES'],
  ['DEPARTMENT', 'DEPARTMENTS'],
  ['SKILL', 'SKILLS'],
  ['EMPLOYEE', 'EMPLOYEES'],
] as const;

type Crud = (typeof CRUD_MODULES)[number];
/** The resource key of a CRUD module: `gender` for GENDER. */
export type CrudModuleKey = Lowercase<Crud[0]>;
export type PermissionName =
  | `VIEW_${Crud[1]}`
  | `${'CREATE' | 'UPDATE' | 'DELETE'}_${Crud[0]}`
  | 'VIEW_PERMISSIONS'
  | 'VIEW_AUDITS'
  | 'VIEW_PERFORMANCES'
  | 'CREATE_PERFORMANCE'
  | 'UPDATE_PERFORMANCE';

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
  ...CRUD_MODULES.flatMap(([one, many]) => [
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
