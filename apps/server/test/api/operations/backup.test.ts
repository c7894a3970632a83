import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
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

/** The command lines of this process's descendants now running, by pid (gone ones are skipped). */
async function descendantCommandLines(): Promise<Map<number, string[]>> {
  const parents = new Map<number, number>();
  const lines = new Map<number, string[]>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 4th field of stat, after the command name in brackets.
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      lines.set(Number(name), (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').filter(Boolean));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && hops < 10; p = parents.get(p), hops++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  return new Map([...lines].filter(([pid]) => descends(pid)));
}

describe('the database password stays off command lines', () => {
  it.skipIf(embedded)(
    'pg_dump runs without it in its argv (PostgreSQL only: the embedded database has no password)',
    { timeout: 120_000 },
    async () => {
      const PASSWORD = 'Planted-Db-Password-5c1e';
      const withPassword = new URL(db.env.DATABASE_URL ?? '');
      withPassword.password = PASSWORD;
      // The local server trusts every connection, so any password is accepted; a lock held on a
      // table keeps pg_dump waiting, alive and visible, until its command line has been read.
      const holder = new pg.Client({ connectionString: db.env.DATABASE_URL });
      await holder.connect();
      const seen: string[][] = [];
      try {
        await holder.query('begin');
        await holder.query('lock table users in access exclusive mode');
        const run = runEntryPoint('cli/backup.ts', {
          env: { DATABASE_URL: withPassword.toString() },
          args: [`${file}.locked`],
        });
        const deadline = Date.now() + 60_000;
        while (!seen.some((argv) => argv.some((a) => a.endsWith('pg_dump'))) && Date.now() < deadline) {
          for (const argv of (await descendantCommandLines()).values()) seen.push(argv);
          await new Promise((r) => setTimeout(r, 20));
        }
        await holder.query('commit');
        const done = await run;
        expect(done.code, done.stderr).toBe(0);
      } finally {
        await holder.end();
        await rm(`${file}.locked`, { force: true });
      }
      const dumps = seen.filter((argv) => argv.some((a) => a.endsWith('pg_dump')));
      expect(dumps.length, JSON.stringify(seen)).toBeGreaterThan(0);
      for (const argv of seen) expect(argv.join(' ')).not.toContain(PASSWORD);
    },
  );
});
