import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * What the load and fault runs share: a throw-away PostgreSQL database, and the real server
 * started as its own process (`src/main.ts`), so that signals, restarts and pools behave as in
 * production.
 */
export const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const BASE_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export function log(...parts: unknown[]) {
  console.log(`[${new Date().toISOString().slice(11, 23)}]`, ...parts);
}

export async function createDatabase(prefix: string) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]> {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      try {
        return (await c.query<T>(text, values)).rows;
      } finally {
        await c.end();
      }
    },
    async drop() {
      const c = new pg.Client({ connectionString: BASE_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
export type TestDatabase = Awaited<ReturnType<typeof createDatabase>>;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every line the server wrote (pino JSON), for the checks that read its log. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${lines.join('\n')}`);
    await sleep(250);
  }
  if (done) throw new Error(`server exited during start:\n${lines.join('\n')}`);
  return {
    url,
    child,
    lines,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

export async function call(
  url: string,
  path: string,
  cookie: string,
  body?: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<{ status: number; json: { statusCode: number; message: string; data?: unknown } }> {
  const res = await fetch(`${url}/api/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  return {
    status: res.status,
    json: (await res.json()) as { statusCode: number; message: string; data?: unknown },
  };
}

const cluster = () => readdirSync('/etc/postgresql')[0]!;

/** pg_ctlcluster for the one local cluster (the CI machine's PostgreSQL). */
export function pgCluster(action: 'start' | 'stop' | 'restart') {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster(), 'main', action], { stdio: 'pipe' });
}

export function pgIsReady(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']);
    return true;
  } catch {
    return false;
  }
}

/** Whatever happened, leave PostgreSQL running. */
export async function ensurePostgresRunning() {
  if (pgIsReady()) return;
  log('PostgreSQL is down: starting it');
  try {
    pgCluster('start');
  } catch (err) {
    log('pg_ctlcluster start failed:', (err as Error).message);
  }
  for (let i = 0; i < 60 && !pgIsReady(); i++) await sleep(500);
}

export const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
