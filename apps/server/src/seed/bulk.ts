import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rows } from './sql.ts';

interface Catalogued {
  table: string;
  name: string;
  kind: 'index' | 'primary key' | 'unique' | 'foreign key';
  /** CREATE INDEX for indexes and keys; the constraint clause for foreign keys. */
  definition: string;
}

export interface DeferredIndexes {
  /**
   * Builds the indexes again, `concurrency` at a time (more than one only on a pool, never in a
   * transaction), then attaches the keys to their indexes and checks the foreign keys.
   */
  restore(concurrency?: number): Promise<void>;
}

/**
 * Drops the tables' indexes, primary and unique keys and the foreign keys from or to them,
 * remembering each exactly as the catalogue describes it. Building an index once from all the
 * rows, and checking a foreign key with one join, is many times cheaper than keeping both up to
 * date row by row during a bulk load. Only for tables that nobody else is using meanwhile.
 */
export async function setIndexesAside(db: Executor, tables: readonly string[]): Promise<DeferredIndexes> {
  const names = sql.join(
    tables.map((t) => sql`${t}::regclass`),
    sql`, `,
  );
  const found = await rows<Catalogued>(
    db,
    sql`select c.conrelid::regclass::text as table, c.conname as name,
        case c.contype when 'p' then 'primary key' when 'u' then 'unique' else 'foreign key' end as kind,
        case when c.contype = 'f' then pg_get_constraintdef(c.oid) else pg_get_indexdef(c.conindid) end as definition
      from pg_constraint c
      where c.contype in ('p', 'u', 'f') and (c.conrelid in (${names}) or c.confrelid in (${names}))
      union all
      select i.indrelid::regclass::text, ci.relname, 'index', pg_get_indexdef(i.indexrelid)
      from pg_index i join pg_class ci on ci.oid = i.indexrelid
      where i.indrelid in (${names})
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  const foreignKeys = found.filter((f) => f.kind === 'foreign key');
  const keys = found.filter((f) => f.kind === 'primary key' || f.kind === 'unique');
  const indexes = found.filter((f) => f.kind === 'index');
  const alter = (f: Catalogued) => sql`alter table ${sql.raw(f.table)}`;
  for (const f of foreignKeys) await db.execute(sql`${alter(f)} drop constraint ${sql.identifier(f.name)}`);
  for (const f of keys) await db.execute(sql`${alter(f)} drop constraint ${sql.identifier(f.name)}`);
  for (const f of indexes) await db.execute(sql`drop index ${sql.identifier(f.name)}`);

  return {
    async restore(concurrency = 1) {
      const builds = [...keys, ...indexes];
      const next = async () => {
        for (let f = builds.shift(); f; f = builds.shift()) await db.execute(sql.raw(f.definition));
      };
      await Promise.all(Array.from({ length: Math.max(1, concurrency) }, next));
      for (const f of keys) {
        await db.execute(
          sql`${alter(f)} add constraint ${sql.identifier(f.name)} ${sql.raw(f.kind)} using index ${sql.identifier(f.name)}`,
        );
      }
      for (const f of foreignKeys) {
        await db.execute(sql`${alter(f)} add constraint ${sql.identifier(f.name)} ${sql.raw(f.definition)}`);
      }
    },
  };
}

/** A bulk load inside one transaction, with the tables' indexes set aside meanwhile. */
export async function withIndexesDeferred<T>(
  tx: Executor,
  tables: readonly string[],
  load: () => Promise<T>,
) {
  const deferred = await setIndexesAside(tx, tables);
  const result = await load();
  await deferred.restore();
  return result;
}
