import { type ListQuery, listQuerySchema } from '@wfc/contract';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLike } from '../../../src/db/like.ts';
import { ApiError } from '../../../src/http/envelope.ts';
import { roles$, users$ } from '../../../src/resources/definitions/access.ts';
import { profiles$ } from '../../../src/resources/definitions/people.ts';
import { toRecord } from '../../../src/resources/engine.ts';
import { lookupShape, prepareList, shapeColumn, unpopulated } from '../../../src/resources/list-query.ts';

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
    const { keyword } = prepareList(users$, parse({ keyword: '  50%_off ' }));
    const q = dialect.sqlToQuery(keyword!);
    // A joined name is matched through the reference column, so each side can use its own index.
    expect(q.sql).toBe(
      '("users"."username" ilike $1 or "users"."email" ilike $2 or "users"."role_code" = any(array(select "roles"."role_code" from "roles" where "roles"."role_name" ilike $3)))',
    );
    expect(q.params).toEqual(['%50\\%\\_off%', '%50\\%\\_off%', '%50\\%\\_off%']);
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
