import { type ListQuery, listQuerySchema } from '@wfc/contract';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLike } from '../../../src/db/like.ts';
import { ApiError } from '../../../src/http/envelope.ts';
import { audits$, roles$, users$ } from '../../../src/resources/definitions/access.ts';
import { cities$ } from '../../../src/resources/definitions/geography.ts';
import { profiles$ } from '../../../src/resources/definitions/people.ts';
import {
  FEW_CODES,
  FEW_MATCHES,
  indexedOrder,
  lookupShape,
  matchesFirst,
  matchesStatement,
  pageRows,
  pageWhere,
  prepareList,
  referencedCodesStatement,
  referencePath,
  shapeColumn,
  unpopulated,
} from '../../../src/resources/list-query.ts';
import { toRecord } from '../../../src/resources/read.ts';

const dialect = new PgDialect();
const render = (parts: SQL[]) => parts.map((p) => dialect.sqlToQuery(p).sql).join(', ');

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('escapeLike', () => {
  it('escapes the LIKE wildcards and the escape character itself', () => {
    expect(escapeLike('100%')).toBe('100\\%');
    expect(escapeLike('r_d')).toBe('r\\_d');
    expect(escapeLike('a\\b')).toBe('a\\\\b');
    expect(escapeLike('plain text')).toBe('plain text');
  });

  it('leaves no unescaped wildcard and loses nothing, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const escaped = escapeLike(s);
        expect(escaped.replace(/\\(.)/gsu, '$1')).toBe(s);
        expect(escaped.replace(/\\./gsu, '')).not.toMatch(/[%_\\]/);
      }),
    );
  });
});

/** A list request's query as its route's schema parses it. */
const parse = (raw: Record<string, string>, defaults?: Partial<ListQuery>) =>
  listQuerySchema({ defaults }).parse(raw);

describe('list query schema', () => {
  it('defaults to creation order, newest first, 10 a page', () => {
    expect(parse({})).toMatchObject({
      sortField: '_id',
      sortValue: 'desc',
      page: 1,
      limit: 10,
      populate: true,
    });
  });

  it('clamps the limit to 100 and normalises nonsense', () => {
    expect(parse({ limit: '1000', page: '0' })).toMatchObject({ limit: 100, page: 1 });
    expect(parse({ limit: '-5', sortValue: 'ASC ' })).toMatchObject({ limit: 10, sortValue: 'asc' });
    expect(parse({ populate: 'false' }).populate).toBe(false);
  });

  it('honours list-specific defaults', () => {
    expect(parse({}, { sortField: 'username', sortValue: 'asc' })).toMatchObject({
      sortField: 'username',
      sortValue: 'asc',
    });
  });

  it('turns on only the flags the list declares, unless given as false or 0', () => {
    const schema = listQuerySchema({ flags: ['assignable'] });
    expect([...schema.parse({ assignable: 'true', other: 'true' }).flags]).toEqual(['assignable']);
    expect(schema.parse({ assignable: '' }).flags.size).toBe(1);
    expect(schema.parse({ assignable: 'false' }).flags.size).toBe(0);
    expect(schema.parse({ assignable: '0' }).flags.size).toBe(0);
    expect(schema.parse({}).flags.size).toBe(0);
  });
});

describe('prepareList', () => {
  it('orders by creation, newest first, without a keyword by default', () => {
    const { orderBy, keyword } = prepareList(users$, parse({}));
    expect(render(orderBy)).toBe('"users"."id" desc');
    expect(keyword).toBeUndefined();
  });

  it('sorts by a joined name, with the id breaking ties in the same direction', () => {
    const { orderBy } = prepareList(users$, parse({ sortField: 'role.roleName', sortValue: 'asc' }));
    expect(render(orderBy)).toBe('"roles"."role_name" asc, "users"."id" asc');
  });

  it.each(['passwordHash', 'userCode', 'role.roleCode', 'role', 'username; drop table users'])(
    'refuses to sort by %s (400 on sortField)',
    (sortField) => {
      const err = refusal(() => prepareList(users$, parse({ sortField })));
      expect(err.statusCode).toBe(400);
      expect(err.errors).toEqual([{ field: 'sortField', message: `Cannot sort by '${sortField}'` }]);
    },
  );

  it('matches the keyword case-insensitively over every search path, escaped', () => {
    const { keyword, parts } = prepareList(users$, parse({ keyword: '  50%_off ' }));
    const q = dialect.sqlToQuery(keyword!);
    // A joined name is matched through the reference column, so each side can use its own index;
    // without the matching codes looked up, as a semi-join.
    expect(q.sql).toBe(
      '("users"."username" ilike $1 or "users"."email" ilike $2 or "users"."role_code" in (select "roles"."role_code" from "roles" where "roles"."role_name" ilike $3))',
    );
    expect(q.params).toEqual(['%50\\%\\_off%', '%50\\%\\_off%', '%50\\%\\_off%']);
    expect(parts?.map((p) => p.reference)).toEqual([false, false, true]);
    expect(matchesFirst(parts, false)).toBe(true);
  });

  it('writes the referenced codes the keyword matches as values, none as no condition', () => {
    const codes = (roleCodes: string[] | null) =>
      prepareList(users$, parse({ keyword: 'man' }), { codes: new Map([['role.roleName', roleCodes]]) });
    const some = codes(['ROLE-1', 'ROLE-2']);
    expect(dialect.sqlToQuery(some.keyword!).sql).toBe(
      '("users"."username" ilike $1 or "users"."email" ilike $2 or "users"."role_code" in ($3, $4))',
    );
    expect(dialect.sqlToQuery(codes([]).keyword!).sql).toBe(
      '("users"."username" ilike $1 or "users"."email" ilike $2)',
    );
    // Too many to write out: the semi-join.
    expect(dialect.sqlToQuery(codes(null).keyword!).sql).toContain('"users"."role_code" in (select');
  });

  it('looks the codes up for every reference path in one statement, no further than it needs', () => {
    const refs = cities$.search.flatMap((p) => referencePath(cities$, p) ?? []);
    expect(refs.map((r) => r.path)).toEqual(['state.name', 'country.name']);
    expect(referencePath(cities$, 'name')).toBeUndefined();
    const q = dialect.sqlToQuery(referencedCodesStatement(refs, '%san%'));
    expect(q.sql).toBe(
      `select (select case when count(*) <= ${FEW_CODES} then coalesce(array_agg(x.c), '{}') end from (select "states"."state_code" as c from "states" where "states"."name" ilike $1 limit ${FEW_CODES + 1}) x) as "r0", (select case when count(*) <= ${FEW_CODES} then coalesce(array_agg(x.c), '{}') end from (select "countries"."country_code" as c from "countries" where "countries"."name" ilike $2 limit ${FEW_CODES + 1}) x) as "r1"`,
    );
  });

  it('reads the page first when the keyword stays on the listed table and nothing filters it', () => {
    expect(matchesFirst(prepareList(roles$, parse({ keyword: 'man' })).parts, false)).toBe(false);
    expect(matchesFirst(prepareList(users$, parse({ keyword: 'ann' }), { lookup: true }).parts, false)).toBe(
      false,
    );
    expect(matchesFirst(undefined, false)).toBe(false);
    // A filter and a keyword are estimated as if independent: matches first.
    expect(matchesFirst(prepareList(audits$, parse({ keyword: 'ann' })).parts, true)).toBe(true);
    expect(matchesFirst(undefined, true)).toBe(true);
    // An action the keyword names is counted from its index: matches first.
    const matching = new Map([
      ['action', ['DELETE']],
      ['collection', []],
    ]);
    const { parts } = prepareList(audits$, parse({ keyword: 'delete' }), { matching });
    expect(parts?.map((p) => p.fewValues)).toEqual([true, false]);
    expect(matchesFirst(parts, false)).toBe(true);
  });

  it('knows which orders an index gives, so that a page can walk it', () => {
    const walks = (sortField: string) => prepareList(cities$, parse({ sortField })).sortWalks;
    expect(walks('_id')).toBe(true);
    expect(walks('name')).toBe(true);
    expect(walks('state.name')).toBe(false);
    expect(walks('createdAt')).toBe(false);
    expect(indexedOrder(audits$, audits$.shape.createdAt)).toBe(true);
    expect(indexedOrder(audits$, audits$.shape.changes)).toBe(false);
    // A trigram index does not give an order.
    expect(indexedOrder(users$, users$.shape.email)).toBe(false);
  });

  it('lets the selector view search and sort by the name only', () => {
    const lookup = { lookup: true };
    const { keyword, orderBy } = prepareList(
      users$,
      parse({ keyword: 'ann', sortField: 'username', sortValue: 'asc' }),
      lookup,
    );
    expect(dialect.sqlToQuery(keyword!).sql).toBe('("users"."username" ilike $1)');
    expect(render(orderBy)).toBe('"users"."username" asc, "users"."id" asc');
    expect(refusal(() => prepareList(users$, parse({ sortField: 'email' }), lookup)).statusCode).toBe(400);
    expect(refusal(() => prepareList(roles$, parse({ sortField: 'createdAt' }), lookup)).statusCode).toBe(
      400,
    );
    expect(render(prepareList(roles$, parse({ sortField: '_id' }), lookup).orderBy)).toBe(
      '"roles"."id" desc',
    );
  });
});

describe('matchesStatement', () => {
  const statement = (...args: Parameters<typeof matchesStatement>) =>
    dialect.sqlToQuery(matchesStatement(...args)).sql;

  it('counts each alternative through its own index, a row matching two once, with the ids of a few', () => {
    const { parts } = prepareList(cities$, parse({ keyword: 'san' }));
    const text = statement(cities$, { parts, filterPattern: false });
    // Every branch rechecks a pattern on its rows anyway: count and ids in one pass.
    expect(text).toMatch(
      new RegExp(
        `^select count\\(\\*\\)::int as n, case when count\\(\\*\\) <= ${FEW_MATCHES} then array_agg\\(m.id\\) end as ids from \\(`,
      ),
    );
    expect(text.split(' union ')).toHaveLength(3);
    expect(text).toContain('"cities"."state_code" in (select "states"."state_code"');
  });

  it('counts few values from their index alone, the other alternatives only where those miss', () => {
    const matching = new Map([
      ['action', ['DELETE']],
      ['collection', []],
    ]);
    const { parts } = prepareList(audits$, parse({ keyword: 'delete' }), { matching });
    const text = statement(audits$, { parts, filterPattern: false });
    expect(text).toMatch(/\(select count\(\*\) from "audits" where \("audits"."action" in \(\$\d+\)\)\)/);
    expect(text).toMatch(
      /"audits"."username" ilike \$\d+ and \("audits"."action" in \(\$\d+\)\) is not true/,
    );
    // No ids: reading them would read the rows the index alone counted.
    expect(text).not.toContain('array_agg');
  });

  it('counts nothing when no alternative is left', () => {
    const matching = new Map([
      ['action', []],
      ['collection', []],
    ]);
    // The selector view searches the action alone, and the keyword names no action.
    const { parts } = prepareList(audits$, parse({ keyword: 'x' }), { lookup: true, matching });
    expect(parts).toEqual([]);
    expect(statement(audits$, { parts, filterPattern: false })).toBe('select 0 as n');
  });
});

describe('the page of many or few matches', () => {
  const { parts, keyword } = prepareList(cities$, parse({ keyword: 'san' }));
  const where = (sortWalks: boolean) =>
    dialect.sqlToQuery(pageWhere(cities$, { parts, keyword, sortWalks, filterPattern: false })!).sql;

  it('reads a few matches by id, fenced so that the sort order is not walked for them', () => {
    const rows = pageRows(cities$, { ids: [3, 1] });
    expect(rows._.alias).toBe('cities');
    expect(dialect.sqlToQuery(rows._.sql).sql).toMatch(
      /^select "id", .*"name".* from "cities" where "cities"."id" in \(\$1, \$2\) limit \$3$/,
    );
  });

  it('walks the sort order for many matches when an index gives it', () => {
    expect(where(true)).toMatch(/^\("cities"."name" ilike \$1 or "cities"."state_code" in \(select/);
  });

  it('reads many matches by id from their indexes when no index gives the order', () => {
    expect(where(false)).toMatch(/^"cities"."id" = any\(array\(select "cities"."id" from "cities" where/);
  });
});

describe('record shapes', () => {
  it('resolves dotted paths to columns, and nothing else', () => {
    expect(shapeColumn(users$.shape, 'role.roleName')).toBeDefined();
    expect(shapeColumn(users$.shape, 'username')).toBeDefined();
    expect(shapeColumn(users$.shape, 'role')).toBeUndefined();
    expect(shapeColumn(users$.shape, 'username.x')).toBeUndefined();
    expect(shapeColumn(users$.shape, 'passwordHash')).toBeUndefined();
  });

  it('gives references as codes only, and keeps groups that are no reference', () => {
    const shape = unpopulated(profiles$.shape);
    expect(Object.keys(shape.user!)).toEqual(['userCode']);
    expect(Object.keys(shape.gender!)).toEqual(['genderCode']);
    expect(Object.keys(shape.country!)).toEqual(['countryCode']);
    expect(Object.keys(shape.picture!)).toEqual(['filename', 'extension', 'version']);
    expect(shape.firstName).toBe(profiles$.shape.firstName);
  });

  it('gives selectors the code and the name', () => {
    expect(Object.keys(lookupShape(users$))).toEqual(['userCode', 'username']);
    expect(Object.keys(lookupShape(roles$))).toEqual(['roleCode', 'roleName']);
  });

  it('turns dates into ISO strings and empty left joins into null, leaving JSON values alone', () => {
    const shape = { ...users$.shape, before: users$.shape.email! };
    const at = new Date('2024-05-06T07:08:09.000Z');
    const record = toRecord(
      {
        userCode: 'USER-1',
        role: { roleCode: null, roleName: null },
        createdAt: at,
        before: { address: { city: null, state: null }, changes: {} },
      },
      shape,
    );
    expect(record).toEqual({
      userCode: 'USER-1',
      role: null,
      createdAt: '2024-05-06T07:08:09.000Z',
      before: { address: { city: null, state: null }, changes: {} },
    });
    expect(toRecord({ role: { roleCode: 'ROLE-1', roleName: null } }, users$.shape)).toEqual({
      role: { roleCode: 'ROLE-1', roleName: null },
    });
  });
});
