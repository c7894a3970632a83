import { readFile } from 'node:fs/promises';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';

const TOKEN = 'metrics-token-0123456789';
const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

/** A sample's value in the text format, by its name and exact label set ({} for none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ?? '')
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (got === want) return Number(m[3]);
  }
  return undefined;
}

const families = (text: string) =>
  new Set([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`));

describe('without METRICS_TOKEN', () => {
  const t = sharedTestApp();

  it('/api/metrics answers 404, exactly as an unknown path does, whatever is sent', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/metrics-nope' });
    for (const authorization of [undefined, 'Bearer ', `Bearer ${TOKEN}`, 'Bearer undefined']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(expectEnvelope(res, 404)).toEqual({
        statusCode: 404,
        message: 'No such endpoint: GET /api/metrics',
      });
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
    }
    expect(unknown.json()).toEqual({ statusCode: 404, message: 'No such endpoint: GET /api/metrics-nope' });
  });

  it('is described: a text/plain answer for the token holder, and the 404 for everyone else', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = doc.paths['/api/metrics'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/plain']);
    expect(op.responses['404'].description).toMatch(/METRICS_TOKEN/);
    expect(op.summary).toMatch(/Bearer/);
  });
});

describe('with METRICS_TOKEN', () => {
  const t = sharedTestApp({ METRICS_TOKEN: TOKEN, LOGIN_MAX_FAILURES_PER_USER: 2 });
  let admin: string;
  beforeAll(async () => {
    admin = await t.login();
  });

  const scrape = async (): Promise<string> => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  it('a missing or wrong bearer token answers 404, as if there were no such endpoint', async () => {
    const wrong: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      { cookie: admin },
    ];
    for (const headers of wrong) {
      const res: LightMyRequestResponse = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(expectEnvelope(res, 404).message, JSON.stringify(headers)).toBe(
        'No such endpoint: GET /api/metrics',
      );
    }
  });

  it('the right token gets the text format with every family, the process metrics included', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['x-request-id']).toBeDefined();
    const found = families(res.body);
    const expected = [
      'wfc_http_requests_total counter',
      'wfc_http_request_duration_seconds histogram',
      'wfc_sign_ins_total counter',
      'wfc_query_cache_hits_total counter',
      'wfc_query_cache_misses_total counter',
      'wfc_query_cache_bytes gauge',
      'wfc_session_cache_hits_total counter',
      'wfc_session_cache_misses_total counter',
      'process_cpu_seconds_total counter',
      'process_resident_memory_bytes gauge',
      'nodejs_heap_size_used_bytes gauge',
      'nodejs_eventloop_lag_seconds gauge',
    ];
    for (const family of expected) expect(found, family).toContain(family);
    // The pool exists on PostgreSQL only; the embedded database has one connection of its own.
    const pool = [
      'wfc_db_pool_connections gauge',
      'wfc_db_pool_max_connections gauge',
      'wfc_db_pool_waiting_queries gauge',
    ];
    for (const family of pool) expect(found.has(family), family).toBe(ON_POSTGRES);
    if (ON_POSTGRES) {
      expect(sample(res.body, 'wfc_db_pool_max_connections')).toBe(5);
      expect(sample(res.body, 'wfc_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    }
  });

  it('names the release and the Node.js running it in wfc_build_info, always 1', async () => {
    const text = await scrape();
    expect(families(text)).toContain('wfc_build_info gauge');
    const version = JSON.parse(
      await readFile(new URL('../../../package.json', import.meta.url), 'utf8'),
    ).version;
    expect(sample(text, 'wfc_build_info', { version, node: process.versions.node })).toBe(1);
    expect(text.match(/^wfc_build_info\{/gm)).toHaveLength(1);
  });

  it('counts requests and their durations by route pattern and status, never by raw URL', async () => {
    const labels = { method: 'GET', route: '/api/ProfilePicture/:profileCode/:variant', status: '404' };
    const before = sample(await scrape(), 'wfc_http_requests_total', labels) ?? 0;
    for (const code of ['PROFILE-AAAA', 'PROFILE-BBBB', 'PROFILE-CCCC']) {
      const res = await t.get(`ProfilePicture/${code}/thumbnail`, admin);
      expect(res.statusCode).toBe(404);
    }
    await t.get('NoSuchEndpoint-secret-looking-path', admin);
    const text = await scrape();
    expect(sample(text, 'wfc_http_requests_total', labels)).toBe(before + 3);
    expect(sample(text, 'wfc_http_request_duration_seconds_count', labels)).toBe(before + 3);
    expect(sample(text, 'wfc_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      before + 3,
    );
    expect(
      sample(text, 'wfc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    for (const raw of ['PROFILE-AAAA', 'secret-looking']) expect(text).not.toContain(raw);
    // The previous scrape is counted too: the counter grows with every answer.
    expect(
      sample(text, 'wfc_http_requests_total', { method: 'GET', route: '/api/metrics', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts sign-ins by outcome: success, failure and throttled', async () => {
    const count = (text: string, outcome: string) => sample(text, 'wfc_sign_ins_total', { outcome }) ?? -1;
    const before = await scrape();
    await t.login();
    const attempt = (password: string) => t.post('login', { username: 'nobody', password });
    expect((await attempt('wrong-password-1')).statusCode).toBe(401);
    expect((await attempt('wrong-password-2')).statusCode).toBe(401);
    expect((await attempt('wrong-password-3')).statusCode).toBe(429);
    const after = await scrape();
    expect(count(after, 'success') - count(before, 'success')).toBe(1);
    expect(count(after, 'failure') - count(before, 'failure')).toBe(2);
    expect(count(after, 'throttled') - count(before, 'throttled')).toBe(1);
  });

  it('counts query-cache and session-cache hits and misses', async () => {
    // Looks the session up again if the tests before changed what it reads (a sign-in does).
    expect((await t.get('GetSession', admin)).statusCode).toBe(200);
    const before = await scrape();
    const list = { keyword: 'metrics-cache-probe' };
    expect((await t.get('GetGenders', admin, list)).statusCode).toBe(200);
    expect((await t.get('GetGenders', admin, list)).statusCode).toBe(200);
    expect((await t.get('GetGenders', admin, list)).statusCode).toBe(200);
    const after = await scrape();
    const grew = (name: string) => (sample(after, name) ?? 0) - (sample(before, name) ?? 0);
    expect(grew('wfc_query_cache_misses_total')).toBeGreaterThanOrEqual(1);
    expect(grew('wfc_query_cache_hits_total')).toBeGreaterThanOrEqual(2);
    expect(grew('wfc_session_cache_hits_total')).toBe(3);
    expect(grew('wfc_session_cache_misses_total')).toBe(0);
  });
});
