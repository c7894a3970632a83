import { describe, expect, it } from 'vitest';
import { blockLadder, throttleKeys } from '../../../src/auth/throttle.ts';

const MIN = 60_000;

describe('sign-in block delays', () => {
  it('start at a minute and double with each further failure, capped at the window', () => {
    expect(blockLadder(15 * MIN)).toEqual([1, 2, 4, 8, 15].map((m) => m * MIN));
    expect(blockLadder(16 * MIN)).toEqual([1, 2, 4, 8, 16].map((m) => m * MIN));
    expect(blockLadder(60 * MIN)).toEqual([1, 2, 4, 8, 16, 32, 60].map((m) => m * MIN));
  });

  it('never exceed a window shorter than the first step', () => {
    expect(blockLadder(MIN)).toEqual([MIN]);
    expect(blockLadder(30_000)).toEqual([30_000]);
  });

  it('take a first step of another length when asked', () => {
    expect(blockLadder(10_000, 1_000)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000]);
  });
});

describe('sign-in throttle keys', () => {
  it('name one account whatever its letter case or padding', () => {
    expect(throttleKeys('  Victim ', '192.0.2.1')).toEqual(throttleKeys('victim', '192.0.2.1'));
  });

  it('give the account, the address and the pair keys that never collide', () => {
    const keys = throttleKeys('victim', '192.0.2.1');
    expect(new Set(Object.values(keys)).size).toBe(3);
    // A name shaped like an address, or like an address-and-name, is still only a name.
    for (const name of ['192.0.2.1 victim', 'ip:192.0.2.1', '["192.0.2.1","victim"]']) {
      const tricky = throttleKeys(name, '192.0.2.1');
      expect(Object.values(keys)).not.toContain(tricky.account);
      expect(Object.values(keys)).not.toContain(tricky.accountAtAddress);
    }
    expect(throttleKeys('a b', '2001:db8::1').accountAtAddress).not.toBe(
      throttleKeys('b', '2001:db8::1 a').accountAtAddress,
    );
  });
});
