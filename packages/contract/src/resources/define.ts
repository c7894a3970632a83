import { z } from 'zod';
import { ALL_PERMISSION_NAMES, type PermissionName, type ResourceKey } from '../permissions.ts';
import type { ListFilterDef } from '../query.ts';
import type { BodyPathOf, BooleanFieldOf, RecordPathOf, TextFieldOf } from './paths.ts';

export type ColumnFormat = 'text' | 'datetime' | 'date' | 'count' | 'switch';

/** What a `switch` column says for true and for false ('Active', 'Disabled'); default 'Yes', 'No'. */
export interface SwitchLabels {
  on: string;
  off: string;
}

/** A list-table column: `path` is a dotted path into the record, `sortField` what the server sorts by. */
export interface ColumnDef<P extends string = string> {
  path: P;
  label: string;
  sortField?: string;
  format?: ColumnFormat;
  switchLabels?: SwitchLabels;
}

/** A column as a definition states it: a sortable column sorts by its own path. */
export interface ColumnSpec<P extends string = string> {
  path: P;
  label: string;
  sortable?: boolean;
  format?: ColumnFormat;
  switchLabels?: SwitchLabels;
}

export type FormFieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'password'
  | 'date'
  | 'select'
  | 'multiselect'
  | 'switch'
  | 'json'
  | 'scopes';

/** Cascading selectors: the options are the chosen parent's sub-list, shown once it is chosen. */
export interface FieldCascade {
  /** The form field that holds the parent's code. */
  field: string;
  endpoint: string;
  param: string;
}

/** A form field: `name` is the request body key, `valuePath`/`labelPath` where a record holds it. */
export interface FormFieldDef {
  name: string;
  label: string;
  kind: FormFieldKind;
  valuePath?: string;
  labelPath?: string;
  /** Selectors: the resource whose list provides the options. */
  source?: ResourceKey;
  dependsOn?: FieldCascade;
  placeholder?: string;
  help?: string;
  /** Shown instead of `help` on the update form (a password left blank keeps the current one). */
  updateHelp?: string;
  /** Only on some modes (e.g. password is not shown in view mode). */
  modes?: ReadonlyArray<'view' | 'create' | 'update'>;
  /** Access-management fields: nobody gives what they do not hold (the server enforces it). */
  delegation?: FieldDelegation;
  /**
   * A `scopes` field: the permissions multiselect whose chosen permissions it sets a scope for
   * (`all`, `team`, `own`), each offering what `allowedScopes` allows.
   */
  scopesOf?: string;
}

/**
 * A form field as a definition writes it out: `name` is a key of the create or update body (or,
 * on a read-only module's view, of the record), `valuePath` and `labelPath` paths into the record.
 */
interface FormFieldSpec<N extends string, P extends string>
  extends Omit<FormFieldDef, 'name' | 'valuePath' | 'labelPath'> {
  name: N;
  valuePath?: P;
  labelPath?: P;
}

declare const derivedField: unique symbol;

/**
 * A form field made from another definition by convention (`selectField`): its names are that
 * definition's own, so they are not checked again where it is used.
 */
export type DerivedFieldDef = FormFieldDef & { readonly [derivedField]: true };

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
   * On the signed-in user's own record the field is disabled for everyone, the Administrator
   * too, with this explanation: My account changes it (`OWN_ACCOUNT_ELSEWHERE`).
   */
  offOnSelf?: string;
  /**
   * The options are permissions, labelled by name: those the user does not hold cannot be newly
   * chosen (the ones the record already has may stay), with this explanation.
   */
  heldOnly?: string;
}

/** This resource listed by one parent record: `POST Get{Plural}By{Parent}Code` with the parent's code. */
export interface ParentListDef {
  parent: ResourceKey;
  endpoint: string;
  /** The body key holding the parent's code: the parent's code field. */
  param: string;
  /** Whether the parent's view offers it as a screen ('View States'); some lists are API only. */
  screen: boolean;
}

/** A sub-list as its parent's view shows it (a role's permissions, a country's states, ...). */
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

export type WriteAction = 'create' | 'update' | 'delete';

export interface ResourceEndpoints {
  list: string;
  /** `Export{Plural}`: every record the list's query matches, in its order, as CSV. */
  export: string;
  get: string;
  create?: string;
  update?: string;
  delete?: string;
  /** `Delete{Plural}`: several records at once, all or none; with the delete action. */
  deleteMany?: string;
  /** `Update{Plural}`: one reference of several records changed at once; with `bulkChange`. */
  changeMany?: string;
}

/**
 * How a field of a record about a person counts under the personal-data rules (docs/privacy.md):
 * `name` identifies the person and shows wherever the record does (a name, a username, an
 * employee id); `detail` is personal beyond that (a birth date, an address, an email) and is for
 * those who need to know it; `false` is not personal (codes, references to other records, times).
 */
export type PersonalKind = 'name' | 'detail' | false;

/** A record about one person: who it is about, and how each of its fields counts. */
export interface PersonalDataDef {
  /** The path to the code of the user the record is about (null where it has none). */
  owner: string;
  fields: Readonly<Record<string, PersonalKind>>;
}

export interface ResourcePermissions {
  view: PermissionName;
  create?: PermissionName;
  update?: PermissionName;
  delete?: PermissionName;
}

export interface ResourceDef<
  C extends z.ZodType = z.ZodType,
  U extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
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
  permissions: ResourcePermissions;
  endpoints: ResourceEndpoints;
  createSchema?: C;
  updateSchema?: U;
  /** The record lists, views and writes answer with. */
  recordSchema: R;
  /** Accepted sortField values besides `_id` (creation order). */
  sortFields: readonly string[];
  columns: readonly ColumnDef[];
  formFields: readonly FormFieldDef[];
  /** The parents this resource is listed by (a state by its country). */
  listedBy: readonly ParentListDef[];
  /** Where Back goes from a view when no back target was passed. */
  defaultBack?: string;
  /** Filters the list offers besides the keyword (the audit log's user, module, action and dates). */
  filters: readonly ListFilterDef[];
  /** The CSV export's columns, in order: the list's own unless the definition names others. */
  exportColumns: readonly ColumnDef[];
  /**
   * The update form's selectors whose reference the list may change on several selected records
   * at once (an employee's department), each with its delegation as the form has it.
   */
  bulkChange: readonly FormFieldDef[];
  /** Set on records about a person; absent on the rest. */
  personal?: PersonalDataDef;
  /** Set on records that can be switched off (a disabled user); absent on the rest. */
  activeFlag?: ActiveFlagDef;
  /** How a spreadsheet names these records, and what it may set of them (imports/). */
  import?: ImportDef;
  messages: ResourceMessages;
}

/** A field an import offers that the form does not declare (the profile's hand-laid form). */
export interface ImportFieldSpec<N extends string = string> {
  name: N;
  label: string;
  kind: 'text' | 'date' | 'switch';
}

/**
 * How an imported file names a module's records: by their natural key, never by code. `key` lists
 * body fields; the last is what a file writes (an ISO, a username), the ones before it references
 * taken from the same row that it is unique within (a state's ISO within its country).
 */
export interface ImportDef {
  key: readonly string[];
  /** Fields an import offers before the form's own (those the form lays out by hand). */
  fields: readonly ImportFieldSpec[];
}

/**
 * A record that can be switched off and stays in place (a disabled user): the boolean field that
 * is false while it is off, and the word selectors add to its name then ('disabled').
 */
export interface ActiveFlagDef {
  field: string;
  offLabel: string;
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

const pascal = (words: string) =>
  words
    .split(/[\s_-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const kebab = (words: string) => words.trim().toLowerCase().replace(/\s+/g, '-');
const upper = (words: string) => words.trim().toUpperCase().replace(/\s+/g, '_');

/** The code field of a resource: `genderCode`, `countryCode`, ... */
export const codeFieldOf = (key: ResourceKey) => `${key}Code`;

/** `GetStatesByCountryCode`: the convention every sub-list endpoint follows. */
export const parentListEndpoint = (plural: string, parent: ResourceKey) =>
  `Get${pascal(plural)}By${pascal(parent)}Code`;

const permissionNames: ReadonlySet<string> = new Set(ALL_PERMISSION_NAMES);

/** A name made by convention must be in the catalogue: a typo fails when the definition loads. */
function catalogued(name: string): PermissionName {
  if (!permissionNames.has(name)) throw new Error(`Permission ${name} is not in the catalogue`);
  return name as PermissionName;
}

/** The paths a definition may name in its record (`R`), and the keys of its bodies (`C`, `U`). */
type RecordPath<R extends z.ZodType> = NoInfer<RecordPathOf<R>>;
type FieldName<C extends z.ZodType, U extends z.ZodType, R extends z.ZodType> = NoInfer<
  BodyPathOf<C> | BodyPathOf<U> | RecordPathOf<R>
>;

/**
 * What a definition states; everything else follows from `key`, `label` and `plural` by the
 * console's naming conventions, and is written out only where the product differs. The fields it
 * names are typed by its schemas: a column, sort field, filter, export column or form field that
 * its record or bodies do not have fails to compile.
 */
export interface ResourceSpec<C extends z.ZodType, U extends z.ZodType, R extends z.ZodType> {
  key: ResourceKey;
  label: string;
  plural: string;
  moduleTitle?: string;
  /** Default: the key in capitals and a dash (`GENDER-`). */
  prefix?: string;
  nameField: NoInfer<TextFieldOf<z.output<R>>>;
  /** Write actions besides viewing; default all three. Their permissions and endpoints follow. */
  actions?: readonly WriteAction[];
  /** Endpoint names that break the convention (the user module keeps its historical ones). */
  endpoints?: Partial<ResourceEndpoints>;
  /** Default: `VIEW_{PLURAL}` when the permission catalogue has it. */
  viewPermission?: PermissionName;
  createSchema?: C;
  updateSchema?: U;
  recordSchema: R;
  columns: readonly ColumnSpec<RecordPath<R>>[];
  /** Sortable fields the table does not show as columns. */
  moreSortFields?: readonly RecordPath<R>[];
  formFields: readonly (FormFieldSpec<FieldName<C, U, R>, RecordPath<R>> | DerivedFieldDef)[];
  /** Parents that list this resource; `screen: false` for an API-only list. */
  listedBy?: ReadonlyArray<ResourceKey | { parent: ResourceKey; screen: false }>;
  defaultBack?: string;
  filters?: readonly ListFilterDef<RecordPath<R>>[];
  /** `Export{Plural}`'s columns where they are not the list's (objects are written as JSON). */
  exportColumns?: readonly ColumnDef<RecordPath<R>>[];
  /** Selectors of the update form that the list may set on several records at once (`Update{Plural}`). */
  bulkChange?: readonly NoInfer<BodyPathOf<U>>[];
  /**
   * A record about a person says how every one of its fields counts: the type asks for each key of
   * the record, so a field added later cannot be left out of the personal-data rules.
   */
  personal?: {
    owner: RecordPath<R>;
    fields: { readonly [K in keyof z.output<R>]-?: PersonalKind };
  };
  /** The record's boolean field that is false while it is switched off, and the word for that. */
  activeFlag?: { field: NoInfer<BooleanFieldOf<z.output<R>>>; offLabel: string };
  /** The natural key a spreadsheet names these records by, and fields beyond the form's. */
  import?: {
    key: readonly FieldName<C, U, R>[];
    fields?: readonly ImportFieldSpec<FieldName<C, U, R>>[];
  };
  messages?: Partial<ResourceMessages>;
}

/** The update form's selector of each bulk-changed field; a name that is none fails when the definition loads. */
function bulkChangesOf(key: ResourceKey, fields: readonly FormFieldDef[], names: readonly string[]) {
  return names.map((name) => {
    const field = fields.find(
      (f) => f.name === name && f.kind === 'select' && f.source && (f.modes ?? ['update']).includes('update'),
    );
    if (!field) throw new Error(`${key}: bulkChange ${name} is no selector of the update form`);
    return field;
  });
}

export function defineResource<C extends z.ZodType, U extends z.ZodType, R extends z.ZodType>(
  spec: ResourceSpec<C, U, R>,
): ResourceDef<C, U, R> {
  const actions = new Set<WriteAction>(spec.actions ?? ['create', 'update', 'delete']);
  // Named for the API description: a component schema that operations refer to, and that a
  // generated client turns into a named type (`GenderRecord`).
  if (!z.globalRegistry.has(spec.recordSchema)) {
    z.globalRegistry.add(spec.recordSchema, { id: `${pascal(spec.label)}Record` });
  }
  const name = pascal(spec.key);
  const one = upper(spec.key);
  const permissions: ResourcePermissions = {
    view: spec.viewPermission ?? catalogued(`VIEW_${upper(spec.plural)}`),
  };
  const endpoints: ResourceEndpoints = {
    list: `Get${pascal(spec.plural)}`,
    get: `Get${name}ByCode`,
    export: `Export${pascal(spec.plural)}`,
  };
  for (const action of actions) {
    permissions[action] = catalogued(`${action.toUpperCase()}_${one}`);
    endpoints[action] = `${pascal(action)}${name}`;
  }
  if (actions.has('delete')) endpoints.deleteMany = `Delete${pascal(spec.plural)}`;
  const bulkChange = actions.has('update')
    ? bulkChangesOf(spec.key, spec.formFields, spec.bulkChange ?? [])
    : [];
  if (bulkChange.length) endpoints.changeMany = `Update${pascal(spec.plural)}`;
  const {
    actions: _a,
    endpoints: overrides,
    viewPermission: _v,
    moreSortFields,
    listedBy,
    columns,
    bulkChange: _b,
    import: importSpec,
    ...rest
  } = spec;
  const listColumns = columns.map(({ sortable, ...c }) => (sortable ? { ...c, sortField: c.path } : c));
  return {
    ...rest,
    code: codeFieldOf(spec.key),
    prefix: spec.prefix ?? `${one}-`,
    listSegment: kebab(spec.plural),
    itemSegment: kebab(spec.label),
    moduleTitle: spec.moduleTitle ?? spec.plural,
    permissions,
    endpoints: { ...endpoints, ...overrides },
    columns: listColumns,
    sortFields: [...columns.filter((c) => c.sortable).map((c) => c.path), ...(moreSortFields ?? [])],
    listedBy: (listedBy ?? []).map((p) => {
      const parent = typeof p === 'string' ? p : p.parent;
      return {
        parent,
        endpoint: parentListEndpoint(spec.plural, parent),
        param: codeFieldOf(parent),
        screen: typeof p === 'string',
      };
    }),
    filters: spec.filters ?? [],
    exportColumns: spec.exportColumns ?? listColumns,
    bulkChange,
    ...(importSpec ? { import: { key: importSpec.key, fields: importSpec.fields ?? [] } } : {}),
    messages: { ...messagesFor(spec.label, spec.plural), ...spec.messages },
  };
}

/**
 * The cascade of a selector whose options are `source` listed by the parent chosen in `field`
 * (a city's state within its country). Refers to the source's own declaration, so the endpoint
 * is never restated; throws when the source is not listed by that parent.
 */
export function cascadeFrom(
  source: ResourceDef,
  parent: ResourceKey,
  field = codeFieldOf(parent),
): FieldCascade {
  const list = source.listedBy.find((l) => l.parent === parent);
  if (!list) throw new Error(`${source.label} is not listed by ${parent}`);
  return { field, endpoint: list.endpoint, param: list.param };
}

/**
 * A selector of `source` records, named and read by convention: the body key is the source's code
 * field, and a record holds the choice as a reference named after the source (`country.countryCode`,
 * `country.name`).
 */
export function selectField(source: ResourceDef, more: Partial<FormFieldDef> = {}): DerivedFieldDef {
  const field: FormFieldDef = {
    name: source.code,
    label: source.label,
    kind: 'select',
    source: source.key,
    valuePath: `${source.key}.${source.code}`,
    labelPath: `${source.key}.${source.nameField}`,
    ...more,
  };
  // The mark is for the type checker alone: these names come from `source`, checked where it is defined.
  return field as DerivedFieldDef;
}

export const TIMESTAMP_COLUMNS: readonly ColumnSpec<'createdAt' | 'updatedAt'>[] = [
  { path: 'createdAt', label: 'Created At', sortable: true, format: 'datetime' },
  { path: 'updatedAt', label: 'Updated At', sortable: true, format: 'datetime' },
];
