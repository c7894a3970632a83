import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rows } from './sql.ts';

interface Deferred {
  table: string;
  name: string;
  definition: string;
  kind: 'index' | 'constraint' | 'foreign key';
}

/**
 * Runs a bulk load with the tables' indexes, keys and foreign keys set aside, then puts them back
 * exactly as the catalogue described them. Building an index once from sorted data, and checking a
 * foreign key with one join, is many times cheaper than maintaining both row by row. Only for
 * tables nobody else is using: it takes their locks until the transaction ends.
 */
export async function withIndexesDeferred<T>(
  tx: Executor,
  tables: readonly string[],
  load: () => Promise<T>,
) {
  const names = sql.join(
    tables.map((t) => sql`${t}::regclass`),
    sql`, `,
  );
  const deferred = await rows<Deferred>(
    tx,
    sql`select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition,
        case when c.contype = 'f' then 'foreign key' else 'constraint' end as kind
      from pg_constraint c
      where c.contype in ('p', 'u', 'f') and (c.conrelid in (${names}) or c.confrelid in (${names}))
      union all
      select i.indrelid::regclass::text, ci.relname, pg_get_indexdef(i.indexrelid), 'index'
      from pg_index i join pg_class ci on ci.oid = i.indexrelid
      where i.indrelid in (${names})
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  const order = { 'foreign key': 0, constraint: 1, index: 2 };
  deferred.sort((a, b) => order[a.kind] - order[b.kind]);
  for (const d of deferred) {
    if (d.kind === 'index') await tx.execute(sql`drop index ${sql.identifier(d.name)}`);
    else await tx.execute(sql`alter table ${sql.raw(d.table)} drop constraint ${sql.identifier(d.name)}`);
  }
  const result = await load();
  for (const d of [...deferred].reverse()) {
    if (d.kind === 'index') await tx.execute(sql.raw(d.definition));
    else {
      await tx.execute(
        sql`alter table ${sql.raw(d.table)} add constraint ${sql.identifier(d.name)} ${sql.raw(d.definition)}`,
      );
    }
  }
  return result;
}
