import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, buildApp } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { genders } from '../../../src/db/schema/index.ts';
import { makeServices } from '../../../src/services.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';

const t = sharedTestApp();
let admin: string;
beforeAll(async () => {
  admin = await t.login();
});

const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the envelope: HTTP status equals statusCode on every kind of answer', () => {
  it('200 with the success message the contract names', async () => {
    const body = expectEnvelope(await t.post('CreateGender', { genderName: 'Envelope' }, admin), 200);
    expect(body.message).toBe('Gender created successfully');
    const list = expectEnvelope(await t.get('GetGenders', admin), 200);
    expect(list).toMatchObject({ message: 'Genders fetched successfully', total: 1 });
  });

  it('400 names each field at fault', async () => {
    const body = expectEnvelope(
      await t.post('CreateCountry', { name: '', iso2: 'X', iso3: '1' }, admin),
      400,
    );
    expect(body.errors?.map((e) => e.field).sort()).toEqual(['iso2', 'iso3', 'name']);
    expect(body.errors?.every((e) => typeof e.message === 'string' && e.message.length > 0)).toBe(true);
  });

  it('400 for malformed bodies still carries an errors list', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/CreateGender',
      payload: '{"genderName":',
      headers: { 'content-type': 'application/json', cookie: admin },
    });
    const body = expectEnvelope(res, 400);
    expect(body.errors).toEqual([{ field: '_', message: body.message }]);
  });

  it('401 without a session and 403 without the permission', async () => {
    expect(expectEnvelope(await t.get('GetGenders'), 401).message).toBe('Not signed in');
    const viewer = await t.userWith(['VIEW_GENDERS']);
    expect(
      expectEnvelope(await t.post('CreateGender', { genderName: 'No' }, viewer.cookie), 403).message,
    ).toBe('You do not have permission to do this');
  });

  it('404 for an unknown code, an unknown endpoint and a wrong method', async () => {
    expect(
      expectEnvelope(await t.post('GetGenderByCode', { genderCode: 'GENDER-NOPE' }, admin), 404).message,
    ).toBe('Gender not found');
    expect(expectEnvelope(await t.get('NoSuchCall', admin), 404).message).toBe(
      'No such endpoint: GET /api/NoSuchCall',
    );
    expectEnvelope(
      await t.app.inject({ method: 'POST', url: '/api/GetGenders', headers: { cookie: admin } }),
      404,
    );
    expectEnvelope(
      await t.app.inject({ method: 'DELETE', url: '/api/DeleteGender', headers: { cookie: admin } }),
      404,
    );
    // No TRACE anywhere: nothing echoes a request back.
    const trace = await t.app.inject({ method: 'TRACE', url: '/api/health', headers: { cookie: admin } });
    expectEnvelope(trace, 404);
    expect(trace.body).not.toContain('sid=');
  });

  it('409 for a duplicate, with the field named', async () => {
    await t.post('CreateDepartment', { name: 'Finance' }, admin);
    const body = expectEnvelope(await t.post('CreateDepartment', { name: 'FINANCE' }, admin), 409);
    expect(body.errors?.[0]?.field).toBe('name');
  });

  it('413 for a body over the limit, form or JSON', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const asForm = await t.app.inject({
      method: 'POST',
      url: '/api/CreateGender',
      payload: `genderName=${big}`,
      headers: { ...form, cookie: admin },
    });
    expect(expectEnvelope(asForm, 413).message).toBe('Request body is too large');
    const asJson = await t.app.inject({
      method: 'POST',
      url: '/api/CreateGender',
      payload: JSON.stringify({ genderName: big }),
      headers: { 'content-type': 'application/json', cookie: admin },
    });
    expectEnvelope(asJson, 413);
    expect(await t.handle.db.$count(genders, sql`length(${genders.genderName}) > 1000`)).toBe(0);
  });

  it('415 for a media type the API does not read', async () => {
    for (const type of ['text/plain', 'application/xml', 'text/html', 'application/octet-stream']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/CreateGender',
        payload: 'genderName=Typed',
        headers: { 'content-type': type, cookie: admin },
      });
      expect(expectEnvelope(res, 415).message, type).toBe('Unsupported media type');
    }
    expect(await t.handle.db.$count(genders, sql`${genders.genderName} = 'Typed'`)).toBe(0);
  });

  it('500 says nothing about the failure: no stack, no SQL, no table names', async () => {
    await t.handle.db.execute(sql`alter table genders rename to genders_gone`);
    try {
      // A page not read before: one read earlier would be kept, and DDL sends no notification.
      const res = await t.get('GetGenders', admin, { keyword: 'gone' });
      const body = expectEnvelope(res, 500);
      expect(body).toEqual({ statusCode: 500, message: 'An unexpected error occurred' });
      expect(res.body).not.toMatch(/genders|select|relation|stack|at .*\.ts/i);
    } finally {
      await t.handle.db.execute(sql`alter table genders_gone rename to genders`);
    }
    expectEnvelope(await t.get('GetGenders', admin, { keyword: 'gone' }), 200);
  });

  it('a value PostgreSQL refuses as data is the input’s fault: 400, not 500', async () => {
    const res = await t.get('GetGenders', admin, { keyword: 'a\u0000b' });
    expect(expectEnvelope(res, 400).errors).toEqual([
      { field: 'keyword', message: 'Contains characters that are not allowed' },
    ]);
  });
});

describe('GET /api/health', () => {
  it('answers 200 while the database answers, without a session', async () => {
    const res = await t.get('health');
    expect(expectEnvelope(res, 200)).toMatchObject({ statusCode: 200, message: 'OK' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database is unreachable, and so does every other call, quickly', async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    const handle = await openDatabase({
      dataDir: 'memory://',
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
    });
    const app = await buildApp(makeServices(handle.db, testConfig({ WEB_DIST: '/nonexistent/' })));
    await app.ready();
    try {
      const started = Date.now();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(expectEnvelope(health, 503).message).toBe('Database unavailable');
      const call = await app.inject({
        method: 'GET',
        url: '/api/GetGenders',
        headers: { cookie: 'sid=abc' },
      });
      expect(expectEnvelope(call, 503).message).toBe('Service temporarily unavailable');
      expect(call.headers['retry-after']).toBe('5');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await app.close();
      await handle.close();
    }
  });
});

describe('OpenAPI at /api/docs', () => {
  it('serves the browsable page and a 3.x document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
  });

  it('lists every route of the route table, with its method, access rule and body schema', async () => {
    interface Operation {
      operationId: string;
      'x-access': unknown;
      security: unknown;
      requestBody?: unknown;
      responses: Record<string, unknown>;
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
      tags: { name: string }[];
      servers: unknown[];
    };
    const routes = allRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const tags = new Set(doc.tags.map((tag) => tag.name));
    for (const r of routes) {
      const path = `/api/${r.path.replace(/:(\w+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      if (!op) throw new Error(`${r.method} ${path} is not described`);
      expect(op['x-access']).toEqual(r.access);
      // A guarded call takes the session cookie, or an API token unless it is kept for signed-in users.
      const schemes = r.sessionOnly ? [{ session: [] }] : [{ session: [] }, { apiToken: [] }];
      expect(op.security).toEqual(r.access.kind === 'public' ? [] : schemes);
      expect(Boolean(op.requestBody)).toBe(Boolean(r.body));
      expect(op.operationId.startsWith(r.path.split('/')[0] ?? '')).toBe(true);
      expect(Object.keys(op.responses)).toContain('200');
      expect(tags.has(r.tag), r.tag).toBe(true);
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('GetGenders');
    expect(ids).toContain('CreateRole');
    expect(doc.servers.length).toBeGreaterThan(0);
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(routes.length);
  });

  it('types each registry answer as its record, and a list as records with a total', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ok = (path: string, method: string) =>
      doc.paths[`/api/${path}`][method].responses['200'].content['application/json'].schema;
    expect(ok('GetGenderByCode', 'post').properties.data).toEqual({
      $ref: '#/components/schemas/GenderRecord',
    });
    expect(ok('UpdateRole', 'post').properties.data).toEqual({ $ref: '#/components/schemas/RoleRecord' });
    const list = ok('GetGenders', 'get');
    expect(list.required).toEqual(['statusCode', 'message', 'data', 'total']);
    expect(list.properties.data.items.anyOf[0]).toEqual({ $ref: '#/components/schemas/GenderRecord' });
    expect(doc.components.schemas.GenderRecord.required).toEqual([
      'genderCode',
      'genderName',
      'createdAt',
      'updatedAt',
      'version',
    ]);
    const sort = doc.paths['/api/GetGenders'].get.parameters.find(
      (p: { name: string }) => p.name === 'sortField',
    );
    expect(sort.schema.enum).toEqual(['_id', 'genderName', 'createdAt', 'updatedAt']);
    expect(doc.paths['/api/UpdateGender'].post.responses['409']).toEqual({
      $ref: '#/components/responses/Error409',
    });
    expect(
      Object.keys(doc.paths['/api/ProfilePicture/{profileCode}/{variant}'].get.responses['200'].content),
    ).toEqual(['image/webp', 'image/jpeg', 'image/png']);
  });
});
