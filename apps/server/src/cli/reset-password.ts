import { ADMIN_USERNAME, NoAdminError, resetAdminPassword } from '../bootstrap.ts';
import { startupConfig } from '../config/startup.ts';
import { openDatabase } from '../db/client.ts';
import { exitIfRefused } from '../db/data-dir-lock.ts';

/**
 * `npm run admin:reset-password`: a new password for `admin` (ADMIN_PASSWORD, or a generated one
 * printed once), and every session of `admin` ended. The database must already be set up.
 */
const config = startupConfig();
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  notice: console.log,
}).catch(exitIfRefused);
try {
  const reset = await resetAdminPassword(handle.db, config.ADMIN_PASSWORD);
  console.log(
    reset.generatedPassword
      ? `The password of '${ADMIN_USERNAME}' is now the generated password: ${reset.generatedPassword} (shown once)`
      : `The password of '${ADMIN_USERNAME}' is now the one in ADMIN_PASSWORD`,
  );
  console.log(`Sessions of '${ADMIN_USERNAME}' ended: ${reset.sessionsEnded}`);
} catch (err) {
  if (!(err instanceof NoAdminError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await handle.close();
}
