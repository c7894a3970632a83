import { describe, expect, it } from 'vitest';
import { RefusalLimiter } from '../../../src/audit/refusals.ts';

describe('RefusalLimiter', () => {
  it('lets the same refusal through once a minute', () => {
    const limiter = new RefusalLimiter(60, 60_000);
    expect(limiter.allow('a', 0)).toBe(true);
    expect(limiter.allow('a', 59_999)).toBe(false);
    expect(limiter.allow('b', 59_999)).toBe(true);
    expect(limiter.allow('a', 60_000)).toBe(true);
  });

  it('lets at most the cap through in a minute, whatever the keys', () => {
    const limiter = new RefusalLimiter(5, 60_000);
    const allowed = Array.from({ length: 100 }, (_, i) => limiter.allow(`k${i}`, 1_000)).filter(Boolean);
    expect(allowed).toHaveLength(5);
    expect(limiter.allow('fresh', 61_000)).toBe(true);
  });
});
