import { getTableName, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import * as schema from '../../db/schema/index.ts';

/*
 * A deleted record's stored rows, read before the delete and written back by a restore. Which
 * rows go with a record is the schema's own answer: those its foreign keys' `on delete cascade`
 * remove with it (a role's permissions, a profile's picture, a user's two-factor set-up), however
 * deep, so a table added later is kept without anyone listing it here.
 */

/** Rows by table name, as `to_jsonb` writes them (column names as stored), parents first. */
export type StoredRows = Record<string, Record<string, unknown>[]>;

const TABLES: readonly PgTable[] = Object.values(schema as Record<string, unknown>).filter(
  (t): t is PgTable => is(t, PgTable),
);

/**
 * Rows that end with their user for good: a restored user signs in again, and a sign-in that was
 * under way when they were deleted is not resumed.
 */
const ENDED_WITH_THE_RECORD: ReadonlySet<PgTable> = new Set([schema.sessions, schema.mfaChallenges]);

interface Cascade {
  child: PgTable;
  /** The child's column that refers to the parent. */
  column: AnyPgColumn;
  /** The parent's column it refers to (a code, or a row id). */
  parentColumn: AnyPgColumn;
}

/** A foreign key of one column each side; the schema has no other kind. */
function singleColumn(fk: ReturnType<typeof getTableConfig>['foreignKeys'][number], table: string) {
  const { columns, foreignColumns, foreignTable } = fk.reference();
  const [column] = columns;
  const [parentColumn] = foreignColumns;
  if (!column || !parentColumn || columns.length > 1) {
    throw new Error(`${table}: the recycle bin reads foreign keys of one column only`);
  }
  return { column, parentColumn, foreignTable };
}

const CASCADES = new Map<PgTable, Cascade[]>();
for (const child of TABLES) {
  if (ENDED_WITH_THE_RECORD.has(child)) continue;
  const config = getTableConfig(child);
  for (const fk of config.foreignKeys) {
    if (fk.onDelete !== 'cascade') continue;
    const { column, parentColumn, foreignTable } = singleColumn(fk, config.name);
    CASCADES.set(foreignTable, [...(CASCADES.get(foreignTable) ?? []), { child, column, parentColumn }]);
  }
}

/** A table by its stored name: the rows a bin entry keeps name their tables so. */
const BY_NAME = new Map(TABLES.map((t) => [getTableName(t), t]));

const valuesIn = (rows: Record<string, unknown>[], column: AnyPgColumn) => [
  ...new Set(
    rows.flatMap((r) => (r[column.name] === null || r[column.name] === undefined ? [] : [r[column.name]])),
  ),
];

const inList = (values: unknown[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The rows `where` selects in `table`, and every row a delete of them would cascade to. */
export async function storedRows(tx: Executor, table: PgTable, where: SQL, into: StoredRows = {}) {
  const name = getTableName(table);
  const rows = (
    await rowsOf<{ row: Record<string, unknown> }>(
      tx,
      sql`select to_jsonb(t) as row from ${table} t where ${where}`,
    )
  ).map((r) => r.row);
  if (!rows.length) return into;
  into[name] = [...(into[name] ?? []), ...rows];
  for (const cascade of CASCADES.get(table) ?? []) {
    const values = valuesIn(rows, cascade.parentColumn);
    if (!values.length) continue;
    await storedRows(
      tx,
      cascade.child,
      sql`t.${sql.identifier(cascade.column.name)} in (${inList(values)})`,
      into,
    );
  }
  return into;
}

/** The foreign keys of a table: the parents a row of it needs. */
export function parentsOf(table: PgTable) {
  const config = getTableConfig(table);
  return config.foreignKeys.map((fk) => singleColumn(fk, config.name));
}

/**
 * Writes rows back with their own ids: an identity column's sequence has moved past them and
 * never hands them out again. The record's own rows are written as they were (a unique value
 * taken since refuses the restore); the rows that went with it only where every record they refer
 * to still exists (a department's manager deleted since is no longer its manager), and not twice
 * (a link the other side's restore brought back already).
 */
export async function writeBack(tx: Executor, rows: StoredRows, own: PgTable) {
  for (const [name, list] of Object.entries(rows)) {
    const table = BY_NAME.get(name);
    if (!table) throw new Error(`The recycle bin keeps rows of ${name}, which is no table`);
    const values = sql`jsonb_populate_recordset(null::${table}, ${JSON.stringify(list)}::jsonb) x`;
    if (table === own) {
      await tx.execute(sql`insert into ${table} overriding system value select * from ${values}`);
      continue;
    }
    const present = parentsOf(table).map(
      ({ column, parentColumn, foreignTable }) =>
        sql`(x.${sql.identifier(column.name)} is null or exists (select from ${foreignTable} p
          where p.${sql.identifier(parentColumn.name)} = x.${sql.identifier(column.name)}))`,
    );
    await tx.execute(sql`insert into ${table} overriding system value select * from ${values}
      where ${present.length ? sql.join(present, sql` and `) : sql`true`} on conflict do nothing`);
  }
}
