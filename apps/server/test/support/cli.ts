import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type DbHandle, openDatabase } from '../../src/db/client.ts';
import { scratchPgDatabase } from './db.ts';

const SERVER_SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** tsx's loader by its absolute URL, so that a script runs from any working directory. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The command line (after node) that runs an entry point from its TypeScript source. */
export const entryPointArgs = (script: string, args: readonly string[] = []): string[] => [
  '--import',
  TSX_LOADER,
  join(SERVER_SRC, script),
  ...args,
];

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an entry point of the server (`main.ts`, `cli/migrate.ts`, ...) in a child process, as
 * `npm run` would, with only the variables given (and PATH): nothing of the test's own
 * environment (DATABASE_URL, INIT_CWD, ...) leaks into it.
 */
export function runEntryPoint(
  script: string,
  options: { env?: Record<string, string>; cwd?: string; args?: readonly string[] } = {},
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      entryPointArgs(script, options.args),
      {
        cwd: options.cwd ?? tmpdir(),
        env: { PATH: process.env.PATH ?? '', ...options.env },
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export interface ScratchDatabase {
  /** What a child process needs to reach it: DATA_DIR (embedded) or DATABASE_URL. */
  env: Record<string, string>;
  /** Opens it from the test; close the handle before a child process opens the embedded one. */
  open(): Promise<DbHandle>;
  drop(): Promise<void>;
}

/**
 * An empty database that child processes can open too: an embedded one in a temporary directory,
 * or, when DATABASE_URL is set, a new database on that PostgreSQL server.
 */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const dir = await mkdtemp(join(tmpdir(), 'wfc-cli-'));
    const dataDir = join(dir, 'data');
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir }),
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const scratch = await scratchPgDatabase(base, 'wfc_cli');
  return {
    env: { DATABASE_URL: scratch.url },
    open: () => openDatabase({ dataDir: 'memory://', databaseUrl: scratch.url, poolSize: 2 }),
    drop: scratch.drop,
  };
}
