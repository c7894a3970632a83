import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { allRoutes } from '../../../src/app.ts';
import type { ApiRoute } from '../../../src/http/routes.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { junk } from '../../unit/security/arbitraries.ts';
import { multipartBody } from './helpers.ts';

/**
 * Random requests per endpoint family. CI sends a few hundred per family; set FUZZ_RUNS=10000 for
 * the full run (docs/security.md gives its figures).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

const t = sharedTestApp();
let admin: string;
beforeAll(async () => {
  admin = (await t.userWith(ALL_PERMISSION_NAMES, { signIn: 'session' })).cookie;
});

const routes = allRoutes();
const family = (test: (r: ApiRoute) => boolean) => routes.filter(test);
const FAMILIES: [string, ApiRoute[]][] = [
  ['sign-in and session', family((r) => ['login', 'logout', 'GetSession'].includes(r.path))],
  ['lists', family((r) => r.method === 'GET' && r.path.startsWith('Get'))],
  ['reads by code', family((r) => r.method === 'POST' && r.path.startsWith('Get'))],
  ['creates', family((r) => (r.path.startsWith('Create') && !r.multipart) || r.path === 'register')],
  ['updates', family((r) => r.path.startsWith('Update') && !r.multipart)],
  ['deletes', family((r) => r.path.startsWith('Delete'))],
  ['multipart profiles', family((r) => Boolean(r.multipart))],
  [
    'pictures and exports',
    family((r) => r.method === 'GET' && !r.path.startsWith('Get') && r.path !== 'logout'),
  ],
];

/** Field names the route's schema knows, so that random values reach its validation. */
function fieldNames(schema: ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'true', 'false', '0', '-1', '1e309', 'null', '2024-02-30', 'PERM-X', 'x'.repeat(300)),
  fc.integer().map(String),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const keyFor = (names: string[]) =>
  fc.oneof(
    names.length ? fc.constantFrom(...names) : fc.constant('name'),
    fc.string({ maxLength: 12 }),
    fc
      .tuple(
        names.length ? fc.constantFrom(...names) : fc.constant('a'),
        fc.array(fc.oneof(fc.nat(30).map(String), fc.string({ maxLength: 6 })), {
          minLength: 1,
          maxLength: 7,
        }),
      )
      .map(([k, path]) => `${k}${path.map((p) => `[${p}]`).join('')}`),
  );

/** A request as any client could write it: a form, JSON, multipart, raw bytes or a wrong type. */
const request = (r: ApiRoute) => {
  const names = [...fieldNames(r.body), 'page', 'limit', 'keyword', 'sortField', 'sortValue', 'date'];
  const pairs = fc.array(fc.tuple(keyFor(names), value), { maxLength: 12 });
  const encode = (ps: [string, string][]) =>
    ps
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, ''))}`)
      .join('&');
  const body = fc.oneof(
    pairs.map((ps) => ({
      type: 'application/x-www-form-urlencoded',
      payload: encode(ps) as string | Buffer,
    })),
    fc
      .string({ maxLength: 200 })
      .map((s) => ({ type: 'application/x-www-form-urlencoded', payload: s as string | Buffer })),
    junk.map((j) => {
      try {
        return { type: 'application/json', payload: (JSON.stringify(j) ?? 'null') as string | Buffer };
      } catch {
        return { type: 'application/json', payload: '{' as string | Buffer };
      }
    }),
    pairs.map((ps) => {
      const m = multipartBody(
        Object.fromEntries(ps.map(([k, v]) => [k.replace(/["\r\n]/g, ''), v.replace(/\r|\n/g, ' ')])),
        { filename: 'x.png', type: 'image/png', data: Buffer.from('not really an image') },
      );
      return { type: m.contentType, payload: m.payload as string | Buffer };
    }),
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data',
        'application/json; charset=utf-16',
      )
      .map((type) => ({
        type,
        payload: 'a=1' as string | Buffer,
      })),
  );
  return fc.record({ query: pairs.map(encode), body });
};

describe(`random requests per endpoint family never give a 5xx (${RUNS} per family; FUZZ_RUNS sets the count)`, () => {
  for (const [name, members] of FAMILIES) {
    it(
      `${name}: ${members.map((r) => r.path).join(', ')}`,
      async () => {
        expect(members.length).toBeGreaterThan(0);
        const seen = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(
            fc.nat(members.length - 1).chain((i) => request(members[i]!).map((req) => ({ i, req }))),
            async ({ i, req }) => {
              const r = members[i]!;
              const cookie =
                r.path === 'logout' ? (await t.userWith([], { signIn: 'session' })).cookie : admin;
              const path = r.path.replace(/:(\w+)/g, (_m, n: string) =>
                n === 'variant' ? 'thumbnail' : 'PROFILE-X',
              );
              const res = await t.app.inject({
                method: r.method,
                url: `/api/${path}${req.query ? `?${req.query}` : ''}`,
                ...(r.method === 'POST' ? { payload: req.body.payload } : {}),
                headers: { cookie, ...(r.method === 'POST' ? { 'content-type': req.body.type } : {}) },
              });
              seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
              expect(res.statusCode, `${r.method} ${r.path}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
              if (String(res.headers['content-type']).startsWith('application/json')) expectEnvelope(res);
            },
          ),
          { numRuns: RUNS },
        );
        // Every request was answered on purpose, mostly with a refusal of the input.
        expect([...seen.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
      },
      60_000 + RUNS * 200,
    );
  }
});
