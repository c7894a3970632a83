import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** What `freshDatabase` copies (test/support/migrated-database.ts); unset where no global setup provides it. */
    migratedDatabase?: { kind: 'embedded'; tarball: string } | { kind: 'postgres'; template: string };
  }
}

/**
 * A new database on the PostgreSQL server `base` names, empty or a copy of `template`: its name,
 * its URL, and how to drop it.
 */
export async function scratchPgDatabase(base: string, prefix: string, template?: string) {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by DATABASE_URL (dropped again by `close`). Files never share data.
 * Under the API and browser projects' global setup (migrated-database.ts) it is a copy of a
 * database migrated once for the whole run; elsewhere it is migrated here.
 */
export async function freshDatabase(): Promise<DbHandle & { url?: string }> {
  const base = process.env.DATABASE_URL;
  const migrated = inject('migratedDatabase');
  if (!base) {
    if (migrated?.kind === 'embedded') {
      const loadDataDir = new Blob([new Uint8Array(await readFile(migrated.tarball))]);
      return openDatabase({ dataDir: 'memory://', loadDataDir });
    }
    const handle = await openDatabase({ dataDir: 'memory://' });
    await migrate(handle.db);
    return handle;
  }
  const template = migrated?.kind === 'postgres' ? migrated.template : undefined;
  const scratch = await scratchPgDatabase(base, 'wfc_test', template);
  const handle = await openDatabase({ dataDir: 'memory://', databaseUrl: scratch.url, poolSize: 5 });
  if (!template) await migrate(handle.db);
  return {
    ...handle,
    url: scratch.url,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}
