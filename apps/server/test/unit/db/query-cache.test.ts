import { describe, expect, it } from 'vitest';
import { TableVersions } from '../../../src/db/changes.ts';
import { QueryCache } from '../../../src/db/query-cache.ts';
import { relationsOfPlan } from '../../../src/db/read-audit.ts';

function live() {
  const v = new TableVersions();
  v.listening();
  return v;
}

function counter<T>(value: () => T) {
  let calls = 0;
  return {
    read: async () => {
      calls++;
      return value();
    },
    get calls() {
      return calls;
    },
  };
}

describe('TableVersions', () => {
  it('gives no stamp until listening, and none after the connection is lost', () => {
    const v = new TableVersions();
    expect(v.stamp(['cities'])).toBeUndefined();
    v.listening();
    expect(v.stamp(['cities'])).toBeDefined();
    v.lost();
    expect(v.stamp(['cities'])).toBeUndefined();
  });

  it('changes the stamp of the tables named by a notification only', () => {
    const v = live();
    const cities = v.stamp(['cities', 'states']);
    const genders = v.stamp(['genders']);
    v.message('states');
    expect(v.stamp(['cities', 'states'])).not.toBe(cities);
    expect(v.stamp(['genders'])).toBe(genders);
  });

  it('never gives a stamp from before a reconnection again', () => {
    const v = live();
    const before = v.stamp(['cities']);
    v.lost();
    v.listening();
    expect(v.stamp(['cities'])).not.toBe(before);
  });

  it('settles once its own echo arrives, and treats a missing echo as a change to everything', async () => {
    const v = live();
    const before = v.stamp(['cities']);
    await v.settle(async (token) => v.message(token));
    expect(v.stamp(['cities'])).toBe(before);
    await v.settle(async () => {
      throw new Error('database gone');
    });
    expect(v.stamp(['cities'])).not.toBe(before);
  });

  it('does not take a sync token for a table', async () => {
    const v = live();
    const before = v.stamp(['cities']);
    await v.settle(async (token) => v.message(token));
    v.message('sync:nobody-waits');
    expect(v.stamp(['cities'])).toBe(before);
  });
});

describe('QueryCache', () => {
  it('reads once while the tables stay unchanged, and again after a change', async () => {
    const v = live();
    const cache = new QueryCache(v);
    const page = counter(() => ({ rows: [1, 2] }));
    expect(await cache.get(['k'], ['cities'], page.read)).toEqual({ rows: [1, 2] });
    await cache.get(['k'], ['cities'], page.read);
    expect(page.calls).toBe(1);
    v.message('cities');
    await cache.get(['k'], ['cities'], page.read);
    expect(page.calls).toBe(2);
    v.message('genders');
    await cache.get(['k'], ['cities'], page.read);
    expect(page.calls).toBe(2);
  });

  it('reads every time without versions or while blind', async () => {
    const page = counter(() => 1);
    const none = new QueryCache(undefined);
    await none.get(['k'], ['t'], page.read);
    await none.get(['k'], ['t'], page.read);
    expect(page.calls).toBe(2);
    const v = new TableVersions();
    const blind = new QueryCache(v);
    await blind.get(['k'], ['t'], page.read);
    await blind.get(['k'], ['t'], page.read);
    expect(page.calls).toBe(4);
  });

  it('does not keep a result when a change arrived while it was read', async () => {
    const v = live();
    const cache = new QueryCache(v);
    let calls = 0;
    const read = async () => {
      calls++;
      if (calls === 1) v.message('t');
      return calls;
    };
    expect(await cache.get(['k'], ['t'], read)).toBe(1);
    expect(await cache.get(['k'], ['t'], read)).toBe(2);
    expect(await cache.get(['k'], ['t'], read)).toBe(2);
  });

  it('shares one read between concurrent callers of a key', async () => {
    const cache = new QueryCache(live());
    let release: (n: number) => void = () => {};
    let calls = 0;
    const read = () => {
      calls++;
      return new Promise<number>((r) => {
        release = r;
      });
    };
    const a = cache.get(['k'], ['t'], read);
    const b = cache.get(['k'], ['t'], read);
    release(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(calls).toBe(1);
  });

  it('does not keep a failed read', async () => {
    const cache = new QueryCache(live());
    await expect(cache.get(['k'], ['t'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get(['k'], ['t'], async () => 3)).toBe(3);
  });

  it('drops the least recently used entries beyond its budget', async () => {
    const cache = new QueryCache(live(), 16_000);
    const big = 'x'.repeat(300);
    for (let i = 0; i < 40; i++) await cache.get([`k${i}`], ['t'], async () => big);
    expect(cache.size).toBeLessThanOrEqual(16_000);
    const again = counter(() => big);
    await cache.get(['k39'], ['t'], again.read);
    await cache.get(['k0'], ['t'], again.read);
    expect(again.calls).toBe(1);
  });
});

describe('structured keys and read checks', () => {
  it('tells keys apart part by part, whatever the parts hold', async () => {
    const cache = new QueryCache(live());
    const page = counter(() => 1);
    await cache.get(['list', 'a\u0000b', 'c'], ['t'], page.read);
    await cache.get(['list', 'a', 'b\u0000c'], ['t'], page.read);
    await cache.get(['list', { page: 1, limit: 10 }], ['t'], page.read);
    await cache.get(['list', { page: 1, limit: 10 }], ['t'], page.read);
    expect(page.calls).toBe(3);
  });

  it('runs every read through the check, which sees the key and the declared tables', async () => {
    const seen: unknown[] = [];
    const cache = new QueryCache(live(), undefined, async (key, tables, read) => {
      seen.push([key, tables]);
      return read();
    });
    expect(await cache.get(['k'], ['t'], async () => 7)).toBe(7);
    expect(seen).toEqual([[['k'], ['t']]]);
  });
});

describe('relationsOfPlan', () => {
  it('finds every scanned table at any depth of a plan', () => {
    const plan = [
      {
        Plan: {
          'Node Type': 'Hash Join',
          Plans: [
            { 'Node Type': 'Seq Scan', 'Relation Name': 'users' },
            { 'Node Type': 'Hash', Plans: [{ 'Node Type': 'Index Scan', 'Relation Name': 'roles' }] },
          ],
        },
      },
    ];
    expect([...relationsOfPlan(plan)].sort()).toEqual(['roles', 'users']);
  });
});
