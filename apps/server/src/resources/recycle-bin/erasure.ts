import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { deletedRecords } from '../../db/schema/index.ts';
import type { StoredRows } from './rows.ts';

/**
 * What an erasure leaves of a person in the bin's other records (docs/privacy.md): a deleted
 * department that listed them as manager keeps no row tying it to them, and its record reads their
 * values as erased (`redact`). Entries about the person themselves are deleted by the erasure.
 */
export async function forgetInBin(
  tx: Executor,
  codes: readonly string[],
  redact: (json: unknown) => unknown,
) {
  if (!codes.length) return 0;
  const named = sql.join(
    codes.map(
      (c) => sql`position(${c} in ${deletedRecords.record}::text || ${deletedRecords.rows}::text) > 0`,
    ),
    sql` or `,
  );
  const entries = await rowsOf<{ id: number; name: string; record: unknown; rows: StoredRows }>(
    tx,
    sql`select id, name, record, rows from ${deletedRecords} where ${named} for update`,
  );
  const theirs = new Set(codes);
  for (const entry of entries) {
    const [own, ...linked] = Object.entries(entry.rows);
    const rows: StoredRows = Object.fromEntries([
      ...(own ? [own] : []),
      ...linked.map(([table, list]) => [
        table,
        list.filter((row) => !Object.values(row).some((v) => typeof v === 'string' && theirs.has(v))),
      ]),
    ]);
    await tx.execute(sql`update ${deletedRecords} set
      name = ${String(redact(entry.name))},
      record = ${JSON.stringify(redact(entry.record))}::jsonb,
      rows = ${JSON.stringify(rows)}::jsonb
      where id = ${entry.id}`);
  }
  return entries.length;
}
