import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { channelOf, parseChannel, requestBackup } from './backup-channel.ts';
import { openEmbedded } from './client.ts';
import {
  CHANNEL_FILE,
  DataDirInUseError,
  isOwnerFile,
  type LockHolder,
  lockDataDir,
} from './data-dir-lock.ts';
import { dumpEmbedded, loadableTarball, tarballMajor } from './embedded-dump.ts';
import {
  conversionMessage,
  loadOldTarball,
  OLD_MAJOR,
  PG_MAJOR,
  unsupportedMessage,
  upgradeEmbedded,
} from './embedded-upgrade.ts';

/*
 * Backups in each database's own format: a PostgreSQL server's with pg_dump's custom format (read
 * back by pg_restore, which must be of the server's major version or newer), the embedded
 * database's as PGlite's data-directory tarball (gzip). Both are whole-database copies, taken
 * while the data is consistent: pg_dump works from one snapshot, so the console may keep running.
 * The embedded database belongs to the one process that holds its directory's lock
 * (db/data-dir-lock.ts): with nobody holding it, the command opens it and copies it; while the
 * server runs, the server copies it (db/backup-channel.ts); while any other command runs, it is
 * refused. A restore needs the directory unheld, and empty or --force.
 */

/** Where the database is: the same two settings the server reads. */
export interface BackupTarget {
  databaseUrl?: string;
  dataDir: string;
  /** Told when an embedded database of an older PGlite was converted (db/embedded-upgrade.ts). */
  notice?: (message: string) => void;
}

/** A refusal the operator can act on: printed as is, without a stack trace. */
export class BackupError extends Error {}

export type BackupFormat = 'postgres' | 'embedded';

const PG_DUMP_MAGIC = 'PGDMP';
const GZIP_MAGIC = [0x1f, 0x8b];

/** Pure: which kind of backup the first bytes of a file belong to, if either. */
export function formatOf(head: Uint8Array): BackupFormat | null {
  if (new TextDecoder().decode(head.subarray(0, PG_DUMP_MAGIC.length)) === PG_DUMP_MAGIC) return 'postgres';
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return 'embedded';
  return null;
}

const targetFormat = (target: BackupTarget): BackupFormat => (target.databaseUrl ? 'postgres' : 'embedded');

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const isPasswordField = (field: string) =>
  field.includes('=') && decoded(field.split('=')[0] ?? '') === 'password';

/**
 * Pure: how pg_dump and pg_restore are told which database to use. Their command line is readable
 * by every local user (ps, /proc/PID/cmdline), while their environment is readable only by their
 * own user and root: the URL goes on the command line without its password (given in the URL's
 * user part or as its `password` parameter), and the password goes in PGPASSWORD. The rest of the
 * URL is passed on as written, so libpq reads host, port, user, database, sslmode and every other
 * parameter exactly as before.
 */
export function pgToolConnection(databaseUrl: string): { args: string[]; env: Record<string, string> } {
  const parts = /^([a-z][\w+.-]*:\/\/)([^/?#]*)([^?#]*)(?:\?([^#]*))?(.*)$/is.exec(databaseUrl);
  // Not of the form scheme://authority...: no user part, so nothing to take out.
  if (!parts) return { args: [`--dbname=${databaseUrl}`], env: {} };
  const [, scheme = '', authority = '', path = '', query, fragment = ''] = parts;
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  const fields = (query ?? '').split('&').filter(Boolean);
  const passwordField = fields.findLast(isPasswordField);
  // As libpq reads it: a password parameter wins over the user part's.
  const password =
    passwordField !== undefined
      ? decoded(passwordField.slice(passwordField.indexOf('=') + 1))
      : colon < 0
        ? undefined
        : decoded(userInfo.slice(colon + 1));
  const kept = fields.filter((f) => !isPasswordField(f));
  const url = `${scheme}${user ? `${user}@` : ''}${authority.slice(at + 1)}${path}${kept.length ? `?${kept.join('&')}` : ''}${fragment}`;
  return { args: [`--dbname=${url}`], env: password ? { PGPASSWORD: password } : {} };
}

function run(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          err.code === 'ENOENT'
            ? `${command} was not found: install the PostgreSQL client tools (e.g. apt-get install postgresql-client)`
            : `${command} failed: ${err.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (exit code ${code}): ${stderr.trim()}`)),
    );
  });
}

/** What the embedded database's directory holds besides the files of the process holding it. */
async function databaseFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir)).filter((name) => !isOwnerFile(name));
}

const holdsDatabase = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

/** The embedded database opened by this process, which holds its directory meanwhile. */
async function withEmbedded<T>(target: BackupTarget, use: (db: PGlite) => Promise<T>): Promise<T> {
  const { dataDir } = target;
  const lock = await lockDataDir(dataDir);
  try {
    const converted = await upgradeEmbedded(dataDir);
    if (converted) target.notice?.(conversionMessage(dataDir, converted));
    // Opening a directory without one would create a database there.
    if (!holdsDatabase(dataDir)) throw new BackupError(`There is no embedded database in ${dataDir}`);
    const db = await openEmbedded(dataDir);
    try {
      return await use(db);
    } finally {
      await db.close();
    }
  } finally {
    await lock.release();
  }
}

/** Written whole under another name, then renamed: `file` is never half a backup. */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.partial`;
  try {
    // Owner only: the backup holds password hashes and the key two-factor secrets are sealed with.
    await writeFile(temp, bytes, { mode: 0o600 });
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** The backup of an embedded database the running server holds: asked of the server. */
async function askHolder(dataDir: string, holder: LockHolder): Promise<Uint8Array> {
  const channelFile = join(dataDir, CHANNEL_FILE);
  const info = parseChannel(await readFile(channelFile, 'utf8').catch(() => ''));
  const held = `The embedded database in ${dataDir} is in use by process ${holder.pid} (started ${holder.started})`;
  if (!channelOf(info, holder)) {
    throw new BackupError(
      `${held}, which does not take backups: only a running console does. Run the backup again once that process has finished.`,
    );
  }
  try {
    const answer = await requestBackup(info);
    if (answer.ok) return answer.backup;
    throw new BackupError(
      answer.status === 503
        ? `${held}, which is stopping and took no backup (${answer.reason}). Run the backup again once it has stopped.`
        : `${held}, which refused the backup (HTTP ${answer.status}): ${channelFile} may be left from an earlier start.`,
    );
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${held}, which did not answer for a backup: ${(err as Error).message}`);
  }
}

/** A backup written to `file`: its size, and the server that took it, if one did. */
export interface BackupResult {
  bytes: number;
  takenBy?: LockHolder;
}

/** Writes a backup of the database to `file`. */
export async function backupDatabase(target: BackupTarget, file: string): Promise<BackupResult> {
  let takenBy: LockHolder | undefined;
  if (target.databaseUrl) {
    const connection = pgToolConnection(target.databaseUrl);
    await run(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, ...connection.args],
      connection.env,
    );
  } else {
    if (!holdsDatabase(target.dataDir)) {
      throw new BackupError(`There is no embedded database in ${target.dataDir} to back up`);
    }
    let backup: Uint8Array;
    try {
      backup = await withEmbedded(target, dumpEmbedded);
    } catch (err) {
      if (!(err instanceof DataDirInUseError) || !err.holder) throw err;
      takenBy = err.holder;
      backup = await askHolder(target.dataDir, err.holder);
    }
    await writeWhole(file, backup);
  }
  const handle = await open(file);
  try {
    return { bytes: (await handle.stat()).size, takenBy };
  } finally {
    await handle.close();
  }
}

/** Tables of the target that hold anything: a restore over them would lose their data. */
async function postgresObjects(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S') and s.nspname = 'public'`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function clearPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The dump recreates the schema, the extension and every table in it.
    await client.query('drop schema if exists public cascade');
    await client.query('create schema public');
  } finally {
    await client.end();
  }
}

/** A restore done: the PostgreSQL major version of an older PGlite's backup it converted. */
export interface RestoreResult {
  convertedFrom?: string;
}

/**
 * Replaces the database with the backup in `file`. An empty target is required unless `force`:
 * a restore by mistake over live data would lose everything written since the backup.
 */
export async function restoreDatabase(
  target: BackupTarget,
  file: string,
  force: boolean,
): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError(`There is no backup file ${file}`);
  const head = new Uint8Array(8);
  const handle = await open(file);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const format = formatOf(head);
  const wanted = targetFormat(target);
  if (!format) throw new BackupError(`${file} is not a backup made by npm run db:backup`);
  if (format !== wanted) {
    throw new BackupError(
      format === 'postgres'
        ? `${file} is a PostgreSQL backup: set DATABASE_URL to the server to restore it to`
        : `${file} is a backup of the embedded database: unset DATABASE_URL to restore it to DATA_DIR`,
    );
  }
  if (target.databaseUrl) {
    const objects = await postgresObjects(target.databaseUrl);
    if (objects > 0 && !force) {
      throw new BackupError(
        `The target database is not empty (${objects} tables and sequences): add --force to replace it`,
      );
    }
    if (objects > 0) await clearPostgres(target.databaseUrl);
    const connection = pgToolConnection(target.databaseUrl);
    await run(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', ...connection.args, file],
      connection.env,
    );
    return {};
  }
  // Only into a directory no process holds: the restore replaces the files under it.
  const lock = await lockDataDir(target.dataDir);
  try {
    const present = await databaseFiles(target.dataDir);
    if (present.length > 0) {
      if (!force) {
        throw new BackupError(
          `The embedded database in ${target.dataDir} is not empty: add --force to replace it`,
        );
      }
      await Promise.all(
        present.map((name) => rm(join(target.dataDir, name), { recursive: true, force: true })),
      );
    }
    const tarball = await loadableTarball(new Uint8Array(await readFile(file)));
    const major = tarballMajor(tarball);
    if (major === OLD_MAJOR) {
      // A 1.x release's backup: restored as it was, then converted like its data folder would be.
      await loadOldTarball(target.dataDir, new Blob([tarball]));
      await upgradeEmbedded(target.dataDir, false);
      return { convertedFrom: major };
    }
    if (major !== null && major !== PG_MAJOR) throw new BackupError(unsupportedMessage(file, major));
    const db = await openEmbedded(target.dataDir, new Blob([tarball]));
    await db.close();
    return {};
  } finally {
    await lock.release();
  }
}

/** One table's contents in brief: its row count and a digest of its rows in a fixed order. */
export interface TableSummary {
  rows: number;
  checksum: string;
}

/** A read of the database: the rows a statement returns. */
export type RowsOf = <R>(sql: string) => Promise<R[]>;

/**
 * Every table of the database `query` reads, summarised: what a restore or a conversion is checked
 * against. The digest covers each row's text form, so two databases agree only when every value
 * of every row does.
 */
export async function summariseWith(query: RowsOf): Promise<Record<string, TableSummary>> {
  const tables = await query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  if (tables.length === 0) return {};
  const parts = tables.map(
    ({ name }) =>
      `select '${name}' as name, count(*)::int as rows,
              coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as checksum from public."${name}" t`,
  );
  const rows = await query<{ name: string } & TableSummary>(parts.join(' union all '));
  return Object.fromEntries(rows.map(({ name, rows: n, checksum }) => [name, { rows: n, checksum }]));
}

/** Every table of the target's database, summarised (`summariseWith`). */
export async function summariseTables(target: BackupTarget): Promise<Record<string, TableSummary>> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await summariseWith(<R>(sql: string) => client.query(sql).then((r) => r.rows as R[]));
    } finally {
      await client.end();
    }
  }
  return withEmbedded(target, (db) =>
    summariseWith(<R>(sql: string) => db.query<R>(sql).then((r) => r.rows)),
  );
}
