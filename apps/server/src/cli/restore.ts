import { baseDir, resolvePath } from '../config/paths.ts';
import { startupConfig } from '../config/startup.ts';
import { BackupError, restoreDatabase, summariseTables } from '../db/backup.ts';
import { DataDirError } from '../db/data-dir-lock.ts';

/**
 * `npm run db:restore -- FILE [--force]`: replaces the database of DATABASE_URL or DATA_DIR with
 * the backup in FILE (a relative FILE is from the folder the command was started in, as DATA_DIR
 * is). Stop the console first: it must not write while its data is replaced (on the embedded
 * database, a directory a process holds is refused).
 */
const args = process.argv.slice(2);
const force = args.includes('--force');
const files = args.filter((a) => a !== '--force');
const [named] = files;
if (!named || files.length !== 1 || named.startsWith('-')) {
  console.error('Usage: npm run db:restore -- FILE [--force]');
  process.exit(1);
}
const config = startupConfig();
const file = resolvePath(baseDir(), named);
const target = { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR };
try {
  const { convertedFrom } = await restoreDatabase(target, file, force);
  const tables = Object.values(await summariseTables(target));
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  const converted = convertedFrom ? ` (a PostgreSQL ${convertedFrom} backup, converted)` : '';
  console.log(`Restored ${file}${converted}: ${tables.length} tables, ${rows} rows`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
}
