import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig, originProblem } from '../../../src/config/config.ts';
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

  it('takes only a PostgreSQL URL as DATABASE_URL, and never repeats it (it may hold a password)', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    for (const url of ['postgres://u:p@db/console', 'postgresql://db:6432/console?sslmode=require']) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
    const problem = (url: string) => {
      try {
        loadConfig({ DATABASE_URL: url });
        return undefined;
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problem('mysql://root:s3cret@db/console')).toEqual([
      'DATABASE_URL: mysql:// is not PostgreSQL, the only server the console runs on: set a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/database, or unset it for the embedded database',
    ]);
    expect(problem('s3cret not a url')).toEqual([
      'DATABASE_URL: is not a URL: set a PostgreSQL URL such as postgres://user:password@host:5432/database, or unset it for the embedded database',
    ]);
  });

  it('takes CORS_ORIGINS entries only as a browser sends an origin: scheme://host[:port]', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://console.example.com, http://localhost:5173' }).CORS_ORIGINS,
    ).toEqual(['https://console.example.com', 'http://localhost:5173']);
    for (const entry of ['notaurl', 'console.example.com', 'ftp://files.example.com']) {
      expect(originProblem(entry), entry).toBe(
        `"${entry}" is not an origin: write scheme://host[:port], such as https://console.example.com or http://localhost:5173`,
      );
    }
    // Each would never equal the Origin header, so the split deployment would be refused unexplained.
    expect(originProblem('https://console.example.com/')).toBe(
      '"https://console.example.com/" is not an origin as a browser sends it: write https://console.example.com',
    );
    expect(originProblem('https://Console.example.com:443')).toBe(
      '"https://Console.example.com:443" is not an origin as a browser sends it: write https://console.example.com',
    );
    expect(originProblem('http://localhost:5173/app')).toMatch(/write http:\/\/localhost:5173$/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example.com,notaurl' })).toThrow(
      /CORS_ORIGINS: "notaurl" is not an origin/,
    );
  });

  it('migrates at start unless MIGRATE_ON_START is false', () => {
    expect(loadConfig({}).MIGRATE_ON_START).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: '' }).MIGRATE_ON_START).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: 'true' }).MIGRATE_ON_START).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
    expect(loadConfig({ MIGRATE_ON_START: '0' }).MIGRATE_ON_START).toBe(false);
    expect(() => loadConfig({ MIGRATE_ON_START: 'no' })).toThrow(/MIGRATE_ON_START/);
  });

  it("times out the server's statements after 30 s unless PG_STATEMENT_TIMEOUT_MS says otherwise (0: never)", () => {
    expect(loadConfig({}).PG_STATEMENT_TIMEOUT_MS).toBe(30_000);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '' }).PG_STATEMENT_TIMEOUT_MS).toBe(30_000);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '5000' }).PG_STATEMENT_TIMEOUT_MS).toBe(5000);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '0' }).PG_STATEMENT_TIMEOUT_MS).toBe(0);
    for (const value of ['-1', '2.5', 'soon', '9999999999']) {
      expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: value }), value).toThrow(/PG_STATEMENT_TIMEOUT_MS/);
    }
  });
});
