import { z } from 'zod';
import type { PermissionName } from './permissions.ts';
import { normalisePermissionName } from './permissions.ts';

/**
 * How far a permission on people and scores reaches (docs/product.md section 6): every record,
 * the records of the user's team (the employees of the departments the user's employee manages),
 * or the user's own (the employee and profile linked to the user). Widest first.
 */
export const PERMISSION_SCOPES = ['all', 'team', 'own'] as const;
export type PermissionScope = (typeof PERMISSION_SCOPES)[number];

export const permissionScopeSchema = z.enum(PERMISSION_SCOPES, {
  error: `Scope must be one of ${PERMISSION_SCOPES.join(', ')}`,
});

/** How the screens name each scope. */
export const SCOPE_LABELS: Readonly<Record<PermissionScope, string>> = {
  all: 'All records',
  team: 'Their team',
  own: 'Own record',
};

const ALL_TEAM_OWN: readonly PermissionScope[] = PERMISSION_SCOPES;
const ALL_TEAM: readonly PermissionScope[] = ['all', 'team'];

/**
 * The scopes each scopable permission may be held at; every other permission is held for all
 * records. `own` is offered only where a person acts on their own record: nobody creates,
 * deletes or scores themselves, nor changes their own employee record (department, join date).
 */
export const SCOPABLE_PERMISSIONS: Readonly<Partial<Record<PermissionName, readonly PermissionScope[]>>> = {
  VIEW_PROFILES: ALL_TEAM_OWN,
  CREATE_PROFILE: ALL_TEAM_OWN,
  UPDATE_PROFILE: ALL_TEAM_OWN,
  DELETE_PROFILE: ALL_TEAM,
  VIEW_EMPLOYEES: ALL_TEAM_OWN,
  CREATE_EMPLOYEE: ALL_TEAM,
  UPDATE_EMPLOYEE: ALL_TEAM,
  DELETE_EMPLOYEE: ALL_TEAM,
  VIEW_PERFORMANCES: ALL_TEAM_OWN,
  CREATE_PERFORMANCE: ALL_TEAM,
  UPDATE_PERFORMANCE: ALL_TEAM,
};

/** Pure: the scopes a permission may be held at (`all` alone for an unscopable one). */
export function allowedScopes(permissionName: string): readonly PermissionScope[] {
  const name = normalisePermissionName(permissionName);
  const entry = Object.entries(SCOPABLE_PERMISSIONS).find(([key]) => key === name);
  return entry?.[1] ?? ['all'];
}

/** Pure: whether `held` reaches at least as far as `wanted` (`all` > `team` > `own`). */
export const scopeCovers = (held: PermissionScope, wanted: PermissionScope): boolean =>
  PERMISSION_SCOPES.indexOf(held) <= PERMISSION_SCOPES.indexOf(wanted);

/** Pure: the narrower of two scopes. */
export const narrowerScope = (a: PermissionScope, b: PermissionScope): PermissionScope =>
  scopeCovers(a, b) ? b : a;

/** A role's scopes by permission code, as a role record answers them and its bodies send them. */
export const permissionScopesSchema = z.record(z.string().trim().min(1).max(64), permissionScopeSchema);

export interface HasScopedPermissions {
  role?: {
    rolePermissions?: ReadonlyArray<{ permissionCode: string; permissionName: string }>;
    permissionScopes?: Readonly<Record<string, PermissionScope>>;
  } | null;
}

/**
 * Pure: how far the user holds a permission, or null when the role does not hold it. A permission
 * the role's scopes do not name is held for all records.
 */
export function scopeOf(
  user: HasScopedPermissions | null | undefined,
  permissionName: string,
): PermissionScope | null {
  const name = normalisePermissionName(permissionName);
  const held = user?.role?.rolePermissions?.find((p) => normalisePermissionName(p.permissionName) === name);
  if (!held) return null;
  return user?.role?.permissionScopes?.[held.permissionCode] ?? 'all';
}

/**
 * Pure: why a scope may not be given to a permission in a role body, or undefined when it may.
 * `permissionName` is undefined for a code the role does not hold.
 */
export function scopeRefusal(permissionName: string | undefined, scope: PermissionScope): string | undefined {
  if (permissionName === undefined) return 'A scope is given for a permission the role does not hold';
  const allowed = allowedScopes(permissionName);
  if (allowed.includes(scope)) return undefined;
  return `${normalisePermissionName(permissionName)} cannot be held for '${scope}' records (allowed: ${allowed.join(', ')})`;
}
