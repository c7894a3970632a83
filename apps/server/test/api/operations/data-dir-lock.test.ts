import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPointArgs, runEntryPoint, type ScratchDatabase, scratchDatabase } from '../../support/cli.ts';
import {
  ADMIN_PASSWORD,
  createDepartment,
  departmentNames,
  signIn,
  startConsole,
} from '../../support/console-calls.ts';
import { freePort } from '../../support/processes.ts';

/*
 * One process owns the embedded database (docs/operations.md, "One process per DATA_DIR"): a
 * second server, and every command, on a DATA_DIR a live process holds is refused with a message
 * naming that process, and the holder keeps serving with all its writes. A server killed with
 * SIGKILL leaves its lock behind; the next start finds its process gone and takes the lock over.
 * PostgreSQL has no DATA_DIR: several instances sharing one database is how it is run.
 */

const embedded = !process.env.DATABASE_URL;
let db: ScratchDatabase;
let dataDir: string;

beforeAll(async () => {
  if (!embedded) return;
  db = await scratchDatabase();
  dataDir = db.env.DATA_DIR ?? '';
});
afterAll(async () => {
  await db?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a second server and waits until it exits or answers; one that answers is stopped again,
 * so that a failing test does not hang.
 */
async function secondServer(): Promise<{ code: number | null; stderr: string; served: boolean }> {
  const port = await freePort();
  const child = spawn(process.execPath, entryPointArgs('main.ts'), {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_DATA: 'false',
      ADMIN_PASSWORD,
      ...db.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let served = false;
  const deadline = Date.now() + 90_000;
  while (child.exitCode === null && child.signalCode === null && !served && Date.now() < deadline) {
    served = await fetch(`http://127.0.0.1:${port}/api/health/live`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (!served) await sleep(200);
  }
  if (child.exitCode === null) child.kill('SIGTERM');
  return { code: await exited, stderr, served };
}

/** The one line every refused process prints, naming the holder. */
const refusal = (pid: number | undefined) =>
  new RegExp(
    `^The embedded database in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by process ${pid} ` +
      `\\(started \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)\\. Stop that process first, or set DATA_DIR to another directory\\.\\n$`,
  );

describe.skipIf(!embedded)('one process per DATA_DIR', () => {
  it('refuses a second server and every command while a server runs; the server keeps its writes', {
    timeout: 300_000,
  }, async () => {
    const first = await startConsole(db.env);
    const pid = first.process.pid;
    try {
      const cookie = await signIn(first);
      for (const name of ['lock-1', 'lock-2', 'lock-3']) {
        expect(await createDepartment(first, cookie, name)).toBe(200);
      }

      const second = await secondServer();
      expect(second.served, 'the second server answered').toBe(false);
      expect(second.code, second.stderr).toBe(1);
      expect(second.stderr).toMatch(refusal(pid));

      // Each refused before touching the database; restore is given a file of the right kind.
      const backup = join(tmpdir(), `wfc-lock-${process.pid}.tgz`);
      await writeFile(backup, gzipSync('not opened'));
      try {
        for (const [script, ...args] of [
          ['cli/migrate.ts'],
          ['cli/reset-password.ts'],
          ['seed/demo-cli.ts'],
          ['cli/restore.ts', backup, '--force'],
        ] as const) {
          const run = await runEntryPoint(script, { env: db.env, args });
          expect(run.code, `${script}: ${run.stderr}`).toBe(1);
          expect(run.stderr, script).toMatch(refusal(pid));
          expect(run.stdout, script).toBe('');
        }
      } finally {
        await rm(backup, { force: true });
      }

      // The first server never noticed: it serves, and holds everything it confirmed.
      expect((await departmentNames(first, cookie, 'lock-')).sort()).toEqual(['lock-1', 'lock-2', 'lock-3']);
      expect(await createDepartment(first, cookie, 'lock-4')).toBe(200);
    } finally {
      const code = await first.stop();
      expect(code, first.output()).toBe(0);
    }
    expect(first.output()).not.toContain('Aborted');
    // Released on the way out.
    expect(existsSync(join(dataDir, 'console.lock'))).toBe(false);
  });

  it('takes over the lock of a server killed with SIGKILL, with every write it had confirmed', {
    timeout: 300_000,
  }, async () => {
    const killed = await startConsole(db.env);
    const cookie = await signIn(killed);
    expect(await createDepartment(killed, cookie, 'lock-5')).toBe(200);
    killed.process.kill('SIGKILL');
    await new Promise((resolve) => killed.process.once('exit', resolve));
    const left = await readFile(join(dataDir, 'console.lock'), 'utf8');
    expect(JSON.parse(left)).toMatchObject({ pid: killed.process.pid });

    const next = await startConsole(db.env);
    try {
      const names = await departmentNames(next, await signIn(next), 'lock-');
      expect(names.sort()).toEqual(['lock-1', 'lock-2', 'lock-3', 'lock-4', 'lock-5']);
    } finally {
      expect(await next.stop(), next.output()).toBe(0);
    }
    expect(existsSync(join(dataDir, 'console.lock'))).toBe(false);
  });

  it('db:backup refuses while a command, which takes no backups, holds the directory', {
    timeout: 120_000,
  }, async () => {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      const migrated = await runEntryPoint('cli/migrate.ts', { env: db.env });
      expect(migrated.code, migrated.stderr).toBe(0);
    }
    // This test process holds the lock, as db:migrate or any other command would.
    const { lockDataDir } = await import('../../../src/db/data-dir-lock.ts');
    const lock = await lockDataDir(dataDir);
    try {
      const file = join(tmpdir(), `wfc-lock-backup-${process.pid}.tgz`);
      const run = await runEntryPoint('cli/backup.ts', { env: db.env, args: [file] });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim()).toMatch(
        new RegExp(
          `^The embedded database in .+ is in use by process ${process.pid} \\(started [^)]+\\), which does not take backups`,
        ),
      );
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(file)).toBe(false);

      const server = await secondServer();
      expect(server.served).toBe(false);
      expect(server.stderr).toMatch(refusal(process.pid));
    } finally {
      await lock.release();
    }
    expect(existsSync(join(dataDir, 'console.lock'))).toBe(false);
  });
});
