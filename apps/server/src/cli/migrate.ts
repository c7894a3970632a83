import { bootstrap } from '../bootstrap.ts';
import { loadConfig } from '../config/config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const ran = await migrate(handle.db);
await bootstrap(handle.db, config.ADMIN_PASSWORD);
console.log(ran.length ? `Applied: ${ran.join(', ')}` : 'Database is up to date');
await handle.close();
