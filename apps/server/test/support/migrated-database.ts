import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, openEmbedded } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { scratchPgDatabase } from './db.ts';

/**
 * Vitest global setup of the API and browser test projects: migrates one database before any test
 * file runs, for `freshDatabase` to copy. Every file would start from an empty database brought up
 * to date by the same migrations, so a copy is the same database; on the embedded database making
 * one that way took a file 2.5-4 s on a busy machine (the start, then every migration), loading a
 * copy about half that. On a PostgreSQL server the copy is a template database; on the embedded
 * one, a data-directory tarball on disk.
 */
export async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  if (base) {
    const template = await scratchPgDatabase(base, 'wfc_template');
    const handle = await openDatabase({ dataDir: 'memory://', databaseUrl: template.url, poolSize: 1 });
    await migrate(handle.db);
    // A template must have no connections while it is copied.
    await handle.close();
    project.provide('migratedDatabase', { kind: 'postgres', template: template.name });
    return () => template.drop();
  }
  const dir = await mkdtemp(join(tmpdir(), 'wfc-migrated-'));
  const dataDir = join(dir, 'data');
  const handle = await openDatabase({ dataDir });
  await migrate(handle.db);
  await handle.close();
  const client = await openEmbedded(dataDir);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const tarball = join(dir, 'migrated.tar');
  await writeFile(tarball, new Uint8Array(await dump.arrayBuffer()));
  project.provide('migratedDatabase', { kind: 'embedded', tarball });
  return () => rm(dir, { recursive: true, force: true });
}
