import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { runEntryPoint } from '../../support/cli.ts';

describe('configuration', () => {
  it('treats an empty ADMIN_PASSWORD as unset, so a password is generated instead of an empty one', () => {
    expect(loadConfig({ ADMIN_PASSWORD: '' }).ADMIN_PASSWORD).toBeUndefined();
    expect(loadConfig({}).ADMIN_PASSWORD).toBeUndefined();
    expect(loadConfig({ ADMIN_PASSWORD: 'change-me-admin-1' }).ADMIN_PASSWORD).toBe('change-me-admin-1');
  });

  it('refuses to start with an ADMIN_PASSWORD weaker than the password rule', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'admin' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'onlyletterslong' })).toThrow(/number/);
  });

  it('defaults to secure-by-default limits and cookie settings', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      HOST: '127.0.0.1',
      COOKIE_SECURE: false,
      SESSION_IDLE_MINUTES: 30,
      SESSION_ABSOLUTE_HOURS: 12,
      LOGIN_MAX_FAILURES_PER_USER: 5,
      LOGIN_MAX_FAILURES_PER_IP: 50,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 20,
      LOGIN_THROTTLE_MINUTES: 15,
      TRUST_PROXY: false,
      CORS_ORIGINS: [],
    });
    expect(
      loadConfig({ COOKIE_SECURE: 'true', CORS_ORIGINS: ' https://a.example , https://b.example ' }),
    ).toMatchObject({
      COOKIE_SECURE: true,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
    });
    expect(() => loadConfig({ COOKIE_SECURE: 'yes' })).toThrow(/COOKIE_SECURE/);
  });

  it('trusts only the proxies it is told of: addresses, CIDR ranges or a hop count', () => {
    const trust = (v: string) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('10.0.0.0/8, 192.168.1.4')).toBe('10.0.0.0/8, 192.168.1.4');
    expect(trust(' 127.0.0.1 ')).toBe('127.0.0.1');
    expect(trust('::1,fd00::/8')).toBe('::1, fd00::/8');
    // A bare number counts hops, 1 included: it is never read as "true".
    for (const [value, trusted] of [
      ['1', [true, false]],
      ['2', [true, true, false]],
    ] as const) {
      const hops = trust(value);
      expect(typeof hops).toBe('function');
      if (typeof hops === 'function') {
        expect(trusted.map((_, hop) => hops('198.51.100.1', hop))).toEqual(trusted);
      }
    }
  });

  it('refuses TRUST_PROXY=true as ambiguous and says what to set instead', () => {
    for (const value of ['true', 'TRUE', ' true ']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /Invalid configuration:\n\s+TRUST_PROXY: TRUST_PROXY=true is ambiguous: set the proxy addresses or ranges \(e\.g\. 127\.0\.0\.1 or 10\.0\.0\.0\/8\) or the number of proxy hops/,
      );
    }
  });

  it('refuses proxy entries that are not addresses or ranges, and ranges that trust every client', () => {
    for (const value of ['proxy.example', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/', '10.0.0.1,,', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses proxy ranges that, together, hold any public address', () => {
    for (const [value, example] of [
      ['0.0.0.0/0', '0.0.0.0'],
      ['::/0', '::'],
      ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0'],
      ['::ffff:0.0.0.0/96', '0.0.0.0'],
      ['8.8.8.0/24', '8.8.8.0'],
      ['2000::/3', '2000::'],
      ['127.0.0.1, 10.0.0.0/8, 203.0.113.7', '203.0.113.7'],
    ] as const) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        `TRUST_PROXY: would believe clients at public addresses (${example} among them) about their own address; name only loopback or private proxies (e.g. 127.0.0.1 or 10.0.0.0/8), or the number of proxy hops`,
      );
    }
  });

  it('allows loopback, private, link-local, unique-local and CGNAT proxies, and hop counts', () => {
    for (const value of [
      '127.0.0.1',
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '::1',
      'fc00::/7',
      'fe80::/10',
      '100.64.0.0/10',
      '1',
      '2',
    ]) {
      expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY, value).not.toBe(false);
    }
  });

  it('does not start the server with such a range: the plain configuration error, exit code 1', {
    timeout: 60_000,
  }, async () => {
    const run = await runEntryPoint('main.ts', {
      env: { TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1', DATA_DIR: '/nonexistent/wfc-never-opened' },
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([
      'Invalid configuration:',
      '  TRUST_PROXY: would believe clients at public addresses (0.0.0.0 among them) about their own address; name only loopback or private proxies (e.g. 127.0.0.1 or 10.0.0.0/8), or the number of proxy hops',
    ]);
  });

  it('opens at most 10 PostgreSQL connections per instance unless PG_POOL_SIZE says otherwise', () => {
    expect(loadConfig({}).PG_POOL_SIZE).toBe(10);
    expect(loadConfig({ PG_POOL_SIZE: '24' }).PG_POOL_SIZE).toBe(24);
    expect(() => loadConfig({ PG_POOL_SIZE: '0' })).toThrow(/PG_POOL_SIZE/);
  });

  it('reads the account-wide sign-in limit, 20 failures by default', () => {
    expect(loadConfig({}).LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(20);
    expect(loadConfig({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '40' }).LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(40);
    for (const value of ['0', '-3', '2.5', 'many']) {
      expect(() => loadConfig({ LOGIN_MAX_FAILURES_PER_ACCOUNT: value }), value).toThrow(
        /LOGIN_MAX_FAILURES_PER_ACCOUNT/,
      );
    }
  });
});
