import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLICATION_NAME } from '../../../src/db/client.ts';
import { shippedMigrations } from '../../../src/db/migrate.ts';
import { STARTING_MESSAGE } from '../../../src/operations/starting.ts';
import { DEMO_PASSWORD } from '../../../src/seed/catalogue.ts';
import { runEntryPoint, type ScratchDatabase, scratchDatabase } from '../../support/cli.ts';
import { freePort } from '../../support/processes.ts';

/*
 * The server's own start, as a process (src/main.ts), on a new database: the port answers within
 * seconds, readiness says 503 and what is happening while the migrations and the demo data go in,
 * every other request answers 503 with Retry-After meanwhile, then readiness answers 200 and the
 * demo accounts sign in. With MIGRATE_ON_START=false the server migrates nothing: on PostgreSQL it
 * waits, naming the pending migrations, until `npm run db:migrate` has run.
 */

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MAIN = fileURLToPath(new URL('../../../src/main.ts', import.meta.url));
const ADMIN_PASSWORD = 'change-me-admin-1';
const onPostgres = Boolean(process.env.DATABASE_URL);

interface Answer {
  /** Seconds since the process was started. */
  at: number;
  status: number;
  message: string;
  retryAfter?: string;
}

interface ServerProcess {
  url: string;
  child: ChildProcess;
  started: number;
  output(): string;
  messages(): string[];
  stop(): Promise<number | null>;
}

const running: ServerProcess[] = [];
const scratches: ScratchDatabase[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  for (const scratch of scratches.splice(0)) await scratch.drop();
});

async function startMain(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    started,
    output: () => output,
    messages: () =>
      output.split('\n').flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: unknown };
          return typeof entry.msg === 'string' ? [entry.msg] : [];
        } catch {
          return [];
        }
      }),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  running.push(server);
  return server;
}

async function ask(server: ServerProcess, path: string, init: RequestInit = {}): Promise<Answer | undefined> {
  try {
    const res = await fetch(`${server.url}${path}`, init);
    const body = (await res.json()) as { message: string };
    return {
      at: (performance.now() - server.started) / 1000,
      status: res.status,
      message: body.message,
      retryAfter: res.headers.get('retry-after') ?? undefined,
    };
  } catch {
    // Not listening (yet).
    return undefined;
  }
}

const signIn = (username: string, password: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username, password }),
});

/**
 * Readiness, every 100 ms, until it answers 200 (or `until` says stop): every answer, and what a
 * sign-in and liveness answered the first time readiness said 503.
 */
async function watchStart(server: ServerProcess, until = (a: Answer) => a.status === 200, limitS = 240) {
  const answers: Answer[] = [];
  let meanwhile: { signIn?: Answer; live?: Answer } | undefined;
  while ((performance.now() - server.started) / 1000 < limitS && server.child.exitCode === null) {
    const answer = await ask(server, '/api/health/ready');
    if (answer) {
      answers.push(answer);
      if (until(answer)) break;
      if (!meanwhile && answer.status === 503) {
        meanwhile = {
          signIn: await ask(server, '/api/login', signIn('admin', ADMIN_PASSWORD)),
          live: await ask(server, '/api/health/live'),
        };
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { answers, meanwhile };
}

async function newDatabase() {
  const scratch = await scratchDatabase();
  scratches.push(scratch);
  return scratch;
}

describe(`the first start on ${onPostgres ? 'PostgreSQL' : 'the embedded database'}`, () => {
  it('listens within seconds, answers 503 while it migrates and loads demo data, then serves', {
    timeout: 300_000,
  }, async () => {
    const scratch = await newDatabase();
    // The embedded database's first start loads demo data by itself; PostgreSQL's is asked to.
    const server = await startMain({
      ...scratch.env,
      ADMIN_PASSWORD,
      ...(onPostgres ? { DEMO_DATA: 'true' } : {}),
    });
    const { answers, meanwhile } = await watchStart(server);
    const first = answers[0];
    const ready = answers.at(-1);
    expect(ready?.status, server.output()).toBe(200);
    // Within seconds of the process starting; the figures on a quiet machine are in
    // docs/operations.md. Generous here: tests share the machine and compile the server first.
    expect(first!.at).toBeLessThan(30);
    const starting = answers.filter((a) => a.status !== 200);
    expect(starting.length).toBeGreaterThan(0);
    for (const answer of starting) {
      expect(answer.status).toBe(503);
      expect(answer.message).toMatch(/^Starting: /);
      expect(answer.retryAfter).toBe('5');
    }
    expect(starting.map((a) => a.message)).toContain('Starting: loading demo data');
    expect(meanwhile?.signIn).toMatchObject({ status: 503, message: STARTING_MESSAGE, retryAfter: '5' });
    expect(meanwhile?.live).toMatchObject({ status: 200, message: 'OK' });

    // Every migration, by name, with how long it took; then the demo data.
    const messages = server.messages();
    for (const tag of await shippedMigrations()) {
      expect(
        messages.some((m) => new RegExp(`^Migration ${tag} applied in \\d+ ms$`).test(m)),
        tag,
      ).toBe(true);
    }
    expect(messages).toContain('Demo data loaded');
    expect(messages).toContain('Ready: serving requests');
    // The port opened before the migrations ran.
    expect(messages.indexOf('Ready: serving requests')).toBeGreaterThan(
      messages.findIndex((m) => m.startsWith('Server listening at')),
    );
    expect(messages.findIndex((m) => m.startsWith('Server listening at'))).toBeLessThan(
      messages.findIndex((m) => m.startsWith('Migration ')),
    );

    expect(await ask(server, '/api/login', signIn('manager', DEMO_PASSWORD))).toMatchObject({ status: 200 });
    expect(await ask(server, '/api/login', signIn('admin', ADMIN_PASSWORD))).toMatchObject({ status: 200 });

    if (onPostgres) {
      // Every connection of the server names it.
      const client = new pg.Client({
        connectionString: scratch.env.DATABASE_URL,
        application_name: 'wfc-test',
      });
      await client.connect();
      const names = await client.query<{ application_name: string }>(
        'select application_name from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      await client.end();
      expect(names.rows.length).toBeGreaterThanOrEqual(2);
      // The request pool's, and the job queue's own (docs/operations.md, "Background jobs").
      const named = new Set(names.rows.map((r) => r.application_name));
      expect(named).toContain(APPLICATION_NAME);
      expect([...named].filter((n) => n !== APPLICATION_NAME && n !== `${APPLICATION_NAME} jobs`)).toEqual(
        [],
      );
    }
    expect(await server.stop()).toBe(0);
  });

  it('a second start finds the database up to date and is ready at once', { timeout: 180_000 }, async () => {
    const scratch = await newDatabase();
    const migrated = await runEntryPoint('cli/migrate.ts', { env: { ...scratch.env, ADMIN_PASSWORD } });
    expect(migrated.code, migrated.stderr).toBe(0);
    const server = await startMain({ ...scratch.env, DEMO_DATA: 'false' });
    const { answers } = await watchStart(server);
    expect(answers.at(-1)?.status, server.output()).toBe(200);
    const messages = server.messages();
    expect(messages.filter((m) => m.startsWith('Migration '))).toEqual([]);
    expect(messages).toContain(`Database is up to date (${(await shippedMigrations()).length} migrations)`);
  });
});

describe('MIGRATE_ON_START=false', () => {
  it.skipIf(!onPostgres)(
    'migrates nothing: not ready, naming the pending migrations, until db:migrate has run',
    { timeout: 180_000 },
    async () => {
      const scratch = await newDatabase();
      const server = await startMain({ ...scratch.env, MIGRATE_ON_START: 'false', DEMO_DATA: 'false' });
      const tags = await shippedMigrations();
      const waiting = `Starting: waiting for the database to be migrated: ${tags.length} pending (${tags.join(', ')})`;
      const { answers } = await watchStart(server, (a) => a.message === waiting, 120);
      expect(answers.at(-1), server.output()).toMatchObject({
        status: 503,
        message: waiting,
        retryAfter: '5',
      });
      expect(await ask(server, '/api/login', signIn('admin', ADMIN_PASSWORD))).toMatchObject({
        status: 503,
        message: STARTING_MESSAGE,
      });
      expect(server.messages().filter((m) => m.startsWith('Migration '))).toEqual([]);
      expect(server.messages().some((m) => m.startsWith('Waiting for the database to be migrated'))).toBe(
        true,
      );

      const migrated = await runEntryPoint('cli/migrate.ts', { env: { ...scratch.env, ADMIN_PASSWORD } });
      expect(migrated.code, migrated.stderr).toBe(0);
      const after = await watchStart(server);
      expect(after.answers.at(-1)?.status, server.output()).toBe(200);
      expect(await ask(server, '/api/login', signIn('admin', ADMIN_PASSWORD))).toMatchObject({ status: 200 });
    },
  );

  it.skipIf(onPostgres)(
    'on the embedded database, which no other process may open meanwhile, stops with one line',
    { timeout: 120_000 },
    async () => {
      const scratch = await newDatabase();
      const run = await runEntryPoint('main.ts', {
        env: { ...scratch.env, MIGRATE_ON_START: 'false', PORT: String(await freePort()) },
      });
      const tags = await shippedMigrations();
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toBe(
        `Cannot start: the embedded database lacks migrations, ${tags.length} pending (${tags.join(', ')}), and MIGRATE_ON_START is false — stop the server and run npm run db:migrate, or set MIGRATE_ON_START=true\n`,
      );
      expect(run.stdout).not.toMatch(/^\s+at /m);
    },
  );
});
