import { and, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { ServerResource } from '../../resources/server-resource.ts';

/** Values asked of the database in one statement. */
const CHUNK = 5000;

/** Where a module's natural key is stored: the column a file names it by, and its parent's, if any. */
export interface NaturalKey {
  res: ServerResource;
  column: AnyPgColumn;
  parent?: AnyPgColumn;
}

/** The natural key of a module, from its definition's `import.key` (body fields that are table columns). */
export function naturalKey(res: ServerResource): NaturalKey {
  const fields = res.def.import?.key ?? [];
  const columns = getTableColumns(res.table);
  const columnOf = (field: string | undefined) => {
    const col = field === undefined ? undefined : columns[field];
    if (!col) throw new Error(`${res.def.label}: the natural key ${field} is no column of its table`);
    return col;
  };
  return {
    res,
    column: columnOf(fields.at(-1)),
    ...(fields.length > 1 ? { parent: columnOf(fields[0]) } : {}),
  };
}

/** A value a file names a record by, within its parent's code where the key has one. */
export interface KeyValue {
  parent: string | null;
  value: string;
}

/**
 * Pure: how a natural key value is matched: whatever its case and surrounding spaces. A parent is
 * a code, which holds no `|`, so the key is unambiguous; it is stored in an import's plan.
 */
export const keyOf = (k: KeyValue) => `${k.parent ?? ''}|${k.value.trim().toLowerCase()}`;

/**
 * The codes of the records the values name, by `keyOf`, whatever their case: natural keys are
 * unique whatever the case (their indexes are on `lower(...)`, which this asks by). Where two
 * records differ only in case (a city's name, unique within nothing), the one written exactly as
 * the file writes it is named.
 */
export async function findCodes(
  db: Executor,
  key: NaturalKey,
  wanted: readonly KeyValue[],
  scoped?: SQL,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const { res, column, parent } = key;
  const exact = new Set(wanted.map((w) => w.value.trim()));
  const lowered = [...new Set(wanted.map((w) => w.value.trim().toLowerCase()).filter(Boolean))];
  for (let i = 0; i < lowered.length; i += CHUNK) {
    const rows = await rowsOf<{ code: string; value: string; parent: string | null }>(
      db,
      sql`select ${res.codeColumn} as code, ${column} as value, ${parent ?? sql`null`} as parent
          from ${res.table}
          where ${and(sql`lower(${column}) in (${textSet(lowered.slice(i, i + CHUNK))})`, scoped)}`,
    );
    for (const r of rows) {
      const k = keyOf({ parent: r.parent, value: r.value });
      if (!found.has(k) || exact.has(r.value)) found.set(k, r.code);
    }
  }
  return found;
}

/**
 * Where a module's records are stored by the name its lists show, when that is not its natural key
 * (a country's name beside its ISO2, an employee's beside their Employee Id); none otherwise.
 */
export function nameKey(key: NaturalKey): NaturalKey | undefined {
  const column = getTableColumns(key.res.table)[key.res.def.nameField];
  if (!column || column === key.column) return undefined;
  return { ...key, column };
}

/**
 * The codes of the records the values name by `nameKey`, whatever the case, by `keyOf`: what an
 * exported list writes of a reference (the state's country by name). A name two records share
 * within the same parent names neither.
 */
export async function findCodesByName(
  db: Executor,
  key: NaturalKey,
  wanted: readonly KeyValue[],
): Promise<Map<string, string>> {
  const codes = new Map<string, Set<string>>();
  const { res, column, parent } = key;
  const values = [...new Set(wanted.map((w) => w.value.trim().toLowerCase()).filter(Boolean))];
  for (let i = 0; i < values.length; i += CHUNK) {
    const rows = await rowsOf<{ code: string; value: string; parent: string | null }>(
      db,
      sql`select ${res.codeColumn} as code, ${column} as value, ${parent ?? sql`null`} as parent
          from ${res.table} where lower(${column}) in (${textSet(values.slice(i, i + CHUNK))})`,
    );
    for (const r of rows) {
      const k = keyOf({ parent: r.parent, value: r.value });
      codes.set(k, (codes.get(k) ?? new Set()).add(r.code));
    }
  }
  const found = new Map<string, string>();
  for (const [k, set] of codes) if (set.size === 1) found.set(k, [...set][0] ?? '');
  return found;
}
