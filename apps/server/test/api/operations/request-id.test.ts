import { and, eq, isNull, ne } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { withAuditContext } from '../../../src/audit/context.ts';
import { type AuditEntry, recordAudit, recordAudits } from '../../../src/audit/recorder.ts';
import { audits } from '../../../src/db/schema/index.ts';
import { ADMIN_PASSWORD, createTestApp } from '../../support/app.ts';
import { sharedFixture } from '../../support/fixture.ts';
import { formEncode } from '../../support/requests.ts';

interface LogLine {
  msg: string;
  requestId?: string;
  req?: { url: string };
  res?: { statusCode: number };
}

/** Every log line the app writes, parsed. */
const lines: LogLine[] = [];
const logStream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };

const t = sharedFixture(() => createTestApp({ LOG_LEVEL: 'info' }, { logStream }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function send(
  method: 'GET' | 'POST',
  path: string,
  options: { requestId?: string; cookie?: string; body?: Record<string, unknown> } = {},
) {
  return t.app.inject({
    method,
    url: path,
    headers: {
      ...(options.requestId === undefined ? {} : { 'x-request-id': options.requestId }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(options.body ? { payload: formEncode(options.body) } : {}),
  });
}

const idOf = (res: LightMyRequestResponse) => String(res.headers['x-request-id']);

async function login(requestId: string, password = ADMIN_PASSWORD) {
  const res = await send('POST', '/api/login', { requestId, body: { username: 'admin', password } });
  const c = res.cookies.find((x) => x.name === 'sid');
  return { res, cookie: c ? `${c.name}=${c.value}` : undefined };
}

const auditOf = async (requestId: string) =>
  t.handle.db.select().from(audits).where(eq(audits.requestId, requestId));

describe('X-Request-Id', () => {
  it('is taken as sent when well formed: 1 to 128 of letters, digits and . _ : -', async () => {
    for (const id of [
      'a',
      'abc-123',
      'trace.id_7:span-9',
      'A'.repeat(128),
      '0af7651916cd43dd8448eb211c80319c',
    ]) {
      const res = await send('GET', '/api/health/live', { requestId: id });
      expect(res.statusCode).toBe(200);
      expect(idOf(res)).toBe(id);
    }
  });

  it('is replaced by a new UUID when malformed, and generated when absent', async () => {
    const seen = new Set<string>();
    for (const id of [
      '',
      ' ',
      'has space',
      'A'.repeat(129),
      'semi;colon',
      'quote"d',
      'a,b',
      '<script>',
      '%41',
    ]) {
      const res = await send('GET', '/api/health/live', { requestId: id });
      expect(idOf(res), JSON.stringify(id)).toMatch(UUID);
      seen.add(idOf(res));
    }
    const absent = await send('GET', '/api/health/live');
    expect(idOf(absent)).toMatch(UUID);
    seen.add(idOf(absent));
    expect(seen.size).toBe(10);
  });

  it('is echoed on every answer, refusals and unknown paths included', async () => {
    const cases: [string, 'GET' | 'POST', string, number][] = [
      ['unauthenticated', 'GET', '/api/GetGenders', 401],
      ['unknown-path', 'GET', '/api/NoSuchThing', 404],
      ['unknown-write', 'POST', '/api/NoSuchThing', 404],
      ['docs', 'GET', '/api/docs/json', 200],
      ['health', 'GET', '/api/health', 200],
    ];
    for (const [id, method, path, status] of cases) {
      const res = await send(method, path, { requestId: id });
      expect(res.statusCode, path).toBe(status);
      expect(idOf(res), path).toBe(id);
    }
    // The router's own refusal of a malformed URL, answered before any hook runs.
    const malformed = await send('GET', '/api/ProfilePicture/%E0%A4%A/thumbnail', { requestId: 'bad-url' });
    expect(malformed.statusCode).toBe(400);
    expect(idOf(malformed)).toBe('bad-url');
  });

  it('is in every log line of its request, and only of its request', async () => {
    lines.length = 0;
    const admin = (await login('log-login')).cookie!;
    await send('GET', '/api/GetGenders', { requestId: 'log-list', cookie: admin });
    await send('GET', '/api/GetGenders', { requestId: 'log-refused' });
    const generated = idOf(await send('GET', '/api/health/live', { requestId: 'not well formed' }));

    // Each line about a request (its start, its end, anything logged in between) names it.
    const aboutRequests = lines.filter((l) => l.req || l.res);
    expect(aboutRequests.length).toBeGreaterThanOrEqual(8);
    for (const l of aboutRequests) expect(l.requestId, JSON.stringify(l)).toBeDefined();
    for (const id of ['log-login', 'log-list', 'log-refused', generated]) {
      const own = lines.filter((l) => l.requestId === id);
      expect(own.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    }
    expect(lines.find((l) => l.requestId === 'log-list')?.req?.url).toBe('/api/GetGenders');
    expect(lines.find((l) => l.requestId === 'log-refused' && l.res)?.res?.statusCode).toBe(401);
    expect(lines.some((l) => l.requestId === 'not well formed')).toBe(false);
  });

  it('is stored in the audit entries its request makes: writes, sign-ins and refusals', async () => {
    const { cookie: admin } = await login('audit-login');
    expect((await auditOf('audit-login')).map((a) => a.action)).toEqual(['LOGIN']);

    const created = await send('POST', '/api/CreateGender', {
      requestId: 'audit-create-1',
      cookie: admin,
      body: { genderName: 'Audited' },
    });
    expect(created.statusCode).toBe(200);
    const [entry] = await auditOf('audit-create-1');
    expect(entry).toMatchObject({
      action: 'CREATE',
      collection: 'genders',
      recordCode: created.json().data.genderCode,
      username: 'admin',
    });

    // A malformed id is replaced, and the replacement is what the entry names.
    const failed = await login('not a good id', 'wrong-password-1');
    expect(failed.res.statusCode).toBe(401);
    expect((await auditOf(idOf(failed.res))).map((a) => a.action)).toEqual(['LOGIN_FAILED']);

    const refused = await send('GET', '/api/GetRoles', { requestId: 'audit-refused', cookie: 'sid=forged' });
    expect(refused.statusCode).toBe(401);
    expect((await auditOf('audit-refused')).map((a) => [a.action, a.collection])).toEqual([
      ['UNAUTHENTICATED', 'security'],
    ]);

    // A read records nothing.
    await send('GET', '/api/GetGenders', { requestId: 'audit-read', cookie: admin });
    expect(await auditOf('audit-read')).toEqual([]);
  });

  it('reaches bulk entries too, and is null for entries made outside a request', async () => {
    const entry: AuditEntry = { action: 'IMPORT', collection: 'test', after: { n: 1 }, actor: null };
    await withAuditContext({ requestId: 'bulk-1' }, () => recordAudits(t.handle.db, [entry, entry]));
    expect(await auditOf('bulk-1')).toHaveLength(2);

    await recordAudit(t.handle.db, { ...entry, collection: 'outside' });
    await recordAudits(t.handle.db, [{ ...entry, collection: 'outside' }]);
    const outside = await t.handle.db
      .select({ requestId: audits.requestId })
      .from(audits)
      .where(eq(audits.collection, 'outside'));
    expect(outside).toEqual([{ requestId: null }, { requestId: null }]);
    // Every other entry of this file was made by a request, and names it.
    const unnamed = await t.handle.db
      .select({ action: audits.action })
      .from(audits)
      .where(and(isNull(audits.requestId), ne(audits.collection, 'outside')));
    expect(unnamed).toEqual([]);
  });
});
