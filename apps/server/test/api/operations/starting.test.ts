import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { bootstrap } from '../../../src/bootstrap.ts';
import { testConfig } from '../../../src/config/config.ts';
import { STARTING_MESSAGE, Startup } from '../../../src/operations/starting.ts';
import { makeServices, watchChanges } from '../../../src/services.ts';
import { ADMIN_PASSWORD } from '../../support/app.ts';
import { freshDatabase } from '../../support/db.ts';
import { checkAgainstDescription } from '../../support/openapi-check.ts';

/*
 * The gate the server keeps shut while it prepares its database after listening (migrations,
 * demo data): every request but the two probes answers 503 with Retry-After, readiness says what
 * is happening, liveness answers 200; once the start is done everything is served as usual.
 */

describe('while the server starts', () => {
  it('answers every request but liveness and readiness with 503 and Retry-After, then serves', async () => {
    const handle = await freshDatabase();
    await bootstrap(handle.db, ADMIN_PASSWORD);
    const startup = new Startup('loading demo data');
    const app = await buildApp(
      makeServices(handle.db, testConfig({ WEB_DIST: '/nonexistent/' }), await watchChanges(handle), {
        startup,
      }),
    );
    const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) => {
      const res = await app.inject({
        method,
        url,
        headers: { 'x-request-id': 'starting-1', ...headers },
        ...(method === 'POST'
          ? { payload: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) }
          : {}),
      });
      // Operations only: an unknown path or the description itself is none.
      if (url.startsWith('/api/') && !url.startsWith('/api/no-such') && !url.startsWith('/api/docs')) {
        checkAgainstDescription(method, url, {
          statusCode: res.statusCode,
          contentType: String(res.headers['content-type']),
          body: res.body,
        });
      }
      return res;
    };
    const json = { 'content-type': 'application/json' };
    try {
      const live = await call('GET', '/api/health/live');
      expect([live.statusCode, live.json().message]).toEqual([200, 'OK']);

      const ready = await call('GET', '/api/health/ready');
      expect([ready.statusCode, ready.json().message]).toEqual([503, 'Starting: loading demo data']);
      expect(ready.headers['retry-after']).toBe('5');

      for (const [method, url, headers] of [
        ['POST', '/api/login', json],
        ['GET', '/api/GetSession', {}],
        ['GET', '/api/health', {}],
        ['GET', '/api/GetGenders', {}],
        ['GET', '/api/no-such-endpoint', {}],
        ['GET', '/api/docs/json', {}],
      ] as const) {
        const res = await call(method, url, headers);
        expect([url, res.statusCode, res.json()]).toEqual([
          url,
          503,
          { statusCode: 503, message: STARTING_MESSAGE },
        ]);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.headers['x-request-id']).toBe('starting-1');
        expect(res.headers['cache-control']).toBe('no-store');
      }

      // A browser opening the console meanwhile gets a page that reloads itself.
      const page = await call('GET', '/', { accept: 'text/html,application/xhtml+xml' });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['retry-after']).toBe('5');
      expect(page.body).toContain('<meta http-equiv="refresh" content="5">');
      expect(page.body).toContain('Workforce Console is starting');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");

      startup.set('migrating the database');
      expect((await call('GET', '/api/health/ready')).json().message).toBe(
        'Starting: migrating the database',
      );

      startup.ready();
      expect((await call('GET', '/api/health/ready')).statusCode).toBe(200);
      expect((await call('POST', '/api/login', json)).statusCode).toBe(200);
      expect((await call('GET', '/api/no-such-endpoint')).statusCode).toBe(404);
    } finally {
      await app.close();
      await handle.close();
    }
  });
});
