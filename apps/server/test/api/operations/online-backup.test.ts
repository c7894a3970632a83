import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEntryPoint, type ScratchDatabase, scratchDatabase } from '../../support/cli.ts';
import { createDepartment, departmentNames, signIn, startConsole } from '../../support/console-calls.ts';
import type { RunningServer } from '../../support/processes.ts';

/*
 * `npm run db:backup` while the console serves a stream of writes, as an operator's nightly job
 * meets it. On the embedded database the running server owns the files and takes the backup
 * itself (asked over its local channel); on PostgreSQL pg_dump reads one snapshot. Either way the
 * backup, restored into a new database, holds every write the server had confirmed before the
 * backup began, and the server keeps serving, stops cleanly and starts again on its data.
 */

const embedded = !process.env.DATABASE_URL;
const file = join(tmpdir(), `wfc-online-backup-${process.pid}-${Date.now()}`);
let source: ScratchDatabase;
let copy: ScratchDatabase;

beforeAll(async () => {
  source = await scratchDatabase();
  copy = await scratchDatabase();
});
afterAll(async () => {
  await source?.drop();
  await copy?.drop();
  await rm(file, { force: true });
});

interface Write {
  name: string;
  status: number;
  /** When its answer came (Date.now()). */
  answered: number;
}

/** Creates departments one after another until `stop()`; answers every write and its outcome. */
function writeStream(server: RunningServer, cookie: string, writers = 2) {
  const writes: Write[] = [];
  let stopped = false;
  const done = Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; !stopped && i < 5000; i++) {
        const name = `online-${w}-${i}`;
        const status = await createDepartment(server, cookie, name).catch(() => 0);
        writes.push({ name, status, answered: Date.now() });
      }
    }),
  );
  return {
    writes,
    confirmed: () => writes.filter((w) => w.status === 200),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

const until = async (test: () => boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe(`a backup taken while the console serves writes (${embedded ? 'embedded' : 'PostgreSQL'})`, () => {
  it('holds every write confirmed before it began; the console keeps serving and restarts', {
    timeout: 480_000,
  }, async () => {
    const server = await startConsole(source.env);
    let stoppedCleanly = false;
    try {
      const cookie = await signIn(server);
      const stream = writeStream(server, cookie);
      await until(() => stream.confirmed().length >= 20);
      const began = Date.now();
      const backup = await runEntryPoint('cli/backup.ts', { env: source.env, args: [file] });
      // Writes go on after the backup too: the server must still take them.
      const after = stream.confirmed().length;
      await until(() => stream.confirmed().length >= after + 10);
      await stream.stop();

      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(
        embedded
          ? new RegExp(
              `^Backed up the embedded database to ${file} \\(\\d+ bytes\\), taken by the running console \\(process ${server.process.pid}\\)\\n$`,
            )
          : new RegExp(`^Backed up the PostgreSQL database to ${file} \\(\\d+ bytes\\)\\n$`),
      );
      // No write was refused or failed while the backup was taken.
      expect(stream.writes.filter((w) => w.status !== 200)).toEqual([]);
      const confirmed = stream.confirmed().map((w) => w.name);
      const beforeBackup = stream.confirmed().filter((w) => w.answered < began);
      expect(beforeBackup.length).toBeGreaterThanOrEqual(20);

      const restore = await runEntryPoint('cli/restore.ts', { env: copy.env, args: [file] });
      expect(restore.code, restore.stderr).toBe(0);
      const restored = await startConsole(copy.env);
      try {
        const names = new Set(await departmentNames(restored, await signIn(restored), 'online-'));
        expect(beforeBackup.filter((w) => !names.has(w.name))).toEqual([]);
        // Nothing that was never written.
        const sent = new Set(stream.writes.map((w) => w.name));
        expect([...names].filter((n) => !sent.has(n))).toEqual([]);
      } finally {
        expect(await restored.stop(), restored.output()).toBe(0);
      }

      // The source kept every write, before, during and after the backup.
      const live = new Set(await departmentNames(server, cookie, 'online-'));
      expect(confirmed.filter((n) => !live.has(n))).toEqual([]);
      expect(await server.stop(), server.output()).toBe(0);
      stoppedCleanly = true;
      expect(server.output()).not.toContain('Aborted');

      const again = await startConsole(source.env);
      try {
        const names = new Set(await departmentNames(again, await signIn(again), 'online-'));
        expect(confirmed.filter((n) => !names.has(n))).toEqual([]);
      } finally {
        expect(await again.stop(), again.output()).toBe(0);
      }
    } finally {
      if (!stoppedCleanly) await server.stop();
    }
  });
});
