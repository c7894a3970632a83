import { baseDir, resolvePath } from '../config/paths.ts';
import { startupConfig } from '../config/startup.ts';
import { BackupError, backupDatabase } from '../db/backup.ts';
import { DataDirError } from '../db/data-dir-lock.ts';

/**
 * `npm run db:backup -- FILE`: the database of DATABASE_URL or DATA_DIR, into FILE. A relative FILE
 * is from the folder the command was started in, as DATA_DIR is. While the console runs on the
 * embedded database, the console takes the backup and this command writes it.
 */
const [named, ...rest] = process.argv.slice(2);
if (!named || rest.length > 0) {
  console.error('Usage: npm run db:backup -- FILE');
  process.exit(1);
}
const config = startupConfig();
const file = resolvePath(baseDir(), named);
try {
  const done = await backupDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, notice: console.log },
    file,
  );
  const by = done.takenBy ? `, taken by the running console (process ${done.takenBy.pid})` : '';
  console.log(
    `Backed up the ${config.DATABASE_URL ? 'PostgreSQL' : 'embedded'} database to ${file} (${done.bytes} bytes)${by}`,
  );
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
}
