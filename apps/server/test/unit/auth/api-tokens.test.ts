import { describe, expect, it } from 'vitest';
import {
  addressAllowed,
  apiTokenPrefixOf,
  bearerToken,
  newApiTokenSecret,
  TokenRateLimiter,
} from '../../../src/auth/api-tokens.ts';

describe('API token secrets', () => {
  it('are wfc_ and 43 base64url characters (256 bits), each new', () => {
    const a = newApiTokenSecret();
    expect(a).toMatch(/^wfc_[A-Za-z0-9_-]{43}$/);
    expect(newApiTokenSecret()).not.toBe(a);
    expect(apiTokenPrefixOf(a)).toBe(a.slice(0, 10));
  });

  it('are read from a Bearer header only', () => {
    expect(bearerToken('Bearer wfc_abc')).toBe('wfc_abc');
    expect(bearerToken('bearer  wfc_abc ')).toBe('wfc_abc');
    expect(bearerToken('Basic d2ZjOmFiYw==')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('addressAllowed', () => {
  it('allows any address with an empty list', () => {
    expect(addressAllowed([], '203.0.113.9')).toBe(true);
  });

  it.each([
    [['10.0.0.0/8'], '10.255.1.2', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['203.0.113.7'], '203.0.113.7', true],
    [['203.0.113.7'], '203.0.113.8', false],
    [['10.0.0.0/8'], '::ffff:10.1.2.3', true],
    [['::ffff:10.0.0.0/104'], '10.9.9.9', true],
    [['2001:db8::/32'], '2001:db8:1::5', true],
    [['2001:db8::/32'], '2001:db9::5', false],
    [['2001:db8::/32'], '10.0.0.1', false],
    [['0.0.0.0/0'], '198.51.100.1', true],
    [['10.0.0.0/8'], 'not an address', false],
  ] as const)('%j from %s: %s', (list, address, allowed) => {
    expect(addressAllowed(list, address)).toBe(allowed);
  });
});

describe('TokenRateLimiter', () => {
  it('allows the rate in a burst, then asks to wait, and refills over time', () => {
    const limiter = new TokenRateLimiter(3);
    const t0 = 1_000_000;
    expect([limiter.take('A', t0), limiter.take('A', t0), limiter.take('A', t0)]).toEqual([0, 0, 0]);
    expect(limiter.take('A', t0)).toBe(20);
    // Other tokens have buckets of their own.
    expect(limiter.take('B', t0)).toBe(0);
    // One call comes back every 20 s at 3 a minute.
    expect(limiter.take('A', t0 + 20_000)).toBe(0);
    expect(limiter.take('A', t0 + 20_000)).toBeGreaterThan(0);
  });
});
