import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, startServer } from '../../support/processes.ts';

/*
 * Where the embedded database is, as an operator meets it: `npm start`, `npm run db:backup` and
 * `npm run db:restore` started at the root of a copy of the console (the root's scripts, the
 * server's sources and migrations, node_modules linked), with DATA_DIR unset, set to a relative path
 * in the root's `.env`, and set to an absolute path. The copy has a server folder of its own, so
 * the database a test leaves in `apps/server/data` is the test's, never the checkout's. The first
 * `npm start` compiles the server, as on a fresh clone; the web app is a stand-in page.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PASSWORD = 'change-me-admin-1';

let tmp: string;
/** The copy's root: where every command is started, and `.env` read. */
let root: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'wfc-data-dir-'));
  root = join(tmp, 'console');
  for (const path of ['package.json', 'scripts/start.mjs']) await cp(join(ROOT, path), join(root, path));
  for (const path of ['package.json', 'src', 'drizzle', 'scripts']) {
    await cp(join(ROOT, 'apps/server', path), join(root, 'apps/server', path), { recursive: true });
  }
  await mkdir(join(root, 'apps/web/dist'), { recursive: true });
  await writeFile(join(root, 'apps/web/dist/index.html'), '<div id="root"></div>');
  await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  // PGlite makes the database's own folder, not the folders above it.
  await mkdir(join(tmp, 'elsewhere'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Every embedded database under the temporary folder (a PostgreSQL data directory's marker). */
async function databases(dir = tmp): Promise<string[]> {
  if (existsSync(join(dir, 'PG_VERSION'))) return [dir];
  const entries = await readdir(dir, { withFileTypes: true });
  const found = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && e.name !== 'node_modules')
      .map((e) => databases(join(dir, e.name))),
  );
  return found.flat();
}

const npmRun = (args: string[], env: Record<string, string>) =>
  exec('npm', ['run', ...args], { cwd: root, env: { DEMO_DATA: 'false', ...env } });

const signIn = (url: string) =>
  fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });

interface Setting {
  name: string;
  /** The root's `.env`, if any. */
  envFile?: string;
  env: () => Record<string, string>;
  /** The folder the README says the database is in. */
  expected: () => string;
  /** Restores into an emptied folder too: the slowest step, taken once. */
  fullRestore?: boolean;
}

const SETTINGS: Setting[] = [
  { name: 'DATA_DIR unset', env: () => ({}), expected: () => join(root, 'data') },
  {
    name: 'DATA_DIR=./console-data in the root .env',
    envFile: 'DATA_DIR=./console-data\n',
    env: () => ({}),
    expected: () => join(root, 'console-data'),
    fullRestore: true,
  },
  {
    name: 'DATA_DIR set to an absolute path',
    env: () => ({ DATA_DIR: join(tmp, 'elsewhere', 'db') }),
    expected: () => join(tmp, 'elsewhere', 'db'),
  },
];

describe.skipIf(process.env.DATABASE_URL)('the embedded database is where DATA_DIR names', () => {
  for (const setting of SETTINGS) {
    it(`${setting.name}: npm start, db:backup and db:restore use that folder`, {
      timeout: 240_000,
    }, async () => {
      const env = setting.env();
      const expected = setting.expected();
      if (setting.envFile) await writeFile(join(root, '.env'), setting.envFile);
      try {
        const server = await startServer('npm', ['start'], {
          cwd: root,
          env: { ...env, DEMO_DATA: 'false', ADMIN_PASSWORD: PASSWORD },
        });
        try {
          expect((await signIn(server.url)).status).toBe(200);
          expect(server.messages()).toContain(`Embedded database at ${expected}`);
        } finally {
          await server.stop();
        }
        expect(await databases()).toEqual([expected]);

        // A relative backup file is from the root too.
        const backup = await npmRun(['db:backup', '--', 'backup.tgz'], env);
        expect(backup.code, backup.stderr).toBe(0);
        expect(backup.stdout).toContain(`Backed up the embedded database to ${join(root, 'backup.tgz')} (`);

        const refused = await npmRun(['db:restore', '--', 'backup.tgz'], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`The embedded database in ${expected} is not empty`);

        if (setting.fullRestore) {
          await rm(expected, { recursive: true });
          const restored = await npmRun(['db:restore', '--', 'backup.tgz'], env);
          expect(restored.code, restored.stderr).toBe(0);
          expect(await databases()).toEqual([expected]);
        }
      } finally {
        await rm(join(root, '.env'), { force: true });
        await rm(join(root, 'backup.tgz'), { force: true });
        await rm(expected, { recursive: true, force: true });
      }
    });
  }

  it('an install whose data sits in apps/server/data starts on it, says where it is, and backs it up', {
    timeout: 240_000,
  }, async () => {
    const old = join(root, 'apps/server/data');
    const migrated = await npmRun(['db:migrate'], { DATA_DIR: old, ADMIN_PASSWORD: PASSWORD });
    expect(migrated.code, migrated.stderr).toBe(0);

    // No ADMIN_PASSWORD: a new database would get a generated one, and the sign-in would fail.
    const server = await startServer('npm', ['start'], { cwd: root, env: { DEMO_DATA: 'false' } });
    try {
      expect((await signIn(server.url)).status).toBe(200);
      const messages = server.messages();
      expect(messages).toContain(`Embedded database at ${old}`);
      expect(messages).toContain(
        `The embedded database is in ${old}, not in ${join(root, 'data')} (DATA_DIR=./data from ${root}, ` +
          `the folder the command was started in): it is used where it is. To move it to ${join(root, 'data')}, ` +
          `stop the console and run: mv ${old} ${join(root, 'data')}`,
      );
    } finally {
      await server.stop();
    }

    const backup = await npmRun(['db:backup', '--', 'old.tgz'], {});
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain(`The embedded database is in ${old}`);
    expect(await databases()).toEqual([old]);
  });
});
