import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/*
 * Commands run as an operator runs them (npm, node), in child processes that see only the
 * variables a test gives them, PATH and HOME: nothing of the test's own environment
 * (DATABASE_URL, INIT_CWD, ...) leaks in.
 */

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

export const exec = (file: string, args: string[], opts: { cwd: string; env?: Record<string, string> }) =>
  new Promise<Run>((resolve) => {
    execFile(
      file,
      args,
      { cwd: opts.cwd, env: { ...baseEnv(), ...opts.env }, timeout: 300_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export async function untilReady(url: string, server: ChildProcess): Promise<Response> {
  // A first embedded start migrates a new database; on a loaded 2-core machine that took over 90 s.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline && server.exitCode === null) {
    try {
      const res = await fetch(`${url}/api/health/ready`);
      if (res.status === 200) return res;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the server did not become ready');
}

export interface RunningServer {
  url: string;
  /** The body of the readiness check's first 200. */
  ready: unknown;
  process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The messages of the JSON log lines so far (the server logs JSON when stdout is no terminal). */
  messages(): string[];
  /** SIGTERM, as a process manager sends it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The server's refusal to start on a port another process took. */
const PORT_TAKEN = /Cannot start: port \d+ on \S+ is in use by another process/;

/**
 * Starts a server command (`npm start`, ...) on a free port and resolves once it is ready. A port
 * found free can be taken by another process before the server binds it (tests run side by side):
 * the start is then tried again on another.
 */
export async function startServer(
  command: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await freePort(), command, args, opts);
    } catch (err) {
      if (attempt >= 3 || !PORT_TAKEN.test((err as Error).message)) throw err;
    }
  }
}

async function startOnPort(
  port: number,
  command: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<RunningServer> {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: { ...baseEnv(), HOST: '127.0.0.1', PORT: String(port), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    url,
    ready: undefined,
    process: child,
    output: () => output,
    messages: () =>
      output.split('\n').flatMap((line) => {
        try {
          const entry: unknown = JSON.parse(line);
          return entry && typeof entry === 'object' && 'msg' in entry ? [String(entry.msg)] : [];
        } catch {
          return [];
        }
      }),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  try {
    server.ready = await (await untilReady(url, child)).json();
  } catch (err) {
    await server.stop();
    throw new Error(`${(err as Error).message}:\n${output}`);
  }
  return server;
}

/**
 * Starts the server of a checkout (this one, or a previous release's) from its TypeScript source,
 * with node itself as the process that gets the signals. The `tsx` command would stand between:
 * it waits 30 ms for its child to acknowledge a signal, and on a loaded machine kills it and exits
 * 143, so a graceful stop would read as a failed one.
 */
export function startSourceServer(checkout: string, opts: { env?: Record<string, string> } = {}) {
  return startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(checkout, 'apps', 'server'),
    env: opts.env,
  });
}
