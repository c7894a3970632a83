import { adminCreatedMessage, bootstrap } from '../bootstrap.ts';
import { startupConfig } from '../config/startup.ts';
import { openDatabase } from '../db/client.ts';
import { exitIfRefused } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';

const config = startupConfig();
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  notice: console.log,
}).catch(exitIfRefused);
try {
  const ran = await migrate(handle.db);
  const boot = await bootstrap(handle.db, config.ADMIN_PASSWORD);
  console.log(ran.length ? `Applied: ${ran.join(', ')}` : 'Database is up to date');
  const created = adminCreatedMessage(boot);
  if (created) console.log(created);
} finally {
  await handle.close();
}
