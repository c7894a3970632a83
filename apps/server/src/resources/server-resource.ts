import type {
  BodyPathOf,
  PermissionScope,
  RecordPathOf,
  ResourceDef,
  ResourceKey,
  Viewer,
} from '@wfc/contract';
import { eq, getTableColumns, is, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AuditActor } from '../audit/recorder.ts';
import type { ScopeRelation } from '../auth/scopes.ts';
import type { Executor } from '../db/client.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { Services } from '../services.ts';

export type ShapeValue = AnyPgColumn | SQL.Aliased | SQL;
/** A record's shape: flat columns, and one level of nested `{code, name}` objects from joins. */
export type Shape = Record<string, ShapeValue | Record<string, ShapeValue>>;

/** A record as the engine reads it, before `present` gives it its final form. */
export type Row = Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: any definition, whatever its schemas (hooks are bivariant methods)
export type AnyResourceDef = ResourceDef<any, any>;

/** A path into the record of `D` (`department.name`): what its keyword searches. */
export type RecordPath<D extends AnyResourceDef> = NoInfer<RecordPathOf<D['recordSchema']>>;

/** A key of a create or update body of `D` (`address.countryCode`): what a refusal names. */
export type BodyPath<D extends AnyResourceDef> = NoInfer<
  BodyPathOf<NonNullable<D['createSchema']>> | BodyPathOf<NonNullable<D['updateSchema']>>
>;

/** What a create or an update body of `D` is once its schema has parsed it. */
export type InputOf<D extends AnyResourceDef> =
  | z.output<NonNullable<D['createSchema']>>
  | z.output<NonNullable<D['updateSchema']>>;

export interface Join {
  table: PgTable;
  on: SQL;
  /** Inner joins for required references, left joins for optional ones. */
  optional?: boolean;
}

/** A body field that names another record: it must exist, else a 400 on that field. */
export interface RefCheck {
  field: string;
  column: AnyPgColumn;
  label: string;
}

/** Records that refer to this one: a delete is refused while any exist. */
export interface Dependent {
  column: AnyPgColumn;
  /** What the refusal calls them: '1 user', '2 users'. */
  one: string;
  many: string;
}

export interface WriteContext<P = unknown> {
  tx: Executor;
  /** The file of a multipart body, if one was sent. */
  upload?: UploadedFile;
  services: Services;
  actor: AuditActor;
  /**
   * The permission names the actor's role held when the request was authorised: what the actor
   * may hand on to others (delegation checks).
   */
  permissions: ReadonlySet<string>;
  /** The permissions the actor's role holds for fewer than all records (delegation compares them). */
  scopes: ReadonlyMap<string, PermissionScope>;
  /** How far the actor holds the permission this write needs. */
  scope: PermissionScope;
  sessionIdHash: string;
  /** What `prepare` returned for this request. */
  prepared?: P;
}

/** How a parent's code narrows a list, where it is not the listed table's own column of that name. */
export interface ParentCondition {
  where: (code: string) => SQL;
  /** Tables the filter reads besides the listed one (a cached page depends on them too). */
  reads?: PgTable[];
}

/** A sub-list route: the contract's `listedBy` entry and the condition it filters by. */
export interface ParentFilter extends ParentCondition {
  parent: ResourceKey;
  endpoint: string;
  param: string;
}

/**
 * A query flag that narrows a list to what the caller may use (`assignable=true`: the roles the
 * caller may give to a user). Without the flag the list is unchanged.
 */
export interface ListFlag {
  param: string;
  /** The condition for a caller holding `permissions`; undefined when it leaves nothing out. */
  where(permissions: ReadonlySet<string>, scopes: ReadonlyMap<string, PermissionScope>): SQL | undefined;
}

/** Looks one record up by another unique key (GetProfileByUserCode, ...). */
export interface AltGetter {
  endpoint: string;
  param: string;
  column: AnyPgColumn;
}

/** The identity of a resource another one refers to: enough to join it and name it. */
export interface ReferenceTarget {
  def: AnyResourceDef;
  table: PgTable;
  codeColumn: AnyPgColumn;
  shape: Shape;
}

/**
 * A reference to another resource through one of the table's own columns: the record nests the
 * target's code and name under the target's key, the list joins it, and a write checks it exists.
 */
export interface Reference {
  to: ReferenceTarget;
  /** The listed table's column that holds the target's code. */
  via: AnyPgColumn;
  /** A left join, for a column that may be null. */
  optional?: boolean;
}

/** The hooks by which an entity differs from plain CRUD; each sees its body as its schema parsed it. */
export interface ResourceHooks<D extends AnyResourceDef, P = unknown> {
  /** Reshapes a fetched record where the response nests deeper than the query can. */
  present?(record: Row): Row;
  /**
   * The record as a viewer may see it, where that is not the definition's own need-to-know rule
   * (an audit entry holds another module's record).
   */
  visible?(viewer: Viewer, record: Row): Row;
  /**
   * Slow work that needs no database (decoding an upload), done before the transaction opens so
   * that no transaction waits on it. May refuse the request (throw ApiError).
   */
  prepare?(
    input: InputOf<D>,
    upload: UploadedFile | undefined,
    mode: 'create' | 'update',
  ): Promise<P | undefined>;
  /** Table values for a validated body; by default the body's keys that are table columns. */
  toRow?(input: InputOf<D>, ctx: WriteContext, existing?: Row): Promise<Row>;
  /**
   * Whether the actor may make this change at all (delegation: nobody gives what they do not
   * hold). Runs first, right after the record is found and locked, before even its version is
   * compared, so that a refused actor learns nothing more about the record from later checks (a
   * stale version's refusal carries the current record). `input` is undefined for a delete.
   */
  authorize?(input: InputOf<D> | undefined, ctx: WriteContext, existing?: Row): Promise<void>;
  /**
   * Facts about an update that the stored record cannot show (a password was reset), added to
   * the audit's `after` so that they appear in its changes too. Never secrets.
   */
  auditNotes?(input: InputOf<D>): Row | undefined;
  /** Extra checks beyond the schema and reference checks (throw ApiError). */
  validate?(input: InputOf<D>, ctx: WriteContext, existing?: Row): Promise<void>;
  afterWrite?(code: string, input: InputOf<D>, ctx: WriteContext<P>, existing?: Row): Promise<void>;
  beforeDelete?(existing: Row, ctx: WriteContext): Promise<void>;
  /**
   * Adds what one query cannot give (a role's permissions) to fetched records; with
   * `populate: false` the references it adds are codes only, like the joined ones.
   */
  attach?(db: Executor, records: Row[], opts: { populate: boolean }): Promise<void>;
}

/** What a server definition states: storage and the entity's own rules. */
export interface ServerResourceSpec<D extends AnyResourceDef, P = unknown> extends ResourceHooks<D, P> {
  def: D;
  table: PgTable;
  references?: Reference[];
  /** Columns never shown (a password hash). */
  hidden?: AnyPgColumn[];
  /** The whole shape, where it is not the table's columns and references (an audit's user). */
  shape?: Shape;
  /** Groups the table's columns cannot give (a profile's picture), with the joins that read them. */
  moreShape?: Shape;
  joins?: Join[];
  /**
   * Tables a list reads besides its own and its joins' (what `attach` reads): a cached page is
   * reused only while none of them changed.
   */
  reads?: PgTable[];
  /**
   * Searched columns that hold a handful of distinct values (an audit's action): the keyword is
   * matched against those values, found by a skip scan of the column's btree index, and the rows
   * are then selected by equality. A trigram index over such a column lists most rows for every
   * trigram and makes each search slow.
   */
  fewValues?: readonly RecordPath<D>[];
  /** Create and update take multipart bodies (a file beside bracket-keyed fields). */
  multipart?: boolean;
  /** Dotted paths into the record that the keyword matches: a misspelt one does not compile. */
  search: readonly RecordPath<D>[];
  /**
   * What the search across modules (`POST Search`) matches besides the record's code: columns of
   * the table itself, each with a trigram index, the first of them the record's name. By default
   * the definition's name field; an identifier people look a record up by is added here (an
   * employee's Employee Id). Empty leaves the module out (an audit entry has no name).
   */
  searchFields?: readonly RecordPath<D>[];
  dependents?: Dependent[];
  /**
   * Messages for the table's unique indexes, by index name (checked against the schema in tests),
   * each given as the error of the body field it concerns.
   */
  unique?: readonly { constraint: string; field: BodyPath<D>; message: string }[];
  /** Conditions for the parents of `def.listedBy` whose code is not a column of this table. */
  parentConditions?: Partial<Record<ResourceKey, ParentCondition>>;
  getters?: AltGetter[];
  listFlags?: ListFlag[];
  /**
   * How a record relates to the signed-in user, for the permissions on this module a role holds
   * for `team` or `own` records only (`SCOPABLE_PERMISSIONS`): the engine adds its condition to
   * every list, total, view, sub-list, export and write of such a caller.
   */
  scope?: ScopeRelation;
}

/**
 * A server definition with everything derived: what the engine runs. Its paths were checked
 * against the definition's schemas where it was written; the engine reads them as text.
 */
export interface ServerResource<D extends AnyResourceDef = AnyResourceDef, P = unknown>
  extends Omit<
    ServerResourceSpec<D, P>,
    | 'shape'
    | 'moreShape'
    | 'references'
    | 'hidden'
    | 'parentConditions'
    | 'search'
    | 'searchFields'
    | 'fewValues'
    | 'unique'
  > {
  search: readonly string[];
  searchFields: readonly string[];
  fewValues?: readonly string[];
  unique?: readonly { constraint: string; field: string; message: string }[];
  idColumn: AnyPgColumn;
  codeColumn: AnyPgColumn;
  updatedAtColumn?: AnyPgColumn;
  /** Editable tables count versions (optimistic concurrency); the logs do not. */
  versionColumn?: AnyPgColumn;
  shape: Shape;
  joins: Join[];
  refs: RefCheck[];
  parentFilters: ParentFilter[];
}

function column(table: PgTable, name: string, what: string): AnyPgColumn {
  const col = getTableColumns(table)[name];
  if (!col) throw new Error(`${what}: the table has no column ${name}`);
  return col;
}

/** `{countryCode, name}`: how a record names another one it refers to. */
function referenceGroup(to: ReferenceTarget): Record<string, ShapeValue> {
  const name = to.shape[to.def.nameField];
  if (!is(name, PgColumn)) throw new Error(`${to.def.label} has no name column ${to.def.nameField}`);
  return { [to.def.code]: to.codeColumn, [to.def.nameField]: name };
}

/**
 * The record's default shape: the table's columns in their order, less the internal id and
 * hidden ones, each reference column replaced by the referenced record's code and name.
 */
function deriveShape<D extends AnyResourceDef, P>(spec: ServerResourceSpec<D, P>): Shape {
  const byColumn = new Map((spec.references ?? []).map((r) => [r.via, r]));
  const hidden = new Set(spec.hidden ?? []);
  const shape: Shape = {};
  for (const [name, col] of Object.entries(getTableColumns(spec.table))) {
    if (name === 'id' || hidden.has(col)) continue;
    const ref = byColumn.get(col);
    if (ref) shape[ref.to.def.key] = referenceGroup(ref.to);
    else shape[name] = col;
  }
  return { ...shape, ...spec.moreShape };
}

/** Fills in what follows from the definition's table and the contract by convention. */
export function defineServerResource<D extends AnyResourceDef, P = unknown>(
  spec: ServerResourceSpec<D, P>,
): ServerResource<D, P> {
  const { def, table } = spec;
  const references = spec.references ?? [];
  const columns = getTableColumns(table);
  const what = `${def.label} definition`;
  return {
    ...spec,
    idColumn: column(table, 'id', what),
    codeColumn: column(table, def.code, what),
    updatedAtColumn: columns.updatedAt,
    versionColumn: columns.version,
    shape: spec.shape ?? deriveShape(spec),
    searchFields: spec.searchFields ?? [def.nameField],
    joins: [
      ...references.map((r) => ({ table: r.to.table, on: eq(r.to.codeColumn, r.via), optional: r.optional })),
      ...(spec.joins ?? []),
    ],
    refs: references.map((r) => ({
      field: fieldOf(table, r.via),
      column: r.to.codeColumn,
      label: r.to.def.label,
    })),
    parentFilters: def.listedBy.map((list) => {
      const custom = spec.parentConditions?.[list.parent];
      const own = columns[list.param];
      if (!custom && !own) throw new Error(`${what}: no condition for the list by ${list.parent}`);
      return {
        parent: list.parent,
        endpoint: list.endpoint,
        param: list.param,
        where: custom?.where ?? ((code: string) => eq(column(table, list.param, what), code)),
        reads: custom?.reads,
      };
    }),
  };
}

/** The body key of a table column: its property name in the table definition. */
function fieldOf(table: PgTable, col: AnyPgColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, c]) => c === col);
  if (!entry) throw new Error(`Column ${col.name} is not a column of this table`);
  return entry[0];
}

/** A string field of a fetched record, or of one of its references (`country.countryCode`). */
export function textAt(record: Row | undefined, path: string): string | undefined {
  let value: unknown = record;
  for (const key of path.split('.')) {
    value = value !== null && typeof value === 'object' ? new Map(Object.entries(value)).get(key) : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/** The fields of a nested object of a record (a profile's picture); empty when there is none. */
export function fieldsAt(record: Row, key: string): Map<string, unknown> {
  const value = record[key];
  return new Map(value !== null && typeof value === 'object' ? Object.entries(value) : []);
}
