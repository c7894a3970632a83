import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';

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

  it('trusts only the proxies it is told of, never every hop of X-Forwarded-For', () => {
    const trust = (v: string) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe('loopback, linklocal, uniquelocal');
    expect(trust('10.0.0.0/8, 192.168.1.4')).toBe('10.0.0.0/8, 192.168.1.4');
    const twoHops = trust('2');
    expect(typeof twoHops).toBe('function');
    if (typeof twoHops === 'function') {
      expect([0, 1, 2].map((hop) => twoHops('198.51.100.1', hop))).toEqual([true, true, false]);
    }
  });
});
