import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { makeServices } from '../../../src/services.ts';
import { sharedTestApp } from '../../support/app.ts';

const t = sharedTestApp();
let web: FastifyInstance;
let secureWeb: FastifyInstance;
let admin: string;
const dist = mkdtempSync(join(tmpdir(), 'wfc-web-'));

beforeAll(async () => {
  // A minimal built shell: the server fills the nonce placeholder on every answer.
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><script type="module" nonce="__CSP_NONCE__" src="/app.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dist, 'app.js'), 'console.log(1)');
  admin = await t.login();
  web = await buildApp(makeServices(t.handle.db, testConfig({ WEB_DIST: `${dist}/` })));
  secureWeb = await buildApp(
    makeServices(t.handle.db, testConfig({ WEB_DIST: `${dist}/`, COOKIE_SECURE: true })),
  );
});
afterAll(async () => {
  await web.close();
  await secureWeb.close();
  rmSync(dist, { recursive: true, force: true });
});

const directives = (res: LightMyRequestResponse) =>
  new Map(
    String(res.headers['content-security-policy'] ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

function expectCommon(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-powered-by']).toBeUndefined();
}

describe('the HTML shell', () => {
  for (const path of ['/', '/registry/roles', '/login', '/some/unknown/path']) {
    it(`${path}: a CSP with a fresh nonce, no inline script, no plugins, no base, no framing`, async () => {
      const res = await web.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectCommon(res);
      const csp = directives(res);
      const nonce = res.body.match(/nonce="([^"]+)"/)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.body).not.toContain('__CSP_NONCE__');
      expect(csp.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(String(res.headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  }

  it('uses a new nonce on every answer', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await web.inject({ method: 'GET', url: '/' });
      nonces.add(res.body.match(/nonce="([^"]+)"/)![1]!);
    }
    expect(nonces.size).toBe(5);
  });

  it('serves assets with nosniff, and HSTS only behind HTTPS (COOKIE_SECURE)', async () => {
    const asset = await web.inject({ method: 'GET', url: '/app.js' });
    expect(asset.statusCode).toBe(200);
    expectCommon(asset);
    expect(directives(asset).get('default-src')).toEqual(["'none'"]);
    expect(directives(asset).get('frame-ancestors')).toEqual(["'none'"]);
    const page = await secureWeb.inject({ method: 'GET', url: '/' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('API answers', () => {
  const cases: [string, () => Promise<LightMyRequestResponse>][] = [
    ['200', () => t.get('GetRoles', admin)],
    ['400', () => t.post('CreateGender', {}, admin)],
    ['401', () => t.get('GetRoles')],
    ['404', () => t.get('Nope', admin)],
    [
      '403 cross-site',
      () =>
        web.inject({ method: 'POST', url: '/api/CreateGender', headers: { origin: 'https://evil.example' } }),
    ],
    ['health', () => t.get('health')],
  ];
  for (const [name, run] of cases) {
    it(`${name}: nosniff, no-store, and a CSP that allows nothing`, async () => {
      const res = await run();
      expectCommon(res);
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = directives(res);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
    });
  }

  it('HSTS on API answers when COOKIE_SECURE, never otherwise', async () => {
    expect((await t.get('health')).headers['strict-transport-security']).toBeUndefined();
    const res = await secureWeb.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('the API docs page has its own CSP: scripts only from itself, no plugins, no framing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expectCommon(res);
    const csp = directives(res);
    expect(csp.get('script-src') ?? csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('the shell asked for by name', () => {
  it('/index.html is the shell with its nonce filled in, never the raw file with a long cache', async () => {
    for (const path of ['/index.html', '/index.html?x=1', '/%69ndex.html']) {
      const res = await web.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toContain('__CSP_NONCE__');
      expect(res.headers['cache-control'], path).toBe('no-cache');
      const nonce = /nonce="([^"]+)"/.exec(res.body)?.[1];
      expect(directives(res).get('script-src'), path).toContain(`'nonce-${nonce}'`);
    }
  });
});

describe('refusals made before routing are the envelope too', () => {
  /** A raw HTTP exchange: Node refuses some requests before any framework sees them. */
  async function rawExchange(app: FastifyInstance, request: string) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(request));
      let out = '';
      socket.on('data', (c: Buffer) => {
        out += c.toString();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(out));
    });
    await app.close();
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const [status = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    return { status: Number(status.split(' ')[1]), headers, body };
  }

  it('headers too large: 431 in the envelope with the API headers', async () => {
    const app = await buildApp(makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/' })));
    const res = await rawExchange(
      app,
      `GET /api/GetSession HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ statusCode: 431, message: 'Request headers are too large' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a path parameter too long: 414 in the envelope', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ProfilePicture/${'P'.repeat(300)}/thumbnail`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ statusCode: 414, message: 'Request URL is too long' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
