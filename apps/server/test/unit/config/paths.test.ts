import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import {
  baseDir,
  type DataDirFacts,
  placeDataDir,
  resolveConfigPaths,
  resolvePath,
} from '../../../src/config/paths.ts';
import { envFilePath } from '../../../src/config/startup.ts';

describe('the folder paths are resolved from', () => {
  it('is the one the command was started in (npm names it in INIT_CWD), where .env is read', () => {
    expect(baseDir({}, '/srv/console')).toBe('/srv/console');
    expect(baseDir({ INIT_CWD: '/home/me/console' }, '/home/me/console/apps/server')).toBe(
      '/home/me/console',
    );
    expect(baseDir({ INIT_CWD: '' }, '/srv/console')).toBe('/srv/console');
    const env = { INIT_CWD: '/home/me/console' };
    expect(envFilePath(env, '/elsewhere')).toBe(join(baseDir(env, '/elsewhere'), '.env'));
  });

  it('makes relative paths absolute from it and keeps absolute ones and memory://', () => {
    expect(resolvePath('/srv/console', './data')).toBe('/srv/console/data');
    expect(resolvePath('/srv/console', 'apps/web/dist/')).toBe('/srv/console/apps/web/dist');
    expect(resolvePath('/srv/console', '../shared/db')).toBe('/srv/shared/db');
    expect(resolvePath('/srv/console', '/var/lib/console')).toBe('/var/lib/console');
    expect(resolvePath('/srv/console', 'memory://')).toBe('memory://');
  });

  it('empty DATA_DIR and WEB_DIST mean unset', () => {
    expect(loadConfig({ DATA_DIR: '', WEB_DIST: '' })).toMatchObject({
      DATA_DIR: './data',
      WEB_DIST: undefined,
    });
  });
});

describe('where the embedded database is (pure)', () => {
  const facts = (overrides: Partial<DataDirFacts>): DataDirFacts => ({
    setting: './data',
    base: '/srv/console',
    named: '/srv/console/data',
    inServerDir: '/srv/console/apps/server/data',
    namedExists: false,
    namedHoldsDatabase: false,
    inServerDirHoldsDatabase: false,
    ...overrides,
  });

  it('is where DATA_DIR names when nothing lies in the server folder', () => {
    expect(placeDataDir(facts({}))).toEqual({ dataDir: '/srv/console/data' });
    expect(placeDataDir(facts({ namedExists: true, namedHoldsDatabase: true }))).toEqual({
      dataDir: '/srv/console/data',
    });
  });

  it('is where DATA_DIR names when it is absolute or the server folder is the base', () => {
    const absolute = facts({
      setting: '/var/lib/console',
      named: '/var/lib/console',
      inServerDir: undefined,
    });
    expect(placeDataDir(absolute)).toEqual({ dataDir: '/var/lib/console' });
    const sameFolder = facts({
      base: '/srv/console/apps/server',
      named: '/srv/console/apps/server/data',
      namedExists: true,
      namedHoldsDatabase: true,
      inServerDirHoldsDatabase: true,
    });
    expect(placeDataDir(sameFolder)).toEqual({ dataDir: '/srv/console/apps/server/data' });
  });

  it('stays in the server folder when only that one holds a database, and says how to move it', () => {
    expect(placeDataDir(facts({ inServerDirHoldsDatabase: true }))).toEqual({
      dataDir: '/srv/console/apps/server/data',
      notice:
        'The embedded database is in /srv/console/apps/server/data, not in /srv/console/data ' +
        '(DATA_DIR=./data from /srv/console, the folder the command was started in): it is used where it is. ' +
        'To move it to /srv/console/data, stop the console and run: ' +
        'mv /srv/console/apps/server/data /srv/console/data',
    });
    // An empty folder where DATA_DIR names (a mount point, a mkdir) holds no database either.
    const empty = placeDataDir(facts({ inServerDirHoldsDatabase: true, namedExists: true }));
    expect(empty.dataDir).toBe('/srv/console/apps/server/data');
    expect(empty.notice).toMatch(/run: rmdir \/srv\/console\/data && mv \/srv\/console\/apps\/server\/data/);
  });

  it('uses the one DATA_DIR names when both hold a database, and says so', () => {
    expect(
      placeDataDir(facts({ namedExists: true, namedHoldsDatabase: true, inServerDirHoldsDatabase: true })),
    ).toEqual({
      dataDir: '/srv/console/data',
      notice:
        'Two embedded databases: /srv/console/data (DATA_DIR=./data from /srv/console, the folder the ' +
        'command was started in) is used; /srv/console/apps/server/data is not. Keep the one that holds ' +
        'your data in /srv/console/data, and move the other away.',
    });
  });
});

describe('the configuration, resolved', () => {
  let base: string;
  let serverDir: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'wfc-paths-'));
    serverDir = join(base, 'apps/server');
    await mkdir(serverDir, { recursive: true });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('resolves DATA_DIR and WEB_DIST from the base folder', () => {
    const { config, notice } = resolveConfigPaths(
      loadConfig({ DATA_DIR: './console-data', WEB_DIST: 'web/' }),
      base,
      serverDir,
    );
    expect(config.DATA_DIR).toBe(join(base, 'console-data'));
    expect(config.WEB_DIST).toBe(join(base, 'web'));
    expect(notice).toBeUndefined();
    expect(resolveConfigPaths(loadConfig({}), base, serverDir).config).toMatchObject({
      DATA_DIR: join(base, 'data'),
      WEB_DIST: undefined,
    });
  });

  it('finds a database in the server folder by its PG_VERSION, only on the embedded database', async () => {
    await mkdir(join(serverDir, 'data'));
    await writeFile(join(serverDir, 'data', 'PG_VERSION'), '17\n');
    const embedded = resolveConfigPaths(loadConfig({}), base, serverDir);
    expect(embedded.config.DATA_DIR).toBe(join(serverDir, 'data'));
    expect(embedded.notice).toContain(`The embedded database is in ${join(serverDir, 'data')}`);
    const server = resolveConfigPaths(loadConfig({ DATABASE_URL: 'postgres://db/console' }), base, serverDir);
    expect(server).toEqual({ config: expect.objectContaining({ DATA_DIR: join(base, 'data') }) });
  });
});
