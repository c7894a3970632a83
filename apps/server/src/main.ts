import { buildApp } from './app.ts';
import { startupConfig } from './config/startup.ts';
import { openDatabase } from './db/client.ts';
import { exitIfRefused } from './db/data-dir-lock.ts';
import type { JobQueue } from './jobs/queue.ts';
import { Startup } from './operations/starting.ts';
import { makeServices, watchChanges } from './services.ts';
import {
  prepareDatabase,
  type StartStage,
  serverDatabaseOptions,
  startFailure,
  webDistProblem,
} from './start.ts';

// Said through the log, once it exists, like everything else the server has to say.
const notices: string[] = [];
const config = startupConfig((message) => notices.push(message));

/** One line on stderr and exit code 1: what is wrong and what to set, as for the configuration. */
function cannotStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const unreadableWebDist = webDistProblem(config.WEB_DIST);
if (unreadableWebDist) cannotStart(unreadableWebDist);

const handle = await openDatabase({
  ...serverDatabaseOptions(config),
  serveBackups: true,
  notice: (message) => notices.push(message),
}).catch(exitIfRefused);
// The port opens before the database is prepared; until then the gate answers 503 (starting.ts).
const startup = new Startup('preparing the database');
const services = makeServices(handle.db, config, await watchChanges(handle), { startup });
const app = await buildApp(services);
// Every start says where the data is: the first thing to check when the data looks wrong or gone.
if (!config.DATABASE_URL) app.log.info(`Embedded database at ${config.DATA_DIR}`);
for (const message of notices) app.log.warn(message);
if (config.DATABASE_URL && !config.SECRET_KEY) {
  // Said at start, not first when someone tries to set up two-factor sign-in and gets a 503.
  app.log.warn(
    'SECRET_KEY is not set: two-factor sign-in cannot be set up until every instance has the same one',
  );
}

let stopping = false;
/** The background jobs, once started (after the database is prepared, where JOBS is on). */
let jobs: Promise<JobQueue | undefined> = Promise.resolve(undefined);
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
  await (await jobs)?.stop();
  await handle.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

/** A step of the start: a failure the operator can fix is one line; a defect keeps its stack. */
async function startStep(stage: StartStage, step: () => Promise<unknown>) {
  try {
    await step();
  } catch (err) {
    // A stop during the start closes the database under it: the shutdown ends the process.
    if (stopping) return;
    const message = startFailure(err, stage, config);
    if (!message) throw err;
    cannotStart(message);
  }
}

await startStep('listen', () => app.listen({ port: config.PORT, host: config.HOST }));
if (!stopping) await startStep('database', () => prepareDatabase(handle, config, startup, app.log));
if (!stopping && config.JOBS) {
  // Loaded only now, so that the queue's code costs the port nothing. Serving goes on without the
  // jobs: a failure is logged, and the next start tries again.
  jobs = import('./jobs/queue.ts')
    .then(({ startJobs }) =>
      startJobs(
        { db: handle.db, config, metrics: services.metrics, log: app.log },
        { databaseUrl: config.DATABASE_URL },
      ),
    )
    .catch((err: unknown) => {
      app.log.error({ err }, 'Background jobs could not start: the retention purge will not run');
      return undefined;
    });
}
