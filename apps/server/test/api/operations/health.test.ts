import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { makeServices, watchChanges } from '../../../src/services.ts';
import { sharedTestApp } from '../../support/app.ts';
import { freshDatabase } from '../../support/db.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { checkAgainstDescription } from '../../support/openapi-check.ts';

const t = sharedTestApp();

const SERVER_VERSION: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;
/** semver.org's own pattern for a version (pre-release and build parts included). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

describe('health endpoints', () => {
  it('live, ready and the combined check answer 200 while all is well, to anyone', async () => {
    expect(expectEnvelope(await t.get('health/live'), 200)).toEqual({ statusCode: 200, message: 'OK' });
    expect(expectEnvelope(await t.get('health/ready'), 200)).toEqual({ statusCode: 200, message: 'Ready' });
    expect(expectEnvelope(await t.get('health'), 200)).toEqual({
      statusCode: 200,
      message: 'OK',
      data: { version: SERVER_VERSION },
    });
  });

  it('the combined check names the release: the semantic version every package carries', () => {
    expect(SERVER_VERSION).toMatch(SEMVER);
    for (const manifest of [
      '../../../../../package.json',
      '../../../../web/package.json',
      '../../../../../packages/contract/package.json',
    ]) {
      expect(JSON.parse(readFileSync(new URL(manifest, import.meta.url), 'utf8')).version, manifest).toBe(
        SERVER_VERSION,
      );
    }
  });

  it('ready answers 503 while a migration this build carries is not applied', async () => {
    const [latest] = (
      (await t.handle.db.execute(
        sql`delete from schema_migrations where tag = (select max(tag) from schema_migrations) returning tag`,
      )) as unknown as { rows: { tag: string }[] }
    ).rows;
    try {
      const res = await t.get('health/ready');
      // Named, so an operator knows which migration to look for.
      expect(expectEnvelope(res, 503).message).toBe(
        `Database migrations not applied: 1 pending (${latest!.tag})`,
      );
      expect(res.headers['retry-after']).toBe('5');
      // The process itself is fine.
      expectEnvelope(await t.get('health/live'), 200);
    } finally {
      await t.handle.db.execute(sql`insert into schema_migrations (tag) values (${latest!.tag})`);
    }
    expectEnvelope(await t.get('health/ready'), 200);
  });
});

describe('with the database gone', () => {
  it('ready and the combined check answer 503; live still answers 200', async () => {
    // An app of its own, whose database handle is closed under it.
    const handle = await freshDatabase();
    const services = makeServices(
      handle.db,
      testConfig({ WEB_DIST: '/nonexistent/' }),
      await watchChanges(handle),
    );
    const app = await buildApp(services);
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      await handle.close();
      const answers = [];
      for (const path of ['/api/health/ready', '/api/health', '/api/health/live']) {
        const res = await app.inject({ method: 'GET', url: path, headers: { 'x-request-id': 'probe-1' } });
        answers.push([path, res.statusCode, res.json().message]);
        expect(res.headers['x-request-id']).toBe('probe-1');
        checkAgainstDescription('GET', path, {
          statusCode: res.statusCode,
          contentType: String(res.headers['content-type']),
          body: res.body,
        });
      }
      expect(answers).toEqual([
        ['/api/health/ready', 503, 'Database unavailable'],
        ['/api/health', 503, 'Database unavailable'],
        ['/api/health/live', 200, 'OK'],
      ]);
    } finally {
      await app.close();
    }
  });
});
