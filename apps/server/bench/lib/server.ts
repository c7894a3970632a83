import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A web app of one empty page for the server to serve: the benchmark measures the API, and the
 * server refuses to start without an index.html to serve.
 */
export function placeholderWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wfc-bench-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>bench</title>\n');
  return dir;
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident set size now, in bytes, from /proc. */
  rss(): number;
  /** The last lines the server wrote, for a failure's report. */
  output(): string;
  stop(): Promise<void>;
}

/** The real server as its own process (`node --import tsx src/main.ts`), so that its pid is the server's. */
export async function startServer(
  env: Record<string, string>,
  extraNodeArgs: string[] = [],
): Promise<RunningServer> {
  const port = env.PORT;
  const child: ChildProcess = spawn(process.execPath, [...extraNodeArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output.join('')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output.join('')}`);
    }
    try {
      const res = await fetch(`${url}/api/GetSession`);
      if (res.status === 401) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    output: () => output.join(''),
    rss() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return Number(kb ?? 0) * 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Samples a number every `everyMs` until stopped; answers the highest seen. */
export function sampleMax(read: () => number, everyMs = 5) {
  let max = read();
  const timer = setInterval(() => {
    max = Math.max(max, read());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, read());
    },
  };
}
