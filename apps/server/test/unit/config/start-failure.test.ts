import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartError, startFailure, webDistProblem } from '../../../src/start.ts';

/** As Node and node-postgres report them; Drizzle wraps the driver's error in its own. */
const nodeError = (code: string, message = code) => Object.assign(new Error(message), { code });
const drizzleWrapped = (code: string, message: string) =>
  Object.assign(new Error('Failed query: select 1'), { cause: nodeError(code, message) });

const config = { HOST: '127.0.0.1', PORT: 3000, DATABASE_URL: undefined };
const pg = { ...config, DATABASE_URL: 'postgres://console:s3cret@db.internal:6543/workforce' };

describe('a failure at start is one line: what is wrong and what to set', () => {
  it('says so for the port and the address to listen on', () => {
    expect(startFailure(nodeError('EADDRINUSE'), 'listen', config)).toBe(
      'Cannot start: port 3000 on 127.0.0.1 is in use by another process — stop that process, or set PORT to a free port',
    );
    expect(startFailure(nodeError('EADDRNOTAVAIL'), 'listen', { ...config, HOST: '10.9.9.9' })).toBe(
      'Cannot start: HOST=10.9.9.9 is not an address of this machine — set HOST to an address of this machine: 127.0.0.1 for it alone, 0.0.0.0 for every interface',
    );
    expect(startFailure(nodeError('ENOTFOUND'), 'listen', { ...config, HOST: 'nowhere.invalid' })).toBe(
      'Cannot start: HOST=nowhere.invalid does not resolve to an address (ENOTFOUND) — set HOST to an address of this machine: 127.0.0.1 for it alone, 0.0.0.0 for every interface',
    );
    expect(startFailure(nodeError('EACCES'), 'listen', { ...config, PORT: 80 })).toMatch(
      /^Cannot start: port 80 needs privileges .* — set PORT to 1024 or above/,
    );
  });

  it('names the server, database and user of DATABASE_URL, never its password', () => {
    const cases: [Error, string][] = [
      [
        drizzleWrapped('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:6543'),
        'Cannot start: nothing accepts connections at db.internal:6543 (DATABASE_URL) — start PostgreSQL there, or set DATABASE_URL to the server that runs it',
      ],
      [
        drizzleWrapped('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'),
        'Cannot start: the database server db.internal:6543 of DATABASE_URL cannot be reached (ENOTFOUND) — set DATABASE_URL to a server this machine can reach',
      ],
      [
        drizzleWrapped('3D000', 'database "workforce" does not exist'),
        'Cannot start: the database "workforce" does not exist on db.internal:6543 — create it (createdb workforce), or set DATABASE_URL to an existing database',
      ],
      [
        drizzleWrapped('28P01', 'password authentication failed for user "console"'),
        'Cannot start: PostgreSQL at db.internal:6543 refused the user "console": password authentication failed for user "console" — set the user and password in DATABASE_URL to a role that may connect',
      ],
      [
        drizzleWrapped('53300', 'too many connections for role "console"'),
        'Cannot start: PostgreSQL at db.internal:6543 has no connection to spare: too many connections for role "console" — lower PG_POOL_SIZE, or raise max_connections or the role\'s or database\'s CONNECTION LIMIT',
      ],
      [
        drizzleWrapped('55000', 'database "workforce" is not currently accepting connections'),
        'Cannot start: the database "workforce" on db.internal:6543 does not accept connections — ALTER DATABASE workforce ALLOW_CONNECTIONS true, or set DATABASE_URL to another database',
      ],
      [
        drizzleWrapped('57P03', 'the database system is starting up'),
        "Cannot start: the database server db.internal:6543 stopped the server's work: the database system is starting up — start again once PostgreSQL is up and running",
      ],
    ];
    for (const [err, message] of cases) {
      const said = startFailure(err, 'database', pg);
      expect(said).toBe(message);
      expect(said).not.toContain('s3cret');
    }
  });

  it('leaves a defect to its stack: anything it cannot name, and every error of the embedded database', () => {
    expect(startFailure(new TypeError('x is undefined'), 'database', pg)).toBeUndefined();
    expect(startFailure(drizzleWrapped('42601', 'syntax error'), 'database', pg)).toBeUndefined();
    expect(startFailure(nodeError('EMFILE'), 'listen', config)).toBeUndefined();
    expect(startFailure(drizzleWrapped('3D000', 'no'), 'database', config)).toBeUndefined();
    expect(startFailure(new StartError('Cannot start: said already — as it is'), 'database', config)).toBe(
      'Cannot start: said already — as it is',
    );
  });
});

describe('WEB_DIST', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wfc-web-dist-'));
    await mkdir(join(dir, 'built'));
    await writeFile(join(dir, 'built', 'index.html'), '<div id="root"></div>');
    await mkdir(join(dir, 'locked'));
    await writeFile(join(dir, 'locked', 'index.html'), '<div id="root"></div>');
    await chmod(join(dir, 'locked', 'index.html'), 0o000);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is fine unset (the console’s own build) or holding a readable index.html', () => {
    expect(webDistProblem(undefined)).toBeUndefined();
    expect(webDistProblem(join(dir, 'built'))).toBeUndefined();
  });

  it('stops the start when set to a folder without a readable web app', () => {
    expect(webDistProblem('/nonexistent')).toBe(
      'Cannot start: WEB_DIST=/nonexistent holds no readable index.html (ENOENT) — set WEB_DIST to the built web app (npm run build makes apps/web/dist), or unset it to serve the console’s own',
    );
    // root reads every file whatever its mode; elsewhere an unreadable file is refused too.
    if (process.getuid?.() !== 0) expect(webDistProblem(join(dir, 'locked'))).toMatch(/\(EACCES\)/);
  });
});
