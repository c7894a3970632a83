import { baseDir, resolvePath } from '../config/paths.ts';
import { startupConfig } from '../config/startup.ts';
import { BackupError, backupDatabase } from '../db/backup.ts';

/**
 * `npm run db:backup -- FILE`: the database of DATABASE_URL or DATA_DIR, into FILE. A relative FILE
 * is from the folder the command was started in, as DATA_DIR is.
 */
const [named, ...rest] = process.argv.slice(2);
if (!named || rest.length > 0) {
  console.error('Usage: npm run db:backup -- FILE');
  process.exit(1);
}
const config = startupConfig();
const file = resolvePath(baseDir(), named);
try {
  const bytes = await backupDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file);
  console.log(
    `Backed up the ${config.DATABASE_URL ? 'PostgreSQL' : 'embedded'} database to ${file} (${bytes} bytes)`,
  );
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
}
