import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupTarget, summariseTables, type TableSummary } from '../../../src/db/backup.ts';
import { runEntryPoint, type ScratchDatabase, scratchDatabase } from '../../support/cli.ts';

/*
 * npm run db:backup and db:restore as an operator runs them, in child processes: on an embedded
 * database in a temporary directory (PGlite's data-directory tarball), or with DATABASE_URL set on
 * a new PostgreSQL database (pg_dump's custom format).
 */

let db: ScratchDatabase;
let target: BackupTarget;
const file = join(tmpdir(), `wfc-backup-${process.pid}-${Date.now()}`);
const embedded = !process.env.DATABASE_URL;

beforeAll(async () => {
  db = await scratchDatabase();
  target = { databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? '' };
  const migrated = await runEntryPoint('cli/migrate.ts', {
    env: { ...db.env, ADMIN_PASSWORD: 'change-me-admin-1' },
  });
  expect(migrated.code, migrated.stderr).toBe(0);
}, 180_000);
afterAll(async () => {
  await db?.drop();
  await rm(file, { force: true });
});

/** After the backup: a row added, rows changed and rows removed. */
async function changeAfterBackup() {
  const h = await db.open();
  try {
    await h.db.execute(sql`insert into schema_migrations (tag) values ('after-the-backup')`);
    await h.db.execute(sql`update permissions set permission_description = 'changed'`);
    await h.db.execute(sql`delete from role_permissions`);
  } finally {
    await h.close();
  }
}

const restore = (...args: string[]) =>
  runEntryPoint('cli/restore.ts', { env: db.env, args: [file, ...args] });

describe('a backup, changes, and a restore', () => {
  let before: Record<string, TableSummary>;

  it('backs up the database into one file', { timeout: 120_000 }, async () => {
    // The embedded database's directory also holds the key two-factor secrets are sealed with.
    if (embedded) await writeFile(join(target.dataDir, 'secret.key'), 'the-key-of-this-database');
    before = await summariseTables(target);
    expect(before.users?.rows).toBe(1);
    expect(before.role_permissions?.rows).toBeGreaterThan(10);
    const run = await runEntryPoint('cli/backup.ts', { env: db.env, args: [file] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Backed up the ${embedded ? 'embedded' : 'PostgreSQL'} database to .+ \\(\\d+ bytes\\)\\n$`,
      ),
    );
  });

  it('refuses to restore over a database that holds data, without --force', {
    timeout: 120_000,
  }, async () => {
    await changeAfterBackup();
    const changed = await summariseTables(target);
    expect(changed.role_permissions?.rows).toBe(0);
    expect(changed.permissions?.checksum).not.toBe(before.permissions?.checksum);

    const run = await restore();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not empty.*: add --force to replace it/);
    expect(await summariseTables(target)).toEqual(changed);
  });

  it('restores every table to the backup, row for row, with --force', { timeout: 120_000 }, async () => {
    const run = await restore('--force');
    expect(run.code, run.stderr).toBe(0);
    const tables = Object.values(before);
    const rows = tables.reduce((n, t) => n + t.rows, 0);
    expect(run.stdout.trim()).toBe(`Restored ${file}: ${tables.length} tables, ${rows} rows`);
    expect(await summariseTables(target)).toEqual(before);
    if (embedded)
      expect(await readFile(join(target.dataDir, 'secret.key'), 'utf8')).toBe('the-key-of-this-database');
  });
});

describe('restore refuses what it cannot use', () => {
  it('a file that is no backup, a missing file, and no file named', { timeout: 120_000 }, async () => {
    const junk = `${file}.txt`;
    await writeFile(junk, 'not a backup');
    try {
      const wrong = await runEntryPoint('cli/restore.ts', { env: db.env, args: [junk, '--force'] });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr.trim()).toBe(`${junk} is not a backup made by npm run db:backup`);
    } finally {
      await rm(junk, { force: true });
    }
    const missing = await runEntryPoint('cli/restore.ts', { env: db.env, args: [`${file}.missing`] });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`There is no backup file ${file}.missing`);
    const usage = await runEntryPoint('cli/restore.ts', { env: db.env, args: [] });
    expect(usage.code).toBe(1);
    expect(usage.stderr.trim()).toBe('Usage: npm run db:restore -- FILE [--force]');
  });
});
