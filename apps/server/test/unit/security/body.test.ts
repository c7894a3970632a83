import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkJsonText,
  findUnsafeInput,
  MAX_ARRAY_ITEMS,
  MAX_INPUT_DEPTH,
  MAX_PARAMETERS,
  parseBracketBody,
} from '../../../src/http/body.ts';
import { formEncode } from '../../support/requests.ts';

/** Keys as forms use them: never numeric (qs reads those as array indexes) nor bracketed. */
const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,9}$/);
/** Any text a user could type, including `&`, `=`, `[`, `%` and non-Latin scripts. */
const text = fc.string({ unit: 'grapheme', maxLength: 30 });

/** Nested values as the forms send them: objects and arrays down to the parser's depth limit. */
const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
  tree: fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 5 }),
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    text,
    fc.array(text, { minLength: 1, maxLength: 5 }),
    fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
    fc.array(fc.dictionary(key, text, { minKeys: 1, maxKeys: 3 }), { minLength: 1, maxLength: 3 }),
  ),
}));

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('bracket body parsing', () => {
  it('reads back exactly what the browser encoded', () => {
    fc.assert(
      fc.property(tree, (body) => {
        const parsed = parseBracketBody(formEncode(body as Record<string, unknown>));
        expect(plain(parsed)).toEqual(body);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads the shapes the forms send', () => {
    expect(plain(parseBracketBody('rolePermissions%5B0%5D=PERM-A&rolePermissions%5B1%5D=PERM-B'))).toEqual({
      rolePermissions: ['PERM-A', 'PERM-B'],
    });
    expect(plain(parseBracketBody('address[countryCode]=C1&notification[email]=true&name=a+b'))).toEqual({
      address: { countryCode: 'C1' },
      notification: { email: 'true' },
      name: 'a b',
    });
  });

  it('never lets a key reach a prototype, whatever the input', () => {
    const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
    const hostile = fc
      .array(
        fc.tuple(
          fc.array(fc.oneof(hostileKey, key), { minLength: 1, maxLength: 4 }),
          fc.string({ maxLength: 5 }),
        ),
        { maxLength: 6 },
      )
      .map((pairs) =>
        pairs
          .map(([path, v]) => `${path[0]}${path.slice(1).map((p) => `[${p}]`)}=${encodeURIComponent(v)}`)
          .join('&'),
      );
    fc.assert(
      fc.property(hostile, (body) => {
        let parsed: Record<string, unknown> = {};
        try {
          parsed = parseBracketBody(body);
        } catch {
          return;
        }
        expect(Object.getPrototypeOf(parsed)).toBeNull();
        expect(Object.hasOwn(parsed, '__proto__')).toBe(false);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype.toString.call({})).toBe('[object Object]');
      }),
      { numRuns: 1000 },
    );
    parseBracketBody('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses nesting beyond its depth instead of flattening it silently', () => {
    expect(() => parseBracketBody('a[b][c][d][e][f]=1')).not.toThrow();
    expect(() => parseBracketBody('a[b][c][d][e][f][g]=1')).toThrow(
      expect.objectContaining({ statusCode: 400, message: 'Malformed form body' }),
    );
  });

  it('orders and compacts indexed keys as arrays, whatever order they arrive in', () => {
    expect(plain(parseBracketBody('a[2]=c&a[0]=a&a[10]=d&a[1]=b'))).toEqual({ a: ['a', 'b', 'c', 'd'] });
    expect(plain(parseBracketBody('a[]=x&a[]=y'))).toEqual({ a: ['x', 'y'] });
    expect(plain(parseBracketBody('a[0][b]=1&a[0][c]=2&a[1][b]=3'))).toEqual({
      a: [{ b: '1', c: '2' }, { b: '3' }],
    });
    // Mixed keys stay an object, which the schemas then refuse.
    expect(plain(parseBracketBody('a[x]=1&a[0]=2'))).toEqual({ a: { 0: '2', x: '1' } });
    expect(plain(parseBracketBody('a[01]=1'))).toEqual({ a: { '01': '1' } });
    expect(plain(parseBracketBody('0=a&1=b'))).toEqual({ 0: 'a', 1: 'b' });
  });

  // Timed: retried, so that a busy moment of a shared machine is not taken for quadratic time.
  it('parses a body of many indexed keys in linear time (it used to block the event loop for seconds)', {
    retry: 2,
  }, () => {
    const body = Array.from({ length: MAX_ARRAY_ITEMS }, (_, i) => `a[${i}][x]=${i}`).join('&');
    const started = performance.now();
    const parsed = parseBracketBody(body);
    expect(performance.now() - started).toBeLessThan(1500);
    expect((parsed.a as unknown[]).length).toBe(MAX_ARRAY_ITEMS);
  });

  it('refuses more parameters or array items than any form sends, rather than dropping some silently', () => {
    const params = Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => `k${i}=1`).join('&');
    expect(() => parseBracketBody(params)).toThrow('Too many form fields');
    const items = Array.from({ length: MAX_ARRAY_ITEMS + 1 }, (_, i) => `a[${i}]=1`).join('&');
    expect(() => parseBracketBody(items)).toThrow('Too many form fields');
  });

  it('keeps the first of duplicated parameters', () => {
    expect(parseBracketBody('genderName=first&genderName=second').genderName).toBe('first');
  });

  it('refuses percent-escapes that are not UTF-8, and never yields malformed text', () => {
    for (const bad of ['a=%', 'a=%FF', 'a=%E2%82', 'a=%ED%A0%80', '%C0%AF=1', 'a=%zz']) {
      expect(() => parseBracketBody(bad), bad).toThrow();
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (raw) => {
        let parsed: Record<string, unknown>;
        try {
          parsed = parseBracketBody(raw);
        } catch (err) {
          // Every refusal carries the status the API answers with, never a bare error (a 500).
          expect([400, 413]).toContain((err as { statusCode?: number }).statusCode);
          return;
        }
        const problem = findUnsafeInput(parsed);
        // NUL is valid UTF-8 and is refused later; anything else must come out well-formed.
        if (problem) expect(JSON.stringify(parsed)).toContain('\\u0000');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('findUnsafeInput', () => {
  it('accepts ordinary text in every script', () => {
    expect(findUnsafeInput({ name: 'Zoë 李 😀', list: ['a', { b: 'ç' }] })).toBeUndefined();
  });

  it('names the field holding NUL or half a surrogate pair', () => {
    expect(findUnsafeInput({ a: { b: 'x\u0000' } })).toEqual({
      field: 'a.b',
      message: 'Contains characters that are not allowed',
    });
    expect(findUnsafeInput({ list: ['ok', 'bad\uD800'] })?.field).toBe('list.1');
    expect(findUnsafeInput({ s: '\uDC00x' })?.field).toBe('s');
    expect(findUnsafeInput({ 'k\u0000': 'v' })).toBeDefined();
    expect(findUnsafeInput('\u0000')?.field).toBe('_');
  });

  it('refuses nesting deeper than any form, without recursing', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeInput(deep)).toEqual({ field: expect.any(String), message: 'Nested too deeply' });
    let ok: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) ok = { a: ok };
    expect(findUnsafeInput(ok)).toBeUndefined();
  });
});

describe('JSON text check', () => {
  const refusal = (text: string, max = 1_000) => {
    try {
      checkJsonText(text, max);
      return undefined;
    } catch (err) {
      const e = err as { statusCode: number; message: string; errors?: { field: string; message: string }[] };
      return {
        status: e.statusCode,
        message: e.errors?.[0]?.message ?? e.message,
        field: e.errors?.[0]?.field,
      };
    }
  };

  it('refuses duplicate keys however they are spelt or nested, and only within one object', () => {
    expect(refusal('{"a":1,"a":2}')).toMatchObject({ status: 400, message: 'Duplicate key: a' });
    expect(refusal('{"a":1,"\\u0061":2}')).toMatchObject({ status: 400, message: 'Duplicate key: a' });
    expect(refusal('{"x":{"y":[{"a":1, "a" :2}]}}')).toMatchObject({ status: 400 });
    const wide = `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`;
    expect(refusal(wide)).toMatchObject({ status: 400, message: 'Duplicate key: k7' });
    expect(refusal('[{"a":1},{"a":2}]')).toBeUndefined();
    expect(refusal('{"a":{"b":1},"b":{"a":2}}')).toBeUndefined();
    // Quotes, colons and braces inside strings are text, not structure.
    expect(refusal('{"x":"\\"a\\":{[","a":"}","y":"\\\\","b":1}')).toBeUndefined();
  });

  it('refuses prototype keys, deep nesting (naming the path) and too many values', () => {
    expect(refusal('{"__proto__":{"admin":true}}')).toMatchObject({ status: 400 });
    expect(refusal('{"a":{"constructor":{"prototype":1}}}')).toMatchObject({ status: 400 });
    expect(refusal(`{"a":[${'['.repeat(20)}${']'.repeat(20)}]}`)).toMatchObject({
      status: 400,
      message: 'Nested too deeply',
      field: 'a.0.0.0.0.0.0.0',
    });
    expect(refusal(`[${'1,'.repeat(1_000)}1]`, 1_000)).toMatchObject({ status: 413 });
    expect(refusal(`[${'1,'.repeat(998)}1]`, 1_000)).toBeUndefined();
  });

  it('accepts whatever JSON.stringify writes within the depth limit (property)', () => {
    const safeKey = fc
      .string({ maxLength: 8 })
      .filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: MAX_INPUT_DEPTH - 1 },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(safeKey, tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        expect(() => checkJsonText(JSON.stringify(v), 100_000)).not.toThrow();
      }),
    );
  });

  // Timed: retried, as above.
  it('takes time linear in the size of the text', { retry: 2 }, () => {
    const body = (rows: number) =>
      JSON.stringify({
        rows: Array.from({ length: rows }, (_, i) => ({ code: `C-${i}`, cells: [1, 2, 3] })),
      });
    // The fastest of several runs: other work on the machine only ever adds time, so the minimum
    // is the check's own cost. Four times the text takes about 4 times as long; quadratic, 16.
    const time = (text: string) => {
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        checkJsonText(text, 10_000_000);
        fastest = Math.min(fastest, performance.now() - started);
      }
      return fastest;
    };
    const small = body(20_000);
    const large = body(80_000);
    time(small);
    expect(time(large) / time(small)).toBeLessThan(10);
  });
});
