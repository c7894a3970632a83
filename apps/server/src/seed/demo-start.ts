import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { DbHandle } from '../db/client.ts';

/**
 * docs/product.md section 1: the first embedded start loads demo data; with DATABASE_URL only
 * `npm run seed:demo` does. DEMO_DATA=true/false overrides.
 */
export async function loadDemoIfWanted(
  handle: DbHandle,
  config: Config,
  firstStart: boolean,
  log: FastifyBaseLogger,
) {
  const wanted =
    config.DEMO_DATA === 'true' || (config.DEMO_DATA === 'auto' && firstStart && handle.kind === 'pglite');
  if (!wanted) return;
  const [{ seedDemo, DEMO_ACCOUNTS }, { DEMO_PASSWORD }] = await Promise.all([
    import('./demo.ts'),
    import('./catalogue.ts'),
  ]);
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
