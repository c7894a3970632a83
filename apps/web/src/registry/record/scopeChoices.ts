import {
  allowedScopes,
  PERMISSION_SCOPES,
  type PermissionScope,
  SCOPE_LABELS,
  scopeCovers,
} from '@wfc/contract';
import type { Option } from '../select/ResourceSelect';

/** A role form's scopes: by permission code, as `CreateRole` and `UpdateRole` take them. */
export type ScopeValues = Readonly<Record<string, PermissionScope>>;

/** How far the signed-in user holds a permission (by name), or null when they do not hold it. */
export type ActorScope = (permissionName: string) => PermissionScope | null;

/** One chosen permission that can be narrowed, with the scopes it offers. */
export interface ScopeChoice {
  code: string;
  name: string;
  value: PermissionScope;
  options: ReadonlyArray<{ scope: PermissionScope; label: string; disabled: boolean }>;
}

/** Pure: a form value read as scopes, anything that is not one dropped. */
export function scopeValues(value: unknown): ScopeValues {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([code, scope]) => {
      const known = PERMISSION_SCOPES.find((s) => s === scope);
      return known ? [[code, known]] : [];
    }),
  );
}

/**
 * Pure: whether the user may give `scope` to a permission, mirroring the server: what the role
 * already holds may stay, anything wider than the user holds the permission for may not be added.
 */
export const mayGiveScope = (
  name: string,
  code: string,
  scope: PermissionScope,
  kept: ScopeValues,
  actor: ActorScope,
): boolean => {
  const before = kept[code];
  if (before !== undefined && scopeCovers(before, scope)) return true;
  const held = actor(name);
  return held !== null && scopeCovers(held, scope);
};

/** Pure: the scope a newly chosen permission starts at: the widest the user may give. */
function startingScope(name: string, code: string, kept: ScopeValues, actor: ActorScope): PermissionScope {
  const allowed = allowedScopes(name);
  return allowed.find((s) => mayGiveScope(name, code, s, kept, actor)) ?? allowed[0] ?? 'all';
}

/**
 * Pure: the chosen permissions that can be narrowed, in the order chosen, each at its current
 * scope (or the one it starts at) with the scopes it allows, those the user may not give disabled.
 */
export function scopeChoices(
  chosen: readonly Option[],
  current: ScopeValues,
  kept: ScopeValues,
  actor: ActorScope,
): ScopeChoice[] {
  return chosen.flatMap(({ value: code, label: name }) => {
    const allowed = allowedScopes(name);
    if (allowed.length < 2) return [];
    const wanted = current[code];
    const value = wanted && allowed.includes(wanted) ? wanted : startingScope(name, code, kept, actor);
    const options = allowed.map((scope) => ({
      scope,
      label: SCOPE_LABELS[scope],
      disabled: !mayGiveScope(name, code, scope, kept, actor),
    }));
    return [{ code, name, value, options }];
  });
}

/**
 * Pure: the scopes a body sends, those of the permissions still chosen: a permission taken off
 * and chosen again keeps the scope it had in the form.
 */
export function chosenScopes(current: ScopeValues, chosen: unknown): Record<string, PermissionScope> {
  const codes = Array.isArray(chosen) ? chosen.map((o: Option) => o.value) : [];
  return Object.fromEntries(codes.flatMap((code) => (current[code] ? [[code, current[code]]] : [])));
}
