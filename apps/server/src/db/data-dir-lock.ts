import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * The embedded database belongs to one process. PGlite is PostgreSQL in single-user mode inside
 * the process, with its pages cached in that process's memory and no lock between processes: a
 * second process opening the same directory works from its own cache and the two overwrite each
 * other's files, losing writes and corrupting the database. So every process that opens DATA_DIR
 * (the server and each command) first creates a lock file there, naming its process id and start
 * time, and removes it when it closes the database or exits. A lock whose process is gone (killed
 * with SIGKILL, crashed, the machine restarted) is stale: the next process takes it over.
 */

export const LOCK_FILE = 'console.lock';
/** Where a running server says how to reach it for a backup (db/backup-channel.ts). */
export const CHANNEL_FILE = 'console.channel';

/**
 * Pure: whether an entry of DATA_DIR is the console's (the holder's lock and channel, a database
 * being created or converted, the files a conversion kept), not the database's. PostgreSQL names
 * none of its files so, and none of them goes into a backup.
 */
export const isOwnerFile = (name: string): boolean => name.startsWith('console.');

/** The process that holds a DATA_DIR, as its lock file names it. */
export interface LockHolder {
  pid: number;
  /** When it started, in clock ticks since boot (/proc/PID/stat); null where there is no /proc. */
  startTicks: number | null;
  /** When it started, for people (ISO 8601, whole seconds). */
  started: string;
}

/** Pure: the start time in /proc/PID/stat (field 22), in clock ticks since boot. */
export function startTicksOf(stat: string): number | null {
  // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return fields.length > 19 && Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : null;
}

/** Pure: a lock file's holder, or null when it is not one (empty while being written, or damaged). */
export function parseHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { pid, startTicks, started } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof started !== 'string') return null;
  if (startTicks !== null && !Number.isSafeInteger(startTicks)) return null;
  return { pid: pid as number, startTicks: startTicks as number | null, started };
}

/** What the running system says about a process id. */
export interface ProcessProbe {
  exists(pid: number): boolean;
  /** Its start time in clock ticks since boot, or null when that cannot be read. */
  startTicks(pid: number): number | null;
}

/**
 * Pure: whether the lock's process still runs. A process id alone is not enough: after a restart
 * (of a container, say) another process may have the same one, so where both start times are
 * known they must match too.
 */
export function holderRuns(holder: LockHolder, probe: ProcessProbe): boolean {
  if (!probe.exists(holder.pid)) return false;
  const ticks = probe.startTicks(holder.pid);
  return ticks === null || holder.startTicks === null || ticks === holder.startTicks;
}

/** Pure: what a process refused a DATA_DIR is told. */
export function inUseMessage(dataDir: string, holder: LockHolder | null): string {
  const who = holder
    ? `process ${holder.pid} (started ${holder.started})`
    : `another process (its lock ${join(dataDir, LOCK_FILE)} is being written or cannot be read)`;
  return `The embedded database in ${dataDir} is in use by ${who}. Stop that process first, or set DATA_DIR to another directory.`;
}

/** A DATA_DIR this process cannot use, for a reason its one-line message names. */
export class DataDirError extends Error {}

export class DataDirInUseError extends DataDirError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(inUseMessage(dataDir, holder));
  }
}

/** For entry points: a DATA_DIR refused ends the process with its one-line message and exit code 1. */
export function exitIfRefused(err: unknown): never {
  if (!(err instanceof DataDirError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const errnoCode = (err: unknown) => (err as NodeJS.ErrnoException).code;

export const systemProbe: ProcessProbe = {
  exists(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: it runs, as another user.
      return errnoCode(err) === 'EPERM';
    }
  },
  startTicks(pid) {
    try {
      return startTicksOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return null;
    }
  },
};

/** This process, as its lock names it. */
export const thisProcess = (): LockHolder => ({
  pid: process.pid,
  startTicks: systemProbe.startTicks(process.pid),
  started: new Date(performance.timeOrigin).toISOString().replace(/\.\d+Z$/, 'Z'),
});

/*
 * Files this process wrote into a DATA_DIR and removes when it is done with them, each with the
 * content it wrote: removed only while it still holds that content, so that a lock another process
 * has since taken over is left alone. Also removed on the way out of every exit that runs 'exit'
 * handlers (process.exit, the end of the event loop, an uncaught error).
 */
const owned = new Map<string, string>();
let exitHook = false;

export function own(file: string, content: string): void {
  owned.set(file, content);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const [path, text] of owned) disownSync(path, text);
  });
}

function disownSync(file: string, content: string): void {
  owned.delete(file);
  try {
    if (readFileSync(file, 'utf8') === content) unlinkSync(file);
  } catch {
    // Already gone.
  }
}

export async function disown(file: string, content: string): Promise<void> {
  owned.delete(file);
  const now = await readFile(file, 'utf8').catch(() => undefined);
  if (now === content) await unlink(file).catch(() => {});
}

const readText = (file: string) =>
  readFile(file, 'utf8').catch((err: unknown) => {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  });

/** A lock file that is no lock must still be one being written, unless it has been lying there. */
const UNREADABLE_GRACE_MS = 10_000;

function leftOver(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > UNREADABLE_GRACE_MS;
  } catch {
    return true;
  }
}

/**
 * Removes a stale lock, unless another process took it over since it was read: moved aside first,
 * so that what is removed is exactly the lock that was judged, and put back if it is another.
 */
async function removeStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return;
    throw err;
  }
  const moved = await readText(aside);
  if (moved !== null && moved !== judged) {
    await writeFile(file, moved, { flag: 'wx' }).catch(() => {});
  }
  await unlink(aside).catch(() => {});
}

export interface DataDirLock {
  readonly holder: LockHolder;
  release(): Promise<void>;
}

/**
 * Takes the DATA_DIR for this process (creating the directory), or throws DataDirInUseError naming
 * the process that has it. Held until `release()` or the process exits.
 */
export async function lockDataDir(dataDir: string, probe: ProcessProbe = systemProbe): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const holder = thisProcess();
  const content = `${JSON.stringify(holder)}\n`;
  // A few rounds: each either takes the lock, refuses, or clears a stale lock and tries again.
  for (let round = 0; round < 5; round++) {
    try {
      await writeFile(file, content, { flag: 'wx', mode: 0o644 });
      own(file, content);
      return { holder, release: () => disown(file, content) };
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
    let text: string | null;
    try {
      text = await readText(file);
    } catch {
      // Unreadable (another user's): it cannot be judged stale.
      throw new DataDirInUseError(dataDir, null);
    }
    if (text === null) continue;
    const other = parseHolder(text);
    const stale = other ? !holderRuns(other, probe) : leftOver(file);
    if (!stale) throw new DataDirInUseError(dataDir, other);
    await removeStale(file, text);
  }
  throw new DataDirInUseError(dataDir, null);
}
