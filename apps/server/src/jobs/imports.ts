import { inArray } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { imports } from '../db/schema/index.ts';
import { runPass, setImportDispatch } from '../imports/service.ts';
import { makeServices } from '../services.ts';
import type { JobDeps } from './queue.ts';

/*
 * Large imports' passes on the job queue (docs/architecture.md, "Background jobs"): the queue hands
 * each job to one worker on one instance; the import's row decides what the pass does and a commit
 * locks it, so a job run twice (retried, or sent again by the sweep below) writes nothing twice.
 */

export const IMPORT_JOB = 'import-pass';

export interface ImportJobOptions {
  /** How often the worker asks for a job (at least 0.5 s); by default 1 s. */
  pollSeconds?: number;
  /** Told of each pass run here, with the import's code (tests count them). */
  onPass?: (importCode: string) => void;
}

export async function startImportJobs(boss: PgBoss, deps: JobDeps, options: ImportJobOptions = {}) {
  const services = makeServices(deps.db, deps.config);
  // A pass cut short by a stop is sent again by the sweep below; the queue retries one that failed.
  await boss.createQueue(IMPORT_JOB, { expireInSeconds: 3600, retryLimit: 2, retryDelay: 5 });
  const worker = await boss.work<{ importCode: string }>(
    IMPORT_JOB,
    { pollingIntervalSeconds: options.pollSeconds ?? 1 },
    async ([job]) => {
      if (!job) return;
      await runPass(services, job.data.importCode);
      options.onPass?.(job.data.importCode);
    },
  );
  const send = async (importCode: string) => {
    await boss.send(IMPORT_JOB, { importCode });
    // This instance's worker asks at once rather than at its next poll (up to a second later);
    // whichever instance asks first still takes the job, and only one does.
    boss.notifyWorker(worker);
  };
  setImportDispatch(deps.db, send);
  // Imports a stop left checking or committing: their pass starts over (a commit's transaction
  // rolled back with the stop, so nothing of it was written).
  const stuck = await deps.db
    .select({ importCode: imports.importCode })
    .from(imports)
    .where(inArray(imports.status, ['checking', 'committing']));
  for (const { importCode } of stuck) await send(importCode);
  if (stuck.length) deps.log.info({ imports: stuck.length }, 'Imports cut short by a stop are run again');
  return {
    stop() {
      setImportDispatch(deps.db, undefined);
    },
  };
}
