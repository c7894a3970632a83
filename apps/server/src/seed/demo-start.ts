import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { DbHandle } from '../db/client.ts';
import type { Startup } from '../operations/starting.ts';

/**
 * docs/product.md section 1: the first embedded start loads demo data; with DATABASE_URL only
 * `npm run seed:demo` does. DEMO_DATA=true/false overrides.
 */
export async function loadDemoIfWanted(
  handle: DbHandle,
  config: Config,
  firstStart: boolean,
  log: FastifyBaseLogger,
  startup?: Startup,
) {
  const wanted =
    config.DEMO_DATA === 'true' || (config.DEMO_DATA === 'auto' && firstStart && handle.kind === 'pglite');
  if (!wanted) return;
  startup?.set('loading demo data');
  let modules: [typeof import('./demo.ts'), typeof import('./catalogue.ts')];
  try {
    modules = await Promise.all([import('./demo.ts'), import('./catalogue.ts')]);
  } catch (err) {
    // A production installation leaves out the development dependencies that make demo data up.
    if (!isMissingPackage(err) || config.DEMO_DATA === 'true') throw err;
    log.warn('No demo data: making it up needs the development installation (npm ci); skipped');
    return;
  }
  const [{ seedDemo, DEMO_ACCOUNTS }, { DEMO_PASSWORD }] = modules;
  log.info('Loading demo data (first start)...');
  const started = performance.now();
  const summary = await seedDemo(handle.db, {
    onStep: (step, ms) => log.info(`Demo data: ${step} in ${(ms / 1000).toFixed(1)} s`),
  });
  log.info({ summary, seconds: Math.round((performance.now() - started) / 100) / 10 }, 'Demo data loaded');
  log.info(
    `Demo users (${DEMO_ACCOUNTS.map((a) => a.username).join(', ')} and every employee's user) sign in with '${DEMO_PASSWORD}'`,
  );
}

const isMissingPackage = (err: unknown) =>
  err instanceof Error && 'code' in err && err.code === 'ERR_MODULE_NOT_FOUND';
