import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DbHandle, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by DATABASE_URL (dropped again by `close`). Files never share data.
 */
export async function freshDatabase(): Promise<DbHandle & { url?: string }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await migrate(handle.db);
    return handle;
  }
  const name = `wfc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ dataDir: 'memory://', databaseUrl: url.toString(), poolSize: 5 });
  await migrate(handle.db);
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
