import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEntryPoint, type ScriptRun } from '../../support/cli.ts';
import { freePort } from '../../support/processes.ts';

/*
 * Every failure an operator can meet at start, through the server's own entry point (src/main.ts)
 * in a process of its own: one line on stderr saying what is wrong and what to set, no stack
 * trace anywhere, exit code 1. A value the configuration itself refuses is in its list of
 * problems, as every wrong variable is (docs/operations.md).
 */

let dir: string;
let occupied: Server;
let busyPort: number;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfc-start-errors-'));
  busyPort = await freePort();
  occupied = createServer();
  await new Promise<void>((resolve) => occupied.listen(busyPort, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => occupied.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** The server on an embedded database of its own, started with these variables. */
async function start(env: Record<string, string>): Promise<ScriptRun> {
  return runEntryPoint('main.ts', {
    env: {
      DATA_DIR: join(dir, randomBytes(4).toString('hex')),
      DEMO_DATA: 'false',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ...env,
    },
  });
}

/** Exit code 1 and exactly this line on stderr; no stack trace in either stream. */
function expectOneLine(run: ScriptRun, line: string) {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(run.stderr).toBe(`${line}\n`);
  expect(run.stdout).not.toMatch(/^\s+at /m);
  expect(run.stdout).not.toContain('"stack"');
}

function expectConfigProblem(run: ScriptRun, problem: string) {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines[0]).toBe('Invalid configuration:');
  expect(lines.slice(1, -1)).toEqual([`  ${problem}`]);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

describe('a start that cannot go on says why in one line, exit code 1', () => {
  it('the port is in use', { timeout: 120_000 }, async () => {
    expectOneLine(
      await start({ PORT: String(busyPort) }),
      `Cannot start: port ${busyPort} on 127.0.0.1 is in use by another process — stop that process, or set PORT to a free port`,
    );
  });

  it('HOST is not an address of this machine', { timeout: 120_000 }, async () => {
    // TEST-NET-3 (RFC 5737): never a local address.
    expectOneLine(
      await start({ HOST: '203.0.113.7' }),
      'Cannot start: HOST=203.0.113.7 is not an address of this machine — set HOST to an address of this machine: 127.0.0.1 for it alone, 0.0.0.0 for every interface',
    );
  });

  it('HOST names no address', { timeout: 120_000 }, async () => {
    // .invalid never resolves (RFC 6761).
    const run = await start({ HOST: 'console.invalid' });
    expect(run.stderr).toMatch(
      /^Cannot start: HOST=console\.invalid does not resolve to an address \((ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)\) — set HOST to an address of this machine: 127\.0\.0\.1 for it alone, 0\.0\.0\.0 for every interface\n$/,
    );
    expectOneLine(run, run.stderr.trimEnd());
  });

  it('WEB_DIST is set to a folder without the web app', { timeout: 120_000 }, async () => {
    const webDist = join(dir, 'no-web-app');
    expectOneLine(
      await start({ WEB_DIST: webDist }),
      `Cannot start: WEB_DIST=${webDist} holds no readable index.html (ENOENT) — set WEB_DIST to the built web app (npm run build makes apps/web/dist), or unset it to serve the console’s own`,
    );
  });

  it('nothing listens where DATABASE_URL points', { timeout: 120_000 }, async () => {
    expectOneLine(
      await start({ DATABASE_URL: 'postgres://console:s3cret@127.0.0.1:1/workforce' }),
      'Cannot start: nothing accepts connections at 127.0.0.1:1 (DATABASE_URL) — start PostgreSQL there, or set DATABASE_URL to the server that runs it',
    );
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'the database DATABASE_URL names does not exist',
    {
      timeout: 120_000,
    },
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      const name = `wfc_missing_${randomBytes(4).toString('hex')}`;
      url.pathname = `/${name}`;
      expectOneLine(
        await start({ DATABASE_URL: url.toString() }),
        `Cannot start: the database "${name}" does not exist on ${url.host} — create it (createdb ${name}), or set DATABASE_URL to an existing database`,
      );
    },
  );

  it('DATABASE_URL is not PostgreSQL', { timeout: 60_000 }, async () => {
    const run = await start({ DATABASE_URL: 'mysql://root:s3cret@db/console' });
    expectConfigProblem(
      run,
      'DATABASE_URL: mysql:// is not PostgreSQL, the only server the console runs on: set a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/database, or unset it for the embedded database',
    );
    expect(run.stderr).not.toContain('s3cret');
  });

  it('CORS_ORIGINS holds something that is no origin', { timeout: 60_000 }, async () => {
    expectConfigProblem(
      await start({ CORS_ORIGINS: 'notaurl' }),
      'CORS_ORIGINS: "notaurl" is not an origin: write scheme://host[:port], such as https://console.example.com or http://localhost:5173',
    );
  });
});
