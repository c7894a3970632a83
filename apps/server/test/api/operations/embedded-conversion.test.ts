import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { PGlite as OldPGlite } from '@electric-sql/pglite-v03';
import { pg_trgm as oldTrgm } from '@electric-sql/pglite-v03/contrib/pg_trgm';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_FILE } from '../../../src/auth/secret-box.ts';
import { createSession } from '../../../src/auth/sessions.ts';
import { bootstrap } from '../../../src/bootstrap.ts';
import { summariseTables, summariseWith, type TableSummary } from '../../../src/db/backup.ts';
import type { Database } from '../../../src/db/client.ts';
import { dumpEmbedded } from '../../../src/db/embedded-dump.ts';
import { PG_MAJOR } from '../../../src/db/embedded-upgrade.ts';
import { migrate } from '../../../src/db/migrate.ts';
import * as schema from '../../../src/db/schema/index.ts';
import { seedDemo } from '../../../src/seed/demo.ts';
import { runEntryPoint } from '../../support/cli.ts';
import { type RunningServer, startSourceServer } from '../../support/processes.ts';

/*
 * An embedded database PGlite 0.3 (PostgreSQL 17, the console's 1.x releases) wrote, with this
 * release's schema and demo data, a session and the two-factor key beside it: converted by the
 * first process of this release that opens it, with every row of every table as it was, the old
 * files kept; a 1.x backup restores; a converted folder is not converted again, and a conversion
 * stopped halfway is finished (docs/operations.md, "Upgrades").
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PASSWORD = 'conversion-admin-password-1';
const embedded = !process.env.DATABASE_URL;

let folder: string;
let dataDir: string;
let backupFile: string;
let before: Record<string, TableSummary>;
let key: Buffer;
let sessionId: string;
let departments: number;
const running: RunningServer[] = [];

const keptFolders = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.startsWith('console.pg17-backup-'));

beforeAll(async () => {
  if (!embedded) return;
  folder = await mkdtemp(join(tmpdir(), 'wfc-embedded-conversion-'));
  dataDir = join(folder, 'data');
  backupFile = join(folder, 'old.backup');
  const old = await OldPGlite.create({ dataDir, extensions: { pg_trgm: oldTrgm } });
  // The old PGlite speaks the same protocol to Drizzle; only its type is the other version's.
  const client = old as unknown as PGlite;
  const db = drizzle(client, { schema }) as unknown as Database;
  await migrate(db);
  await bootstrap(db, PASSWORD);
  const counts = await seedDemo(db, { people: 12, days: 14, cityCountries: ['NZ'] });
  departments = counts.departments ?? 0;
  const [viewer] = await db.select().from(schema.users).where(eq(schema.users.username, 'viewer'));
  if (!viewer) throw new Error('no demo viewer');
  sessionId = await createSession(db, viewer.userCode, { idleMs: 3_600_000, absoluteMs: 86_400_000 }, {});
  before = await summariseWith(<R>(sql: string) => old.query<R>(sql).then((r) => r.rows));
  // A 1.x release's backup, made by its own code on its own PGlite.
  await writeFile(backupFile, await dumpEmbedded(client));
  await old.close();
  key = randomBytes(32);
  await writeFile(join(dataDir, KEY_FILE), key, { mode: 0o600 });
}, 300_000);

afterAll(async () => {
  for (const server of running) await server.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function call(server: RunningServer, path: string, cookie: string, body?: Record<string, string>) {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { cookie, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: body ? new URLSearchParams(body) : undefined,
  });
  const json = (await res.json()) as { message: string; data?: unknown };
  return { status: res.status, json, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

const start = async () => {
  const server = await startSourceServer(ROOT, {
    env: { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'false', LOG_LEVEL: 'info' },
  });
  running.push(server);
  return server;
};

describe.skipIf(!embedded)('an embedded database PGlite 0.3 (PostgreSQL 17) wrote', () => {
  it('is converted at start, keeps every row and the key beside it, and the server serves it', {
    timeout: 600_000,
  }, async () => {
    expect((await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim()).toBe('17');
    const server = await start();
    expect(server.ready).toEqual({ statusCode: 200, message: 'Ready' });
    const converted = server.messages().find((m) => m.startsWith('Converted the embedded database'));
    expect(converted, server.output()).toMatch(/from PostgreSQL 17 \(PGlite 0\.3\) to 18 in [\d.]+ s/);
    // Stopped before any request: what it holds now is the conversion's alone.
    expect(await server.stop()).toBe(0);

    expect((await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim()).toBe(PG_MAJOR);
    expect(await readFile(join(dataDir, KEY_FILE))).toEqual(key);
    const [kept] = await keptFolders(dataDir);
    expect(kept, 'the old database is kept').toBeDefined();
    expect(converted).toContain(join(dataDir, kept ?? ''));
    expect((await readFile(join(dataDir, kept ?? '', 'PG_VERSION'), 'utf8')).trim()).toBe('17');
    expect(await readFile(join(dataDir, kept ?? '', KEY_FILE))).toEqual(key);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('console.upgrade'))).toEqual([]);
    const after = await summariseTables({ dataDir });
    expect(Object.keys(after).length).toBeGreaterThan(20);
    expect(after).toEqual(before);
  });

  it('is not converted again, and its session and passwords sign in and list', {
    timeout: 300_000,
  }, async () => {
    const kept = await keptFolders(dataDir);
    const server = await start();
    expect(server.messages().filter((m) => m.includes('Converted'))).toEqual([]);
    expect(await keptFolders(dataDir)).toEqual(kept);

    // The viewer's session, made before the upgrade, still signs its requests.
    const listed = await call(server, 'GetDepartments?limit=100', `sid=${sessionId}`);
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    expect(listed.json.data).toHaveLength(departments);
    const admin = await call(server, 'login', '', { username: 'admin', password: PASSWORD });
    expect(admin.status, JSON.stringify(admin.json)).toBe(200);
    const employees = await call(server, 'GetEmployees?limit=5', admin.cookie);
    expect(employees.status, JSON.stringify(employees.json)).toBe(200);
    expect(employees.json.data).toHaveLength(5);
    expect(await server.stop()).toBe(0);
  });

  it('finishes a conversion stopped while it moved the new files up', { timeout: 300_000 }, async () => {
    const expected = await summariseTables({ dataDir });
    const kept = await keptFolders(dataDir);
    // As a process killed in step 3 leaves it: PG_VERSION and some files not yet moved up.
    const moving = join(dataDir, 'console.upgrade.moving');
    await mkdir(moving);
    for (const name of ['base', 'global', 'PG_VERSION'])
      await rename(join(dataDir, name), join(moving, name));
    const run = await runEntryPoint('cli/migrate.ts', {
      env: { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Finished converting the embedded database in /);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('console.upgrade'))).toEqual([]);
    expect(await keptFolders(dataDir)).toEqual(kept);
    expect(await summariseTables({ dataDir })).toEqual(expected);
  });

  it('restores from a backup a 1.x release took, converted', { timeout: 300_000 }, async () => {
    const target = join(folder, 'restored');
    const run = await runEntryPoint('cli/restore.ts', { env: { DATA_DIR: target }, args: [backupFile] });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Restored .*old\.backup \(a PostgreSQL 17 backup, converted\): \d+ tables, \d+ rows\n$/,
    );
    expect((await readFile(join(target, 'PG_VERSION'), 'utf8')).trim()).toBe(PG_MAJOR);
    // The backup file is the old copy: nothing else is kept.
    expect((await readdir(target)).filter((name) => name.startsWith('console.'))).toEqual([]);
    expect(existsSync(join(target, 'console.lock'))).toBe(false);
    expect(await summariseTables({ dataDir: target })).toEqual(before);
  });
});
