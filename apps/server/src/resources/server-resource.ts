import type { ResourceDef } from '@wfc/contract';
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditActor } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { Services } from '../services.ts';

export type ShapeValue = AnyPgColumn | SQL.Aliased | SQL;
/** A record's shape: flat columns, and one level of nested `{code, name}` objects from joins. */
export type Shape = Record<string, ShapeValue | Record<string, ShapeValue>>;

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

export interface WriteContext {
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
  sessionIdHash: string;
  /** What `prepare` returned for this request. */
  prepared?: unknown;
}

/** Filters a list by a parent code (sub-lists such as a country's states). */
export interface ParentFilter {
  endpoint: string;
  param: string;
  parent: { column: AnyPgColumn; notFound: string };
  where: (code: string) => SQL;
  /** Tables the filter reads besides the listed one (a cached page depends on them too). */
  reads?: PgTable[];
}

/**
 * A query flag that narrows a list to what the caller may use (`assignable=true`: the roles the
 * caller may give to a user). Without the flag the list is unchanged.
 */
export interface ListFlag {
  param: string;
  /** The condition for a caller holding `permissions`; undefined when it leaves nothing out. */
  where(permissions: ReadonlySet<string>): SQL | undefined;
}

/** Looks one record up by another unique key (GetProfileByUserCode, ...). */
export interface AltGetter {
  endpoint: string;
  param: string;
  column: AnyPgColumn;
}

export interface ServerResource<Input = Record<string, unknown>> {
  def: ResourceDef;
  table: PgTable;
  idColumn: AnyPgColumn;
  codeColumn: AnyPgColumn;
  updatedAtColumn?: AnyPgColumn;
  shape: Shape;
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
  fewValues?: string[];
  /** Create and update take multipart bodies (a file beside bracket-keyed fields). */
  multipart?: boolean;
  /** Reshapes a fetched record where the response nests deeper than the query can. */
  present?(record: Record<string, unknown>): Record<string, unknown>;
  /** Dotted paths into `shape` that the keyword matches. */
  search: string[];
  refs?: RefCheck[];
  dependents?: Dependent[];
  unique?: { constraint: string; field: string; message: string }[];
  subLists?: ParentFilter[];
  getters?: AltGetter[];
  listFlags?: ListFlag[];
  /**
   * Slow work that needs no database (decoding an upload), done before the transaction opens so
   * that no transaction waits on it. May refuse the request (throw ApiError).
   */
  prepare?(input: Input, upload: UploadedFile | undefined, mode: 'create' | 'update'): Promise<unknown>;
  /** Table values for a validated body; by default the body's keys that are table columns. */
  toRow?(
    input: Input,
    ctx: WriteContext,
    existing?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  /**
   * Whether the actor may make this change at all (delegation: nobody gives what they do not
   * hold). Runs first, right after the record is found and locked, so that a refused actor learns
   * nothing more about the record from later checks. `input` is undefined for a delete.
   */
  authorize?(input: Input | undefined, ctx: WriteContext, existing?: Record<string, unknown>): Promise<void>;
  /**
   * Facts about an update that the stored record cannot show (a password was reset), added to
   * the audit's `after` so that they appear in its changes too. Never secrets.
   */
  auditNotes?(input: Input): Record<string, unknown> | undefined;
  /** Extra checks beyond the schema and reference checks (throw ApiError). */
  validate?(input: Input, ctx: WriteContext, existing?: Record<string, unknown>): Promise<void>;
  afterWrite?(
    code: string,
    input: Input,
    ctx: WriteContext,
    existing?: Record<string, unknown>,
  ): Promise<void>;
  beforeDelete?(existing: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  /**
   * Adds what one query cannot give (a role's permissions) to fetched records; with
   * `populate: false` the references it adds are codes only, like the joined ones.
   */
  attach?(db: Executor, records: Record<string, unknown>[], opts: { populate: boolean }): Promise<void>;
}
