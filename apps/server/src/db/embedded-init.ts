import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type DataDirLock, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';
import { conversionMessage, upgradeEmbedded } from './embedded-upgrade.ts';

/*
 * PostgreSQL creates a database only in an empty directory (initdb refuses any other), and DATA_DIR
 * already holds this process's lock by the time the database is opened. So a new database is
 * created in a folder of its own inside DATA_DIR, named after the lock (so that it is never taken
 * for part of the database, nor copied into a backup), and its files are then moved up.
 */

const NEW_DATABASE = `${LOCK_FILE}.new`;
/** The file that marks a directory as holding a database: moved last. */
const MARKER = 'PG_VERSION';

/** Creates the embedded database in `dataDir` (held by this process) unless it holds one. */
export async function createIfNew(dataDir: string): Promise<void> {
  const fresh = join(dataDir, NEW_DATABASE);
  // What a process that stopped halfway through creating one left behind.
  await rm(fresh, { recursive: true, force: true });
  if (existsSync(join(dataDir, MARKER))) return;
  const db = await PGlite.create({ dataDir: fresh });
  await db.close();
  const names = (await readdir(fresh)).filter((name) => name !== MARKER);
  for (const name of [...names, MARKER]) {
    await rm(join(dataDir, name), { recursive: true, force: true });
    await rename(join(fresh, name), join(dataDir, name));
  }
  await rm(fresh, { recursive: true, force: true });
}

/**
 * DATA_DIR for this process before it opens the embedded database there (nothing to hold for a
 * throw-away `memory://` one): locked, and, unless the database is to be loaded from a tarball,
 * holding a database of the PGlite the console runs (an older one's converted, and `notice` told).
 */
export async function takeDataDir(
  dataDir: string,
  create: boolean,
  notice: (message: string) => void = () => {},
): Promise<DataDirLock | undefined> {
  if (dataDir === 'memory://') return undefined;
  const lock = await lockDataDir(dataDir);
  try {
    if (create) {
      const converted = await upgradeEmbedded(dataDir);
      if (converted) notice(conversionMessage(dataDir, converted));
      await createIfNew(dataDir);
    }
    return lock;
  } catch (err) {
    await lock.release();
    throw err;
  }
}
