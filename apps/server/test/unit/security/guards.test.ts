import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashSessionId, newSessionId, sessionAlive } from '../../../src/auth/sessions.ts';
import { throttleKeys } from '../../../src/auth/throttle.ts';
import { allOf, allows, anyOf, publicAccess, sessionAccess } from '../../../src/http/routes.ts';
import { changesState, isCrossSite } from '../../../src/http/security.ts';

describe('cross-site refusal', () => {
  const host = 'console.example.com';
  const own = `https://${host}`;
  const check = (headers: Record<string, string>, allowed: string[] = []) =>
    isCrossSite(true, { host, ...headers }, allowed, 'https');

  it('refuses what the browser marks as coming from another site', () => {
    expect(check({ 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(check({ 'sec-fetch-site': 'same-site' })).toBe(true);
    expect(check({ origin: 'https://evil.example' })).toBe(true);
    expect(check({ origin: 'http://console.example.com' })).toBe(true);
    expect(check({ origin: 'null' })).toBe(true);
  });

  it('lets same-origin requests, allow-listed origins and non-browser clients through', () => {
    expect(check({ origin: own, 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(check({ 'sec-fetch-site': 'none' })).toBe(false);
    expect(check({})).toBe(false);
    expect(
      check({ origin: 'https://app.example.com', 'sec-fetch-site': 'cross-site' }, [
        'https://app.example.com',
      ]),
    ).toBe(false);
  });

  it('treats every method but GET, HEAD and OPTIONS as changing state, and sign-out too', () => {
    expect(changesState('POST', '/api/CreateRole')).toBe(true);
    expect(changesState('GET', '/api/logout')).toBe(true);
    expect(changesState('GET', '/api/GetRoles')).toBe(false);
    expect(changesState('HEAD', '/api/GetRoles')).toBe(false);
    expect(isCrossSite(false, { 'sec-fetch-site': 'cross-site' }, [], 'https')).toBe(false);
  });

  it('refuses any foreign origin, whatever it looks like', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const origin = new URL(url).origin;
        fc.pre(origin !== own);
        expect(check({ origin })).toBe(true);
      }),
    );
  });
});

describe('access rules', () => {
  const held = new Set(['VIEW_ROLES', 'CREATE_ROLE']);
  it('denies by default: no session passes nothing but public routes', () => {
    expect(allows(publicAccess, null)).toBe(true);
    expect(allows(sessionAccess, null)).toBe(false);
    expect(allows(anyOf('VIEW_ROLES'), null)).toBe(false);
    expect(allows(sessionAccess, new Set())).toBe(true);
  });

  it('needs one of an anyOf list and every one of an allOf list', () => {
    expect(allows(anyOf('VIEW_ROLES', 'VIEW_USERS'), held)).toBe(true);
    expect(allows(anyOf('VIEW_USERS'), held)).toBe(false);
    expect(allows(anyOf(), held)).toBe(false);
    expect(allows(allOf('VIEW_ROLES', 'CREATE_ROLE'), held)).toBe(true);
    expect(allows(allOf('VIEW_ROLES', 'UPDATE_ROLE'), held)).toBe(false);
  });
});

describe('session ids and liveness', () => {
  const policy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
  const now = new Date('2024-06-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('ends a session idle too long, or too old however active', () => {
    expect(sessionAlive({ createdAt: ago(60_000), lastSeenAt: ago(1000) }, policy, now)).toBe(true);
    expect(sessionAlive({ createdAt: ago(60_000), lastSeenAt: ago(policy.idleMs) }, policy, now)).toBe(false);
    expect(sessionAlive({ createdAt: ago(policy.absoluteMs), lastSeenAt: ago(0) }, policy, now)).toBe(false);
  });

  it('makes 128-bit ids that never repeat, stored only as a SHA-256 hash', () => {
    const ids = new Set(Array.from({ length: 2000 }, newSessionId));
    expect(ids.size).toBe(2000);
    const id = newSessionId();
    expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    expect(hashSessionId(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionId(id)).not.toContain(id);
  });

  it('counts sign-in failures per username whatever its case or padding', () => {
    expect(throttleKeys('  Admin ', '10.0.0.1')).toEqual(throttleKeys('admin', '10.0.0.1'));
    expect(throttleKeys('  Admin ', '10.0.0.1').account).toBe('user:admin');
  });
});
