import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DataDirError, isOwnerFile } from './data-dir-lock.ts';

/*
 * The embedded database is PostgreSQL's own data directory, which only a PostgreSQL of the same
 * major version opens. The console's 1.x releases ran PGlite 0.3 (PostgreSQL 17); this one runs
 * PGlite 0.5 (PostgreSQL 18), which stops on a 17 directory. So a process that takes DATA_DIR
 * converts a 17 directory first, as pg_upgrade's dump-and-reload does: PGlite 0.3, kept as a
 * dependency of its own and loaded only here, opens it and pg_dump (of the same version) dumps it
 * as SQL; the current PGlite loads that into a new database beside it; then the old database's
 * files are moved into a folder of their own and the new ones up into DATA_DIR.
 *
 * Everything happens inside DATA_DIR, under names PostgreSQL never uses (`console.*`), so that it
 * is one file system (each move a rename) and works where DATA_DIR is a mount point whose parent
 * the console cannot write (a container's volume). Each step leaves a state that a process
 * stopped in the middle of it is found in and finished from by the next start:
 *
 * 1. `console.upgrade.building`: the new database being made; the old one is still untouched in
 *    DATA_DIR. Thrown away and made again.
 * 2. `console.upgrade.ready`: the new database is complete, and the folder the old one goes to
 *    exists. The old files are moved into it, PG_VERSION first, so that DATA_DIR no longer claims
 *    to hold the old database; then `ready` is renamed `moving`.
 * 3. `console.upgrade.moving`: every old file is in the kept folder. The new files are moved up,
 *    PG_VERSION last, so that DATA_DIR claims to hold the new database only once it all is there.
 */

/** The PostgreSQL major version of the PGlite the console runs: PG_VERSION of its directories. */
export const PG_MAJOR = '18';
/** The one older version that is converted: PGlite 0.3's. */
export const OLD_MAJOR = '17';

const MARKER = 'PG_VERSION';
const BUILDING = 'console.upgrade.building';
const READY = 'console.upgrade.ready';
const MOVING = 'console.upgrade.moving';
const KEPT = `console.pg${OLD_MAJOR}-backup-`;
/** What a stopped PostgreSQL leaves behind that belongs to no database. */
const LEFT_BY_SERVER = new Set(['postmaster.pid', 'postmaster.opts']);
/**
 * pg_dump's statements for the new database: PGlite runs only the simple query protocol, so rows
 * come as INSERTs rather than COPY, and a thousand rows to one INSERT load several times faster
 * than one row each.
 */
const DUMP_ARGS = ['--rows-per-insert=1000'];

/** A DATA_DIR written by a PostgreSQL this release neither opens nor converts. */
export class EmbeddedVersionError extends DataDirError {}

/** Pure: the name of the folder that keeps the old database's files, from when it was converted. */
export const keptFolderName = (at: Date): string =>
  `${KEPT}${at.toISOString().slice(0, 19).replaceAll(':', '')}`;

/** The PostgreSQL major version whose database a directory holds, or null when it holds none. */
export async function majorOf(dir: string): Promise<string | null> {
  const text = await readFile(join(dir, MARKER), 'utf8').catch(() => null);
  return text === null ? null : text.trim();
}

/** Pure: the line for a database of a version this release cannot use. */
export const unsupportedMessage = (where: string, major: string): string =>
  `The embedded database in ${where} was written by PostgreSQL ${major}: this release opens PostgreSQL ` +
  `${PG_MAJOR}'s and converts ${OLD_MAJOR}'s (PGlite 0.3, the console's 1.x releases). ` +
  'Run it with the release that wrote it, or restore a backup of it.';

/** PGlite 0.3 and its pg_dump: loaded only to convert, so an up-to-date start never loads them. */
async function oldPglite() {
  const [{ PGlite: OldPGlite }, { pg_trgm: oldTrgm }, { pgDump }] = await Promise.all([
    import('@electric-sql/pglite-v03'),
    import('@electric-sql/pglite-v03/contrib/pg_trgm'),
    import('@electric-sql/pglite-tools-v02/pg_dump'),
  ]);
  const open = (dataDir: string, loadDataDir?: Blob) =>
    OldPGlite.create({ dataDir, extensions: { pg_trgm: oldTrgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  // The tools' types name the PGlite the package resolves to (the current one); pg_dump only
  // speaks PostgreSQL's protocol to the instance it is given, the old one it was built with.
  type Dumped = Parameters<typeof pgDump>[0]['pg'];
  const dump = async (db: Awaited<ReturnType<typeof open>>) =>
    (await pgDump({ pg: db as unknown as Dumped, args: DUMP_ARGS })).text();
  return { open, dump };
}

/** The database in `dataDir`, dumped as SQL by the PGlite that wrote it. */
async function dumpOld(dataDir: string): Promise<string> {
  const old = await oldPglite();
  const db = await old.open(dataDir);
  try {
    return await old.dump(db);
  } finally {
    await db.close();
  }
}

/** Step 1: the new database, complete, in `ready`, and the folder the old one's files go to. */
async function build(dataDir: string, at: Date): Promise<string> {
  const building = join(dataDir, BUILDING);
  await rm(building, { recursive: true, force: true });
  const sql = await dumpOld(dataDir);
  const db = await PGlite.create({ dataDir: building, extensions: { pg_trgm } });
  try {
    await db.exec(sql);
  } finally {
    await db.close();
  }
  // What lies beside the database's own files (the two-factor key, secret.key) comes along.
  for (const name of await readdir(dataDir)) {
    if (isOwnerFile(name) || LEFT_BY_SERVER.has(name) || existsSync(join(building, name))) continue;
    await cp(join(dataDir, name), join(building, name), { recursive: true, preserveTimestamps: true });
  }
  const kept = join(dataDir, keptFolderName(at));
  await mkdir(kept);
  await rename(building, join(dataDir, READY));
  return kept;
}

/** The kept folder of the conversion under way: the newest, as their names sort by time. */
async function currentKept(dataDir: string): Promise<string> {
  const [newest] = (await readdir(dataDir))
    .filter((name) => name.startsWith(KEPT))
    .sort()
    .reverse();
  const kept = join(dataDir, newest ?? keptFolderName(new Date()));
  await mkdir(kept, { recursive: true });
  return kept;
}

/** Step 2: the old database's files into `kept`, PG_VERSION first. */
async function moveOldAside(dataDir: string, kept: string): Promise<void> {
  const names = (await readdir(dataDir)).filter((name) => !isOwnerFile(name) && name !== MARKER);
  for (const name of existsSync(join(dataDir, MARKER)) ? [MARKER, ...names] : names) {
    await rename(join(dataDir, name), join(kept, name));
  }
  await rename(join(dataDir, READY), join(dataDir, MOVING));
}

/** Step 3: the new database's files up into DATA_DIR, PG_VERSION last. */
async function moveNewUp(dataDir: string): Promise<void> {
  const moving = join(dataDir, MOVING);
  const names = (await readdir(moving)).filter((name) => name !== MARKER);
  for (const name of [...names, MARKER]) {
    if (existsSync(join(moving, name))) await rename(join(moving, name), join(dataDir, name));
  }
  await rm(moving, { recursive: true, force: true });
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await readdir(path)) total += await sizeOf(join(path, name));
  return total;
}

/** A conversion done: where the old database's files are kept, and what it took. */
export interface Conversion {
  kept: string;
  seconds: number;
  /** The old database's size on disk. */
  bytes: number;
  /** Whether it finished what a stopped process had begun. */
  resumed: boolean;
}

/** Pure: what an operator is told of a conversion. */
export function conversionMessage(dataDir: string, done: Conversion): string {
  const how = done.resumed ? 'Finished converting' : 'Converted';
  const megabytes = (done.bytes / 1024 / 1024).toFixed(0);
  return (
    `${how} the embedded database in ${dataDir} from PostgreSQL ${OLD_MAJOR} (PGlite 0.3) to ` +
    `${PG_MAJOR} in ${done.seconds.toFixed(1)} s. The old database (${megabytes} MB) is kept in ` +
    `${done.kept}: remove that folder once the console runs as it should on the converted data.`
  );
}

/**
 * Brings the database in `dataDir`, which this process holds, to the PGlite the console runs:
 * finishes a conversion a stopped process left, converts a PostgreSQL 17 database, leaves a
 * current one (or none) as it is, and refuses any other version. Without `keepOld`, the old
 * database's files are removed once converted (a restore's: the backup file is the old copy).
 */
export async function upgradeEmbedded(dataDir: string, keepOld = true): Promise<Conversion | undefined> {
  const started = performance.now();
  let kept: string;
  let resumed = true;
  if (existsSync(join(dataDir, MOVING))) {
    kept = await currentKept(dataDir);
  } else if (existsSync(join(dataDir, READY))) {
    kept = await currentKept(dataDir);
    await moveOldAside(dataDir, kept);
  } else {
    const major = await majorOf(dataDir);
    if (major === null || major === PG_MAJOR) return undefined;
    if (major !== OLD_MAJOR) throw new EmbeddedVersionError(unsupportedMessage(dataDir, major));
    resumed = false;
    kept = await build(dataDir, new Date());
    await moveOldAside(dataDir, kept);
  }
  await moveNewUp(dataDir);
  const bytes = await sizeOf(kept);
  if (!keepOld) await rm(kept, { recursive: true, force: true });
  return { kept, seconds: (performance.now() - started) / 1000, bytes, resumed };
}

/** Writes a PostgreSQL 17 data-directory tarball (a 1.x release's backup) into `dataDir` as it was. */
export async function loadOldTarball(dataDir: string, tarball: Blob): Promise<void> {
  const old = await oldPglite();
  const db = await old.open(dataDir, tarball);
  await db.close();
}
