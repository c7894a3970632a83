import { startupConfig } from '../config/startup.ts';
import { openDatabase } from '../db/client.ts';
import { exitIfRefused } from '../db/data-dir-lock.ts';
import { runRetentionPurge } from '../personal-data/retention.ts';

/*
 * The daily retention purge, once, now (docs/privacy.md, "Retention"): after lowering a setting,
 * or where no instance runs background jobs. What it purges is counted in the audit log as the
 * job's run is; an instance's metrics do not see it.
 */
const config = startupConfig();
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  notice: console.log,
}).catch(exitIfRefused);
try {
  const { purged } = await runRetentionPurge({ db: handle.db, config, metrics: { retentionPurged() {} } });
  const total = Object.values(purged).reduce((a, b) => a + b, 0);
  const parts = Object.entries(purged).map(([kind, n]) => `${kind} ${n}`);
  console.log(`Retention purge: ${total} rows deleted (${parts.join(', ')})`);
} finally {
  await handle.close();
}
