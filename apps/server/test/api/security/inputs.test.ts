import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/auth/passwords.ts';
import { departments, genders, permissions, roles, users } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { inputs, junk } from '../../unit/security/arbitraries.ts';

const t = sharedTestApp();
let admin: string;
let roleCode: string;
let permissionCodes: string[];
beforeAll(async () => {
  admin = await t.login();
  roleCode = (await t.handle.db.select({ roleCode: roles.roleCode }).from(roles))[0]!.roleCode;
  permissionCodes = (await t.handle.db.select({ c: permissions.permissionCode }).from(permissions)).map(
    (r) => r.c,
  );
});

type Body = Record<string, unknown>;
let serial = 0;
/** Names must be unique; a counter keeps generated ones apart without making them invalid. */
const unique = (s: string) => `${s.trim().slice(0, 80)} ${++serial}`;

const raw = (
  method: 'GET' | 'POST',
  url: string,
  payload: string | undefined,
  type?: string,
  cookie = admin,
) =>
  t.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload }),
    headers: { ...(type ? { 'content-type': type } : {}), cookie },
  });
const FORM = 'application/x-www-form-urlencoded';

/** JSON text of anything fast-check makes, including values JSON cannot hold. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '{}';
  }
}
const JSON_TYPE = 'application/json';

describe('valid generated input is accepted through the API and stored trimmed', () => {
  const cases: {
    endpoint: string;
    arb: fc.Arbitrary<Body>;
    prepare?: (b: Body) => Promise<Body> | Body;
    check: string;
  }[] = [
    {
      endpoint: 'CreateGender',
      arb: inputs.gender,
      prepare: (b) => ({ genderName: unique(b.genderName as string) }),
      check: 'genderName',
    },
    {
      endpoint: 'CreateDepartment',
      arb: inputs.department,
      prepare: (b) => ({ name: unique(b.name as string) }),
      check: 'name',
    },
    {
      endpoint: 'CreateSkill',
      arb: inputs.skill,
      prepare: (b) => ({ ...b, title: unique(b.title as string) }),
      check: 'title',
    },
    {
      endpoint: 'CreateRole',
      arb: inputs.role,
      prepare: (b) => ({
        ...b,
        roleName: unique(b.roleName as string),
        rolePermissions: permissionCodes.slice(0, serial % 7),
      }),
      check: 'roleName',
    },
    {
      endpoint: 'register',
      arb: inputs.user,
      prepare: (b) => {
        const n = ++serial;
        return {
          ...b,
          username: `${(b.username as string).slice(0, 40)}${n}`,
          email: `u${n}.${b.email}`,
          roleCode,
        };
      },
      check: 'username',
    },
    {
      endpoint: 'CreateEmployee',
      arb: inputs.employee,
      prepare: async (b) => {
        const dept = await t.post('CreateDepartment', { name: unique('Dept') }, admin);
        return {
          ...b,
          employeeId: `${b.employeeId}-${++serial}`,
          departmentCode: dept.json().data.departmentCode,
          userCode: '',
        };
      },
      check: 'name',
    },
  ];

  for (const c of cases) {
    it(c.endpoint, async () => {
      await fc.assert(
        fc.asyncProperty(c.arb, fc.boolean(), async (generated, asJson) => {
          const body = c.prepare ? await c.prepare(generated) : generated;
          const res = asJson
            ? await t.postJson(c.endpoint, body, admin)
            : await t.post(c.endpoint, body, admin);
          const envelope = expectEnvelope(res, 200);
          const data = envelope.data as Body;
          expect(data[c.check]).toBe((body[c.check] as string).trim());
        }),
        { numRuns: 15 },
      );
    });
  }
});

describe('junk never causes a 5xx', () => {
  const writes = [
    'CreateGender',
    'UpdateGender',
    'CreateRole',
    'UpdateRole',
    'register',
    'UpdateUser',
    'CreateCity',
    'CreateEmployee',
    'CreateUpdatePerformances',
    'login',
  ];
  it.each(writes)('%s, as JSON and as a form', async (endpoint) => {
    await fc.assert(
      fc.asyncProperty(junk, async (value) => {
        const text = asText(value);
        expectEnvelope(await raw('POST', `/api/${endpoint}`, text, JSON_TYPE));
        const pairs: [string, unknown][] =
          value && typeof value === 'object' ? Object.entries(value) : [['v', value]];
        const form = pairs
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(asText(v))}`)
          .join('&');
        const res = await raw('POST', `/api/${endpoint}`, form, FORM);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expectEnvelope(res);
      }),
      { numRuns: 40 },
    );
  });
});

describe('hostile shapes are refused cleanly', () => {
  it('deep nesting: 400, as a form and as JSON', async () => {
    const form = await raw('POST', '/api/CreateGender', `genderName${'[a]'.repeat(50)}=x`, FORM);
    expect(expectEnvelope(form, 400).errors?.[0]?.field).toBe('_');
    const deepJson = `{"genderName":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const json = expectEnvelope(await raw('POST', '/api/CreateGender', deepJson, JSON_TYPE), 400);
    expect(json.errors).toEqual([
      { field: expect.stringMatching(/^genderName\.0\.0/), message: 'Nested too deeply' },
    ]);
  });

  it('huge arrays: refused, quickly', async () => {
    const started = Date.now();
    const items = Array.from({ length: 20_000 }, (_, i) => `rolePermissions[${i}]=P${i}`).join('&');
    expectEnvelope(await raw('POST', '/api/CreateRole', `roleName=Huge&${items}`, FORM), 413);
    const big = JSON.stringify({
      roleName: 'Huge',
      rolePermissions: Array.from({ length: 100_000 }, (_, i) => `P${i}`),
    });
    const json = expectEnvelope(await raw('POST', '/api/CreateRole', big, JSON_TYPE), 400);
    expect(json.errors?.[0]?.field).toBe('rolePermissions');
    const sparse = expectEnvelope(
      await raw('POST', '/api/CreateRole', 'roleName=Sparse&rolePermissions[999999999]=x', FORM),
      400,
    );
    expect(sparse.errors?.[0]).toEqual({ field: 'rolePermissions', message: 'Unknown permission: x' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await t.handle.db.$count(roles, sql`${roles.roleName} in ('Huge', 'Sparse')`)).toBe(0);
  });

  it('__proto__ and constructor keys pollute nothing', async () => {
    const json = await raw(
      'POST',
      '/api/CreateGender',
      '{"genderName":"Pollution Probe 1","__proto__":{"polluted":true}}',
      JSON_TYPE,
    );
    expectEnvelope(json, 400);
    const ctor = await raw(
      'POST',
      '/api/CreateGender',
      '{"genderName":"Pollution Probe 2","constructor":{"prototype":{"polluted":true}}}',
      JSON_TYPE,
    );
    expectEnvelope(ctor, 400);
    const form = await raw(
      'POST',
      '/api/CreateGender',
      'genderName=Pollution+Probe+3&__proto__[polluted]=1&constructor[prototype][polluted]=1',
      FORM,
    );
    expectEnvelope(form, 200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A name generated by another test could contain a short keyword: this one cannot occur.
    const list = await t.get('GetGenders', admin, { keyword: 'Pollution Probe' });
    expect(list.json().data.map((g: { genderName: string }) => g.genderName)).toEqual(['Pollution Probe 3']);
  });

  it('a field posted as an object with a length is a 400 naming it, on every kind of form', async () => {
    // `firstName[length][ ][0]=`: a 500 once, from a length check on an object without a prototype.
    const cases: [string, string, string][] = [
      ['/api/CreateProfile', 'firstName%5Blength%5D%5B%20%5D%5B0%5D=', 'firstName'],
      ['/api/CreateGender', 'genderName%5Blength%5D%5Bx%5D=2', 'genderName'],
    ];
    for (const [url, payload, field] of cases) {
      const res = await raw('POST', url, payload, FORM);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().errors, url).toEqual([{ field, message: 'Invalid value' }]);
    }
    // JSON's objects have a prototype, but a key can hide what turns them into a primitive.
    const json = await raw(
      'POST',
      '/api/CreateGender',
      '{"genderName":{"length":{"toString":1,"valueOf":1}}}',
      JSON_TYPE,
    );
    expect(json.statusCode, json.body).toBe(400);
    expect(json.json().errors).toEqual([{ field: 'genderName', message: 'Invalid value' }]);
  });

  it('duplicate parameters: the first wins, in bodies and in queries', async () => {
    expectEnvelope(await raw('POST', '/api/CreateGender', 'genderName=First&genderName=Second', FORM), 200);
    expect(await t.handle.db.$count(genders, eq(genders.genderName, 'First'))).toBe(1);
    expect(await t.handle.db.$count(genders, eq(genders.genderName, 'Second'))).toBe(0);
    const list = expectEnvelope(
      await raw('GET', '/api/GetGenders?limit=1&limit=50&sortValue=asc&sortValue=desc', undefined),
      200,
    );
    expect((list.data as unknown[]).length).toBe(1);
  });

  it('duplicate keys in a JSON body are refused, so no part of the server can read the other value', async () => {
    const before = await t.handle.db.$count(genders);
    for (const body of [
      '{"genderName":"First","genderName":"Second"}',
      '{"genderName":"First","gender\\u004eame":"Second"}',
      '{"a":{"b":1,"b":2},"genderName":"Nested"}',
    ]) {
      const res = expectEnvelope(await raw('POST', '/api/CreateGender', body, JSON_TYPE), 400);
      expect(res.errors?.[0]?.message, body).toMatch(/^Duplicate key: /);
    }
    expect(await t.handle.db.$count(genders)).toBe(before);
    // The same key in different objects is no duplicate.
    expectEnvelope(
      await raw('POST', '/api/CreateGender', '{"genderName":"Apart","x":[{"k":1},{"k":2}]}', JSON_TYPE),
      200,
    );
  });

  it('a 400 lists at most 1,000 field errors, however many there are', async () => {
    const performances = Array.from({ length: 60 }, (_, e) => ({
      employeeCode: `EMP-NOSUCH${e}`,
      date: '2026-01-05',
      performancePerSkill: Array.from({ length: 20 }, (_s, k) => ({
        skillCode: `SKILL-NOSUCH${k}`,
        pointsEarned: '5',
      })),
    }));
    const res = expectEnvelope(
      await raw('POST', '/api/CreateUpdatePerformances', JSON.stringify({ performances }), JSON_TYPE),
      400,
    );
    expect(res.errors).toHaveLength(1000);
    expect(res.errors?.[0]).toEqual({ field: 'performances.0.employeeCode', message: 'Employee not found' });
  });

  it('a JSON body with more values than its size allows: 413 before it is parsed', async () => {
    const many = `{"genderName":"Many","x":[${'0,'.repeat(200_000)}0]}`;
    expectEnvelope(await raw('POST', '/api/CreateGender', many, JSON_TYPE), 413);
  });

  it('overlong strings: 400 on the field under the body limit, 413 over it', async () => {
    const long = expectEnvelope(await t.post('CreateGender', { genderName: 'x'.repeat(5000) }, admin), 400);
    expect(long.errors).toEqual([
      { field: 'genderName', message: 'Gender name must be at most 100 characters' },
    ]);
    expectEnvelope(await t.post('CreateGender', { genderName: 'x'.repeat(2_000_000) }, admin), 413);
    expectEnvelope(await t.get('GetGenders', admin, { keyword: 'k'.repeat(10_000) }), 200);
  });

  it('malformed unicode and NUL: 400 naming the field, in bodies, queries and paths', async () => {
    const cases = [
      raw('POST', '/api/CreateGender', 'genderName=%FF%FE', FORM),
      raw('POST', '/api/CreateGender', 'genderName=%ED%A0%80', FORM),
      raw('POST', '/api/CreateGender', 'genderName=50%', FORM),
      raw('POST', '/api/CreateGender', '{"genderName":"a\\ud800b"}', JSON_TYPE),
      raw('POST', '/api/CreateGender', '{"genderName":"a\\u0000b"}', JSON_TYPE),
      raw('POST', '/api/CreateGender', 'genderName=a%00b', FORM),
      raw('GET', '/api/GetGenders?keyword=a%00b', undefined),
      raw('GET', '/api/GetGenders?sortField=%00', undefined),
      raw('GET', '/api/ProfilePicture/PROFILE-%00/thumbnail', undefined),
    ];
    for (const res of await Promise.all(cases)) {
      const body = expectEnvelope(res, 400);
      expect(body.errors?.length, res.body).toBeGreaterThan(0);
    }
    expect(
      await t.handle.db.$count(
        genders,
        sql`${genders.genderName} like 'a%b' or ${genders.genderName} like '%\uFFFD%' or ${genders.genderName} like '%\\%%'`,
      ),
    ).toBe(0);
    // Astral characters written as surrogate pairs are fine.
    expectEnvelope(
      await raw('POST', '/api/CreateGender', '{"genderName":"Emoji \\ud83d\\ude00"}', JSON_TYPE),
      200,
    );
  });
});

describe('mass assignment: fields outside the form are never written', () => {
  it('register ignores passwordHash, userCode, id and timestamps', async () => {
    const res = await t.post(
      'register',
      {
        username: 'massive',
        email: 'massive@example.com',
        password: 'chosen-password-7',
        roleCode,
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$forged$forged',
        userCode: 'USER-CHOSEN',
        id: 1,
        createdAt: '2000-01-01T00:00:00Z',
      },
      admin,
    );
    const data = expectEnvelope(res, 200).data as Body;
    expect(data.userCode).not.toBe('USER-CHOSEN');
    const row = (await t.handle.db.select().from(users).where(eq(users.username, 'massive')))[0]!;
    expect(row.userCode).toBe(data.userCode);
    expect(row.id).not.toBe(1);
    expect(row.createdAt.getFullYear()).toBeGreaterThan(2000);
    expect(await verifyPassword(row.passwordHash, 'chosen-password-7')).toBe(true);
  });

  it('UpdateUser cannot set a hash or move the record to another code', async () => {
    const row = (await t.handle.db.select().from(users).where(eq(users.username, 'massive')))[0]!;
    const res = await t.postJson(
      'UpdateUser',
      {
        userCode: row.userCode,
        username: 'massive',
        email: 'massive@example.com',
        password: '',
        roleCode,
        passwordHash: 'forged',
        newUserCode: 'USER-OTHER',
        createdAt: '1999-01-01T00:00:00Z',
      },
      admin,
    );
    expectEnvelope(res, 200);
    const after = (await t.handle.db.select().from(users).where(eq(users.userCode, row.userCode)))[0]!;
    expect(after.passwordHash).toBe(row.passwordHash);
    expect(after.createdAt).toEqual(row.createdAt);
  });

  it('creates ignore a chosen code; updates keep the code they name', async () => {
    const created = expectEnvelope(
      await t.post('CreateDepartment', { name: 'Chosen', departmentCode: 'DEPT-CHOSEN', id: 7 }, admin),
      200,
    );
    const code = (created.data as Body).departmentCode as string;
    expect(code).toMatch(/^DEPT-[0-9A-Z]{16}$/);
    const row = (
      await t.handle.db.select().from(departments).where(eq(departments.departmentCode, code))
    )[0]!;
    expect(row.id).not.toBe(7);
    const updated = await t.post(
      'UpdateDepartment',
      { departmentCode: code, name: 'Renamed', createdAt: '1999-01-01', id: 1 },
      admin,
    );
    expectEnvelope(updated, 200);
    const [after] = await t.handle.db.select().from(departments).where(eq(departments.departmentCode, code));
    expect(after).toMatchObject({ id: row.id, name: 'Renamed', createdAt: row.createdAt });
  });
});
