import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bom, installedPackages, licenceOf } from '../../../scripts/sbom.ts';
import { scratchPgDatabase } from '../../support/db.ts';
import { exec, startServer } from '../../support/processes.ts';

/*
 * The console as production runs it: `npm run package` makes an installation with the runtime
 * dependencies only, its bill of materials and licence summary, and `npm start` there runs the
 * compiled server on the console's Node.js release (.nvmrc), on a new embedded database (DATA_DIR
 * unset: `data` in the installation's folder), or with DATABASE_URL set on a new PostgreSQL
 * database (after `node apps/server/dist/migrate.js`). A SIGTERM sent to `npm start`, as a process
 * manager sends it, must stop the server too.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PASSWORD = 'change-me-admin-1';
const METRICS_TOKEN = 'production-metrics-token-0123456789';
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const NODE_RELEASE = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();

let dir: string;
/** The folder of the console's Node.js release, first on PATH for `npm start`. */
let nodeBin: string;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'wfc-production-')), 'console');
  const run = await exec('npm', ['run', 'package', '--', dir], { cwd: ROOT });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const runtime = await exec('bash', ['scripts/node-runtime.sh'], { cwd: ROOT });
  expect(runtime.code, runtime.stderr).toBe(0);
  nodeBin = runtime.stdout.trim();
}, 300_000);
afterAll(async () => {
  await dropDatabase?.();
  if (dir) await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('a production installation', () => {
  it('holds the runtime dependencies only', async () => {
    const run = await exec('npm', ['ls', '--omit=dev', '--depth=0', '--json'], { cwd: dir });
    const installed = Object.keys((JSON.parse(run.stdout) as { dependencies?: object }).dependencies ?? {});
    expect(installed).toEqual(expect.arrayContaining(['@wfc/server', '@wfc/web', '@wfc/contract']));
    const loads = (name: string) =>
      exec(process.execPath, ['-e', `import('${name}').then(() => process.exit(0), () => process.exit(3))`], {
        cwd: join(dir, 'apps/server'),
      }).then((run) => run.code === 0);
    for (const runtime of ['fastify', 'argon2', 'sharp', '@electric-sql/pglite']) {
      expect(await loads(runtime), `${runtime} must be installed`).toBe(true);
    }
    for (const devOnly of ['tsx', 'vite', '@faker-js/faker', 'country-state-city', 'react']) {
      expect(await loads(devOnly), `${devOnly} must not be installed`).toBe(false);
    }
  });

  it('carries a CycloneDX bill of materials of exactly the installed packages', async () => {
    const bom = JSON.parse(await readFile(join(dir, 'sbom.cdx.json'), 'utf8')) as Bom;
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(Number(bom.specVersion)).toBeGreaterThanOrEqual(1.5);
    expect(bom.metadata.component).toMatchObject({ name: 'workforce-console', version: VERSION });
    const listed = bom.components.map((c) => c['bom-ref']).sort();
    expect(listed).toEqual([...installedPackages(dir)].sort());
    const names = new Set(bom.components.map((c) => c.name));
    for (const runtime of [
      'fastify',
      'argon2',
      'sharp',
      '@electric-sql/pglite',
      'openid-client',
      'jose',
      'zod',
    ]) {
      expect(names.has(runtime), runtime).toBe(true);
    }
    for (const devOnly of ['tsx', 'vite', 'vitest', 'react', '@faker-js/faker']) {
      expect(names.has(devOnly), devOnly).toBe(false);
    }
  });

  it('summarises the licences of every third-party package, each of which declares one', async () => {
    const bom = JSON.parse(await readFile(join(dir, 'sbom.cdx.json'), 'utf8')) as Bom;
    const summary = await readFile(join(dir, 'licences.md'), 'utf8');
    const third = bom.components.filter((c) => !c['bom-ref'].startsWith('@wfc/'));
    const rows = [...summary.matchAll(/^\| (.+) \| (\d+) \|$/gm)].map((m) => [m[1], Number(m[2])] as const);
    expect(rows.reduce((n, [, count]) => n + count, 0)).toBe(third.length);
    expect(rows.map(([licence]) => licence)).not.toContain('none declared');
    for (const c of third) {
      const section = summary.split(`\n## ${licenceOf(c)}\n`)[1]?.split('\n## ')[0] ?? '';
      expect(section, `${c.name}@${c.version}`).toContain(`- ${c.name}@${c.version}\n`);
    }
  });

  it(`starts with npm start on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}, serves, and stops on SIGTERM`, {
    timeout: 240_000,
  }, async () => {
    const env: Record<string, string> = {
      ADMIN_PASSWORD: PASSWORD,
      METRICS_TOKEN,
      PATH: `${nodeBin}:${process.env.PATH ?? ''}`,
    };
    let password = PASSWORD;
    if (process.env.DATABASE_URL) {
      const scratch = await scratchPgDatabase(process.env.DATABASE_URL, 'wfc_production');
      dropDatabase = scratch.drop;
      env.DATABASE_URL = scratch.url;
      delete env.ADMIN_PASSWORD;
      const migrated = await exec(process.execPath, ['apps/server/dist/migrate.js'], { cwd: dir, env });
      expect(migrated.code, migrated.stderr).toBe(0);
      password = /generated password: (\S+)/.exec(migrated.stdout)?.[1] ?? '';
      expect(password).not.toBe('');
    }

    const server = await startServer('npm', ['start'], { cwd: dir, env });
    const url = server.url;
    try {
      expect(server.ready).toEqual({ statusCode: 200, message: 'Ready' });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const login = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status, server.output()).toBe(200);
      if (!process.env.DATABASE_URL) {
        expect(server.messages()).toContain(`Embedded database at ${join(dir, 'data')}`);
      }
      // The release it is, and the Node.js it runs on: the console's, whatever runs the tests.
      const health = (await (await fetch(`${url}/api/health`)).json()) as { data?: unknown };
      expect(health.data).toEqual({ version: VERSION });
      const metrics = await fetch(`${url}/api/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(await metrics.text()).toContain(
        `wfc_build_info{version="${VERSION}",node="${NODE_RELEASE}"} 1\n`,
      );
    } finally {
      await server.stop();
    }
    expect(server.output()).toContain('SIGTERM: draining requests');
    // No orphan: nothing answers on the port any more.
    await expect(fetch(`${url}/api/health/live`)).rejects.toThrow();
  });
});
