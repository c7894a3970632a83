import { adminCreatedMessage, bootstrap } from '../bootstrap.ts';
import { startupConfig } from '../config/startup.ts';
import { openDatabase } from '../db/client.ts';
import { exitIfRefused } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';
import { DEMO_PASSWORD } from './catalogue.ts';
import { DEMO_ACCOUNTS, seedDemo } from './demo.ts';

const config = startupConfig();
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  notice: console.log,
}).catch(exitIfRefused);
try {
  await migrate(handle.db);
  const boot = await bootstrap(handle.db, config.ADMIN_PASSWORD);
  const created = adminCreatedMessage(boot);
  if (created) console.log(created);
  const started = performance.now();
  const counts = await seedDemo(handle.db);
  console.table(counts);
  console.log(`Demo data ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  console.log(
    `Demo users (${DEMO_ACCOUNTS.map((a) => a.username).join(', ')} and every employee's user) sign in with '${DEMO_PASSWORD}'.`,
  );
} finally {
  await handle.close();
}
