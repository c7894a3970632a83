import { buildApp } from './app.ts';
import { adminCreatedMessage, bootstrap } from './bootstrap.ts';
import { startupConfig } from './config/startup.ts';
import { openDatabase } from './db/client.ts';
import { exitIfInUse } from './db/data-dir-lock.ts';
import { migrate } from './db/migrate.ts';
import { loadDemoIfWanted } from './seed/demo-start.ts';
import { makeServices, watchChanges } from './services.ts';

// Said through the log, once it exists, like everything else the server has to say.
const notices: string[] = [];
const config = startupConfig((message) => notices.push(message));
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.PG_POOL_SIZE,
  serveBackups: true,
}).catch(exitIfInUse);
await migrate(handle.db);
const boot = await bootstrap(handle.db, config.ADMIN_PASSWORD);
const app = await buildApp(makeServices(handle.db, config, await watchChanges(handle)));
// Every start says where the data is: the first thing to check when the data looks wrong or gone.
if (!config.DATABASE_URL) app.log.info(`Embedded database at ${config.DATA_DIR}`);
for (const message of notices) app.log.warn(message);
const created = adminCreatedMessage(boot);
// Shown once, whatever LOG_LEVEL says: it is the only way in.
if (created && ['trace', 'debug', 'info', 'warn'].includes(config.LOG_LEVEL)) app.log.warn(created);
else if (created) console.log(created);
await loadDemoIfWanted(handle, config, boot.createdAdmin, app.log);
if (config.DATABASE_URL && !config.SECRET_KEY) {
  // Said at start, not first when someone tries to set up two-factor sign-in and gets a 503.
  app.log.warn(
    'SECRET_KEY is not set: two-factor sign-in cannot be set up until every instance has the same one',
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: draining requests`);
  // A request stuck on the database must not keep the process from ever stopping.
  setTimeout(() => {
    app.log.error(`${signal}: requests still running after ${config.SHUTDOWN_GRACE_SECONDS} s; exiting`);
    process.exit(1);
  }, config.SHUTDOWN_GRACE_SECONDS * 1000).unref();
  // close() stops accepting connections and waits for in-flight requests before resolving. It
  // closes the keep-alive connections idle at that moment only: one whose request finishes later
  // would stay open for the whole keep-alive timeout (72 s) and hold the exit back.
  const reaper = setInterval(() => app.server.closeIdleConnections(), 200);
  await app.close();
  clearInterval(reaper);
  await handle.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.PORT, host: config.HOST });
