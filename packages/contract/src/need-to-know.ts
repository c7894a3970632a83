import { z } from 'zod';
import type { PermissionName } from './permissions.ts';
import type { ResourceDef } from './resources/define.ts';

/*
 * Need-to-know fields (docs/privacy.md, "Who sees it"): the fields a definition marks `detail`
 * (a birth date, an address, an email) are for holders of VIEW_PERSONAL_DATA and for the person
 * the record is about. Everyone else gets the record without them: the key is absent, which is
 * how an answer tells "hidden" from "empty" (null).
 */

export const VIEW_PERSONAL_DATA: PermissionName = 'VIEW_PERSONAL_DATA';

/** Who is looking: their permissions and their own user's code. */
export interface Viewer {
  permissions: ReadonlySet<string>;
  userCode: string;
}

export const HIDDEN_FIELD_TEXT = 'Hidden';
export const HIDDEN_FIELD_HELP = 'Personal data: shown to those who need to know it';

type Definition = Pick<ResourceDef, 'personal'>;

/** The record keys a definition marks `detail`: none for a record that is not about a person. */
export function detailFields(def: Definition): string[] {
  const fields = def.personal?.fields ?? {};
  return Object.keys(fields).filter((k) => fields[k] === 'detail');
}

/** The value at a dotted path (`user.userCode`), or undefined. */
function valueAt(record: unknown, path: string): unknown {
  let at = record;
  for (const part of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** The code of the user a record is about, where it names one. */
export function ownerOf(def: Definition, record: unknown): string | undefined {
  const owner = def.personal ? valueAt(record, def.personal.owner) : undefined;
  return typeof owner === 'string' ? owner : undefined;
}

/** Whether the viewer may see every field of the record: the permission, or it is about them. */
export function seesDetails(viewer: Viewer, def: Definition, record: unknown): boolean {
  if (!def.personal || viewer.permissions.has(VIEW_PERSONAL_DATA)) return true;
  return ownerOf(def, record) === viewer.userCode;
}

/** Whether the viewer sees every detail field of every record of the definition. */
export const seesAllDetails = (viewer: Viewer, def: Definition): boolean =>
  !def.personal || viewer.permissions.has(VIEW_PERSONAL_DATA);

/** Pure: the record without the fields the viewer may not see (the same object when none). */
export function visibleRecord<T>(viewer: Viewer, def: Definition, record: T): T {
  if (seesDetails(viewer, def, record) || typeof record !== 'object' || record === null) return record;
  const out = { ...record } as Record<string, unknown>;
  for (const key of detailFields(def)) delete out[key];
  return out as T;
}

/**
 * Pure: whether a record key (or a path starting with one: `address.city.name`) is hidden from a
 * viewer who does not see details. Columns, sort fields and filters use it.
 */
export function isDetailPath(def: Definition, path: string): boolean {
  const [head = path] = path.split('.');
  return def.personal?.fields[head] === 'detail';
}

/** Which fields of a record shown to a viewer are hidden from them (absent from the answer). */
export function hiddenIn(def: Definition, record: object): string[] {
  return def.personal ? detailFields(def).filter((k) => !(k in record)) : [];
}

const visibleSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The record as answers describe it: detail fields may be absent, for callers who do not see
 * them. Strict still, so a field nobody declared fails the API tests. One schema per definition,
 * named in the API description as the record was (`ProfileRecord`): every answer uses this one.
 */
export function visibleRecordSchema<R extends z.ZodType>(def: { recordSchema: R } & Definition): R {
  const keys = detailFields(def);
  const schema = def.recordSchema;
  if (!keys.length || !(schema instanceof z.ZodObject)) return schema;
  const known = visibleSchemas.get(schema);
  if (known) return known as unknown as R;
  const optional = Object.fromEntries(
    keys.flatMap((k) => (schema.shape[k] ? [[k, schema.shape[k].optional()]] : [])),
  );
  const visible = schema.extend(optional);
  const named = z.globalRegistry.get(schema);
  if (named) {
    z.globalRegistry.remove(schema);
    z.globalRegistry.add(visible, named);
  }
  visibleSchemas.set(schema, visible);
  return visible as unknown as R;
}

/**
 * Pure: an update body completed with the stored values of the fields hidden from its sender, so
 * that an edit by someone who cannot see them keeps them as they are, whatever was sent for them.
 * A stored reference is sent as its form field sends it (`gender.genderCode` as `genderCode`,
 * `address.country.countryCode` as `address.countryCode`); every other stored value at its path.
 */
export function keepHidden(
  def: Pick<ResourceDef, 'formFields'>,
  body: Record<string, unknown>,
  stored: Record<string, unknown>,
  hidden: readonly string[],
): Record<string, unknown> {
  // A body is JSON, or the text fields of a multipart form.
  const out = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const selectors = def.formFields.filter(
    (f) => f.valuePath && hidden.some((k) => f.valuePath?.startsWith(`${k}.`)),
  );
  // Where a selector reads its value, the stored object is a reference: the selector sends it.
  const references = new Set(selectors.map((f) => f.valuePath?.split('.').slice(0, -1).join('.')));
  const copy = (path: string, value: unknown) => {
    if (references.has(path)) return;
    // An empty field is sent by leaving it out, as forms do.
    if (isObject(value)) for (const [k, v] of Object.entries(value)) copy(`${path}.${k}`, v);
    else if (value !== null && value !== undefined) setAt(out, path, value);
  };
  for (const key of hidden) {
    // A whole group is replaced: a nested key sent for it must not survive beside the stored ones.
    delete out[key];
    copy(key, stored[key]);
  }
  for (const f of selectors) {
    const value = valueAt(stored, f.valuePath ?? '');
    if (value !== null && value !== undefined) setAt(out, f.name, value);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function setAt(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split('.');
  const last = parts.pop() ?? path;
  let at = target;
  for (const part of parts) {
    const next = at[part];
    if (isObject(next)) at = next;
    else {
      const created: Record<string, unknown> = {};
      at[part] = created;
      at = created;
    }
  }
  at[last] = value;
}

/** An audit entry as far as the need-to-know rule reads it. */
interface AuditEntryLike {
  collection?: string | null;
  before?: unknown;
  after?: unknown;
  changes?: unknown;
}

/**
 * Pure: an audit entry without the detail fields of the record it is about, where the viewer may
 * not see them: `before` and `after` lose the keys, `changes` the paths under them. `defOf` finds
 * the definition of the module the entry names.
 */
export function visibleAuditEntry<T extends AuditEntryLike>(
  viewer: Viewer,
  defOf: (collection: string) => Definition | undefined,
  entry: T,
): T {
  const def = entry.collection ? defOf(entry.collection) : undefined;
  if (!def?.personal || seesDetails(viewer, def, entry.before ?? entry.after)) return entry;
  const out = { ...entry };
  const strip = (v: unknown) =>
    isObject(v) ? visibleRecord({ permissions: new Set(), userCode: '' }, def, v) : v;
  out.before = strip(entry.before);
  out.after = strip(entry.after);
  if (isObject(entry.changes)) {
    out.changes = Object.fromEntries(
      Object.entries(entry.changes).filter(([path]) => !isDetailPath(def, path)),
    );
  }
  return out;
}

/** Said for a list filter on a field hidden from the caller: filtering would tell its values. */
export const HIDDEN_FILTER_MESSAGE = 'This is personal data you cannot see: it cannot filter the list';
