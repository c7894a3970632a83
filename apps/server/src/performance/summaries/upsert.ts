import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { jsonParam } from '../sql.ts';
import type { ColumnType, Rollup } from './declarations.ts';

/** Key order as PostgreSQL sorts these keys: numbers as numbers, codes and ISO dates byte by byte. */
export function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Adds the changes (key values and sums, in the rollup's column order) to a rollup in one upsert,
 * written in key order, the order the department moves of triggers.ts write in
 * too, so that no two writers wait for each other in a cycle; a row left empty is deleted by a
 * second statement (the first cannot see its own upserts). The rows go as one array per column:
 * 20,000 of them parse in a few milliseconds.
 */
export async function addToRollup(
  db: Executor,
  rollup: Rollup,
  changes: readonly { key: readonly (string | number)[]; sums: readonly (string | number)[] }[],
) {
  if (!changes.length) return;
  const names = rollup.keys.map(([column]) => column);
  const keys = sql.raw(names.join(', '));
  const array = (type: ColumnType, values: (string | number)[]) =>
    sql`${arrayLiteral(values)}::${sql.raw(type)}[]`;
  const columns = [
    ...rollup.keys.map(([, type], i) =>
      array(
        type,
        changes.map((c) => c.key[i] as string | number),
      ),
    ),
    ...rollup.measures.map(([, type], i) =>
      array(
        type,
        changes.map((c) => c.sums[i] as string | number),
      ),
    ),
  ];
  const sums = rollup.measures.map(([column]) => column);
  const upsert = sql`
    insert into ${sql.raw(rollup.table)} as k (${keys}, ${sql.raw(sums.join(', '))})
    select * from unnest(${sql.join(columns, sql`, `)})
    on conflict (${keys}) do update
      set ${sql.raw(sums.map((c) => `${c} = k.${c} + excluded.${c}`).join(', '))}`;
  const emptiedBy = rollup.emptiedBy;
  if (!emptiedBy) {
    await db.execute(upsert);
    return;
  }
  const emptied = await rowsOf<Record<string, string>>(
    db,
    sql`
    with up as (${upsert}
      returning ${sql.raw(names.map((k) => `k.${k}::text`).join(', '))}, k.${sql.raw(emptiedBy)} as left_over
    )
    select ${keys} from up where left_over = 0`,
  );
  if (!emptied.length) return;
  const matches = rollup.keys.map(([k, type]) => `k.${k} = x.${k}::${type}`);
  await db.execute(sql`
    delete from ${sql.raw(rollup.table)} k
    using jsonb_to_recordset(${jsonParam(emptied)}) as x(${sql.raw(names.map((k) => `${k} text`).join(', '))})
    where ${sql.raw(matches.join(' and '))} and k.${sql.raw(emptiedBy)} = 0`);
}
