import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DataDirInUseError,
  holderRuns,
  inUseMessage,
  isOwnerFile,
  LOCK_FILE,
  type LockHolder,
  lockDataDir,
  type ProcessProbe,
  parseHolder,
  startTicksOf,
  systemProbe,
} from '../../../src/db/data-dir-lock.ts';

const stat = (comm: string, ticks: number) =>
  `4242 (${comm}) S 1 4242 4242 0 -1 4194560 1000 0 0 0 10 5 0 0 20 0 11 0 ${ticks} 1234567 890 18446744073709551615`;

describe('startTicksOf', () => {
  it('reads field 22 of /proc/PID/stat, whatever the command name holds', () => {
    expect(startTicksOf(stat('node', 987654))).toBe(987654);
    expect(startTicksOf(stat('a (b) c', 42))).toBe(42);
    expect(startTicksOf(stat('x) S 1 2 3', 7))).toBe(7);
  });
  it('answers null for what is not a stat line', () => {
    expect(startTicksOf('')).toBeNull();
    expect(startTicksOf('4242 (node) S 1')).toBeNull();
  });
  it('reads this process', () => {
    if (!existsSync('/proc/self/stat')) return;
    expect(systemProbe.startTicks(process.pid)).toEqual(expect.any(Number));
  });
});

describe('parseHolder', () => {
  it('reads what a lock holds', () => {
    const holder = { pid: 12, startTicks: 34, started: '2026-01-01T00:00:00Z' };
    expect(parseHolder(JSON.stringify(holder))).toEqual(holder);
    expect(parseHolder(JSON.stringify({ ...holder, startTicks: null }))).toEqual({
      ...holder,
      startTicks: null,
    });
  });
  it('answers null for an empty, damaged or foreign file', () => {
    for (const text of ['', '{', 'null', '[]', '{"pid":"12","started":"x","startTicks":1}', '{"pid":0}']) {
      expect(parseHolder(text), text).toBeNull();
    }
    expect(parseHolder('{"pid":12,"startTicks":1.5,"started":"x"}')).toBeNull();
  });
});

describe('holderRuns', () => {
  const holder: LockHolder = { pid: 100, startTicks: 5000, started: '2026-01-01T00:00:00Z' };
  const probe = (alive: boolean, ticks: number | null): ProcessProbe => ({
    exists: () => alive,
    startTicks: () => ticks,
  });
  it('a process that is gone holds nothing', () => {
    expect(holderRuns(holder, probe(false, null))).toBe(false);
  });
  it('the same process id started at another time is another process', () => {
    expect(holderRuns(holder, probe(true, 5001))).toBe(false);
    expect(holderRuns(holder, probe(true, 5000))).toBe(true);
  });
  it('without start times, the process id decides', () => {
    expect(holderRuns(holder, probe(true, null))).toBe(true);
    expect(holderRuns({ ...holder, startTicks: null }, probe(true, 1))).toBe(true);
  });
});

describe('inUseMessage and isOwnerFile', () => {
  it('names the directory and the process', () => {
    expect(inUseMessage('/srv/data', { pid: 12345, startTicks: 1, started: '2026-02-03T04:05:06Z' })).toBe(
      'The embedded database in /srv/data is in use by process 12345 (started 2026-02-03T04:05:06Z). ' +
        'Stop that process first, or set DATA_DIR to another directory.',
    );
    expect(inUseMessage('/srv/data', null)).toContain('/srv/data/console.lock');
  });
  it('tells the holder’s files from the database’s', () => {
    for (const name of ['console.lock', 'console.lock.stale-12', 'console.channel', 'console.channel.12']) {
      expect(isOwnerFile(name), name).toBe(true);
    }
    // A conversion's folders (db/embedded-upgrade.ts) are the console's too.
    for (const name of ['console.upgrade.moving', 'console.pg17-backup-2026-11-27T071850']) {
      expect(isOwnerFile(name), name).toBe(true);
    }
    for (const name of ['PG_VERSION', 'base', 'secret.key', 'postmaster.pid']) {
      expect(isOwnerFile(name), name).toBe(false);
    }
  });
});

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'wfc-lock-unit-')), 'data');
  });
  afterEach(async () => {
    await rm(join(dir, '..'), { recursive: true, force: true });
  });
  const lockFile = () => join(dir, LOCK_FILE);
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataDirInUseError);
    return err as DataDirInUseError;
  };

  it('creates the directory, names this process, and is released', async () => {
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(lock.holder.pid).toBe(process.pid);
    await lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses a second holder, even in the same process, until released', async () => {
    const lock = await lockDataDir(dir);
    try {
      const err = await refusal(lockDataDir(dir));
      expect(err.holder?.pid).toBe(process.pid);
      expect(err.message).toContain(`in use by process ${process.pid}`);
    } finally {
      await lock.release();
    }
    await (await lockDataDir(dir)).release();
  });

  it('takes over the lock of a process that has ended', async () => {
    // A process that ran and ended: its id is free.
    const ended = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const pid = Number(ended.stdout.trim());
    await (await lockDataDir(dir)).release();
    await writeFile(lockFile(), JSON.stringify({ pid, startTicks: null, started: '2026-01-01T00:00:00Z' }));
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('takes over a lock naming a running process id that started at another time', async () => {
    const ticks = systemProbe.startTicks(process.pid);
    if (ticks === null) return;
    await (await lockDataDir(dir)).release();
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: process.pid, startTicks: ticks - 1, started: '2026-01-01T00:00:00Z' }),
    );
    await (await lockDataDir(dir)).release();
  });

  it('waits out a lock being written, and takes over one left damaged', async () => {
    await (await lockDataDir(dir)).release();
    await writeFile(lockFile(), '');
    const err = await refusal(lockDataDir(dir));
    expect(err.holder).toBeNull();
    const old = new Date(Date.now() - 60_000);
    await utimes(lockFile(), old, old);
    await (await lockDataDir(dir)).release();
  });

  it('leaves a lock alone that another process took over after this one took it', async () => {
    const lock = await lockDataDir(dir);
    const other = JSON.stringify({ pid: 1, startTicks: null, started: '2026-01-01T00:00:00Z' });
    await writeFile(lockFile(), other);
    await lock.release();
    expect(await readFile(lockFile(), 'utf8')).toBe(other);
  });
});
