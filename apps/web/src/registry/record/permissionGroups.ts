import {
  ALL_PERMISSION_NAMES,
  type FormFieldDef,
  type PermissionScope,
  permissionResource,
  RESOURCES,
  type ResourceDef,
} from '@wfc/contract';
import { readPath } from '../paths';
import type { RegistryRecord } from '../queries';
import { scopeValues } from './scopeChoices';

export interface PermissionGroup {
  /** The module the permissions govern ('Roles', 'Performance Snapshot'), or 'Other'. */
  module: string;
  names: string[];
}

export const OTHER_MODULE = 'Other';

/** The sections that are not registry modules, by the ends of their permissions' names. */
const SECTIONS: readonly { module: string; suffixes: readonly string[] }[] = [
  { module: 'Performance Snapshot', suffixes: ['_PERFORMANCE', '_PERFORMANCES'] },
  { module: 'Personal data', suffixes: ['_PERSONAL_DATA'] },
  { module: 'Integrations', suffixes: ['_INTEGRATIONS'] },
];

const moduleOf = (name: string): string =>
  RESOURCES.find((r) => Object.values(r.permissions).includes(name))?.plural ??
  SECTIONS.find((s) => s.suffixes.some((end) => name.endsWith(end)))?.module ??
  OTHER_MODULE;

const catalogueIndex = (name: string) => {
  const i = (ALL_PERMISSION_NAMES as readonly string[]).indexOf(name);
  return i === -1 ? ALL_PERMISSION_NAMES.length : i;
};

/**
 * Permission names grouped by the module they govern, in the catalogue's order (View, Create,
 * Update, Delete within a module); names the catalogue does not know come last, by name.
 */
export function groupPermissions(names: readonly string[]): PermissionGroup[] {
  const sorted = [...new Set(names)].sort(
    (a, b) => catalogueIndex(a) - catalogueIndex(b) || a.localeCompare(b),
  );
  const groups = new Map<string, string[]>();
  for (const name of sorted) {
    const module = moduleOf(name);
    groups.set(module, [...(groups.get(module) ?? []), name]);
  }
  return [...groups].map(([module, grouped]) => ({ module, names: grouped }));
}

/**
 * The field of a definition's form whose options are permissions (a role's), if it has one: its
 * view lists what the record holds, grouped by module.
 */
export const permissionsField = (def: ResourceDef): FormFieldDef | undefined =>
  def.formFields.find((f) => f.kind === 'multiselect' && f.source === permissionResource.key);

/** The permission names a record holds through that field. */
export function heldPermissionNames(field: FormFieldDef, record: RegistryRecord): string[] {
  const names = readPath(record, field.labelPath ?? field.name);
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * The scopes a record holds its permissions at, by permission name, for those narrower than all
 * records: the definition's `scopes` field for that permissions field says where they are.
 */
export function heldPermissionScopes(
  def: ResourceDef,
  field: FormFieldDef,
  record: RegistryRecord,
): Map<string, PermissionScope> {
  const scopesField = def.formFields.find((f) => f.kind === 'scopes' && f.scopesOf === field.name);
  if (!scopesField) return new Map();
  const scopes = scopeValues(readPath(record, scopesField.valuePath ?? scopesField.name));
  const codes = readPath(record, field.valuePath ?? field.name);
  const names = heldPermissionNames(field, record);
  return new Map(
    (Array.isArray(codes) ? codes : []).flatMap((code, i) => {
      const scope = typeof code === 'string' ? scopes[code] : undefined;
      const name = names[i];
      return scope && scope !== 'all' && name ? [[name, scope] as const] : [];
    }),
  );
}
