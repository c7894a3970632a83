import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { DbHandle } from '../db/client.ts';

/**
 * DECISIONS.md section 1: the first embedded start loads demo data; with DATABASE_URL only
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
  const { seedDemo } = await import('./demo.ts');
  log.info('Loading demo data (first start)...');
  const summary = await seedDemo(handle.db);
  log.info({ summary }, 'Demo data loaded');
}
