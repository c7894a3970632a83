import type { z } from 'zod';
import type { PermissionName } from '../permissions.ts';

export type ResourceKey =
  | 'permission'
  | 'audit'
  | 'role'
  | 'user'
  | 'gender'
  | 'country'
  | 'state'
  | 'city'
  | 'profile'
  | 'department'
  | 'skill'
  | 'employee';

export type ColumnFormat = 'text' | 'datetime' | 'date' | 'count';

/** A list-table column: `path` is a dotted path into the record, `sortField` what the server sorts by. */
export interface ColumnDef {
  path: string;
  label: string;
  sortField?: string;
  format?: ColumnFormat;
}

export type FormFieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'password'
  | 'date'
  | 'select'
  | 'multiselect'
  | 'json';

/** A form field: `name` is the request body key, `valuePath`/`labelPath` where a record holds it. */
export interface FormFieldDef {
  name: string;
  label: string;
  kind: FormFieldKind;
  valuePath?: string;
  labelPath?: string;
  /** Selectors: the resource whose list provides the options. */
  source?: ResourceKey;
  /** Cascading selectors: options come from the parent's sub-list, shown only once it is chosen. */
  dependsOn?: { field: string; endpoint: string; param: string };
  placeholder?: string;
  help?: string;
  /** Only on some modes (e.g. password is not shown in view mode). */
  modes?: ReadonlyArray<'view' | 'create' | 'update'>;
  /** Access-management fields: nobody gives what they do not hold (the server enforces it). */
  delegation?: FieldDelegation;
}

/** How a form narrows a field to what the signed-in user may give. */
export interface FieldDelegation {
  /** The selector's list is asked with this flag on (only the options the user may give). */
  listFlag?: string;
  /**
   * On the signed-in user's own record the field is disabled, with this explanation, unless they
   * hold every permission.
   */
  lockedOnSelf?: string;
  /**
   * The options are permissions, labelled by name: those the user does not hold cannot be newly
   * chosen (the ones the record already has may stay), with this explanation.
   */
  heldOnly?: string;
}

/** A sub-list reachable from a record's view (a role's permissions, a country's states, ...). */
export interface SubListDef {
  resource: ResourceKey;
  segment: string;
  endpoint: string;
  param: string;
  buttonLabel: string;
}

export interface ResourceMessages {
  listed: string;
  fetched: string;
  created: string;
  updated: string;
  deleted: string;
  failedList: string;
  failedFetch: string;
  failedCreate: string;
  failedUpdate: string;
  failedDelete: string;
  empty: string;
  selectorError: string;
  viewError: string;
  notFound: string;
}

export interface ResourceDef<C extends z.ZodType = z.ZodType, U extends z.ZodType = z.ZodType> {
  key: ResourceKey;
  label: string;
  plural: string;
  /** Module card title, where it differs from `plural`. */
  moduleTitle: string;
  /** Route segments: /registry/{listSegment}, /registry/{itemSegment}/{code}. */
  listSegment: string;
  itemSegment: string;
  code: string;
  prefix: string;
  /** The record's display name: selector option labels and conflict messages. */
  nameField: string;
  permissions: {
    view: PermissionName;
    create?: PermissionName;
    update?: PermissionName;
    delete?: PermissionName;
  };
  endpoints: { list: string; get: string; create?: string; update?: string; delete?: string };
  createSchema?: C;
  updateSchema?: U;
  /** Accepted sortField values besides `_id` (creation order). */
  sortFields: readonly string[];
  columns: readonly ColumnDef[];
  formFields: readonly FormFieldDef[];
  subLists?: readonly SubListDef[];
  /** Where Back goes from a view when no back target was passed. */
  defaultBack?: string;
  messages: ResourceMessages;
}

export function messagesFor(label: string, plural: string): ResourceMessages {
  const one = label.toLowerCase();
  const many = plural.toLowerCase();
  return {
    listed: `${plural} fetched successfully`,
    fetched: `${label} fetched successfully`,
    created: `${label} created successfully`,
    updated: `${label} updated successfully`,
    deleted: `${label} deleted successfully`,
    failedList: `Failed to fetch ${many}`,
    failedFetch: `Failed to fetch ${one}`,
    failedCreate: `Failed to create ${one}`,
    failedUpdate: `Failed to update ${one}`,
    failedDelete: `Failed to delete ${one}`,
    empty: `No ${one} added yet (or) No ${one} matching the current filter`,
    selectorError: `Error loading ${many}`,
    viewError: `Error loading ${one}`,
    notFound: `${label} not found`,
  };
}

type Def<C extends z.ZodType, U extends z.ZodType> = Omit<ResourceDef<C, U>, 'messages' | 'moduleTitle'> & {
  moduleTitle?: string;
  messages?: Partial<ResourceMessages>;
};

export function defineResource<C extends z.ZodType, U extends z.ZodType>(def: Def<C, U>): ResourceDef<C, U> {
  return {
    ...def,
    moduleTitle: def.moduleTitle ?? def.plural,
    messages: { ...messagesFor(def.label, def.plural), ...def.messages },
  };
}

export const TIMESTAMP_COLUMNS: readonly ColumnDef[] = [
  { path: 'createdAt', label: 'Created At', sortField: 'createdAt', format: 'datetime' },
  { path: 'updatedAt', label: 'Updated At', sortField: 'updatedAt', format: 'datetime' },
];
