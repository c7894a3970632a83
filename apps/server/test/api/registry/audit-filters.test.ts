import { inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AuditEntry, recordAudits } from '../../../src/audit/recorder.ts';
import { audits } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';

/*
 * GetAudits' filters (username, collection, action, from, to), alone, together and with the
 * keyword, on entries written at chosen instants around day, month and leap-day boundaries (UTC).
 */

const t = sharedTestApp();
let admin: string;

const ENTRIES: readonly (Pick<AuditEntry, 'action' | 'collection'> & {
  user: string;
  at: string;
  tag: string;
})[] = [
  { tag: 'A', action: 'CREATE', collection: 'genders', user: 'flt-alice', at: '2020-01-31T23:59:59.999Z' },
  { tag: 'B', action: 'UPDATE', collection: 'genders', user: 'flt-bob', at: '2020-02-01T00:00:00.000Z' },
  { tag: 'C', action: 'LOGIN', collection: 'auth', user: 'flt-alice', at: '2020-02-29T12:00:00.000Z' },
  { tag: 'D', action: 'DELETE', collection: 'genders', user: 'flt-alicia', at: '2020-03-01T00:00:00.000Z' },
];

beforeAll(async () => {
  admin = await t.login();
  await recordAudits(
    t.handle.db,
    ENTRIES.map((e) => ({
      action: e.action,
      collection: e.collection,
      after: { tag: e.tag },
      actor: { userCode: `USER-${e.user}`, username: e.user },
    })),
  );
  for (const e of ENTRIES) {
    await t.handle.db.execute(
      sql`update ${audits} set created_at = ${e.at}::timestamptz where after->>'tag' = ${e.tag} and username like 'flt-%'`,
    );
  }
});

/** The tags of the entries a filtered GetAudits answers, in creation order, with its total. */
async function tags(query: Record<string, string>) {
  const page = expectOk(
    await t.get('GetAudits', admin, { sortField: 'createdAt', sortValue: 'asc', limit: 100, ...query }),
    'Audit Logs fetched successfully',
  );
  const found = (page.data as { after: { tag?: string } | null }[]).map((r) => r.after?.tag ?? '?');
  return { found, total: page.total };
}

describe('GetAudits filters', () => {
  it('by user: the name contains the value, in any case', async () => {
    expect(await tags({ username: 'flt-ALI' })).toEqual({ found: ['A', 'C', 'D'], total: 3 });
    expect(await tags({ username: 'flt-bob' })).toEqual({ found: ['B'], total: 1 });
    expect(await tags({ username: 'flt-%' })).toEqual({ found: [], total: 0 });
  });

  it('by module and by action: exactly that value', async () => {
    expect(await tags({ username: 'flt-', collection: 'genders' })).toEqual({
      found: ['A', 'B', 'D'],
      total: 3,
    });
    expect(await tags({ username: 'flt-', action: 'LOGIN' })).toEqual({ found: ['C'], total: 1 });
    expect(await tags({ username: 'flt-', collection: 'gender' })).toEqual({ found: [], total: 0 });
    expect(await tags({ username: 'flt-ali', collection: 'genders', action: 'DELETE' })).toEqual({
      found: ['D'],
      total: 1,
    });
  });

  it('by dates: whole days in UTC, both ends included', async () => {
    expect(await tags({ username: 'flt-', from: '2020-02-01' })).toEqual({
      found: ['B', 'C', 'D'],
      total: 3,
    });
    expect(await tags({ username: 'flt-', to: '2020-01-31' })).toEqual({ found: ['A'], total: 1 });
    expect(await tags({ username: 'flt-', from: '2020-02-01', to: '2020-02-29' })).toEqual({
      found: ['B', 'C'],
      total: 2,
    });
    expect(await tags({ username: 'flt-', from: '2020-02-29', to: '2020-02-29' })).toEqual({
      found: ['C'],
      total: 1,
    });
  });

  it('combine with the keyword and with paging', async () => {
    expect(await tags({ username: 'flt-', keyword: 'update' })).toEqual({ found: ['B'], total: 1 });
    const second = await tags({ username: 'flt-', collection: 'genders', limit: '2', page: '2' });
    expect(second).toEqual({ found: ['D'], total: 3 });
    const first = await tags({ username: 'flt-', collection: 'genders', limit: '2', page: '1' });
    expect(first).toEqual({ found: ['A', 'B'], total: 3 });
  });

  it("by record: that record's whole history, within its module", async () => {
    const entry = (action: 'CREATE' | 'UPDATE' | 'DELETE', collection: string, recordCode: string) => ({
      action,
      collection,
      recordCode,
      after: { tag: `${action}-${collection}-${recordCode}` },
      actor: { userCode: 'USER-rec', username: 'rec-user' },
    });
    await recordAudits(t.handle.db, [
      entry('CREATE', 'genders', 'GENDER-REC1'),
      entry('UPDATE', 'genders', 'GENDER-REC1'),
      entry('UPDATE', 'genders', 'GENDER-REC2'),
      entry('DELETE', 'genders', 'GENDER-REC1'),
      entry('UPDATE', 'skills', 'GENDER-REC1'),
    ]);
    expect(await tags({ collection: 'genders', recordCode: 'GENDER-REC1' })).toEqual({
      found: ['CREATE-genders-GENDER-REC1', 'UPDATE-genders-GENDER-REC1', 'DELETE-genders-GENDER-REC1'],
      total: 3,
    });
    expect(await tags({ collection: 'genders', recordCode: 'GENDER-REC1', action: 'DELETE' })).toMatchObject({
      total: 1,
    });
    expect(await tags({ recordCode: 'gender-rec1' })).toEqual({ found: [], total: 0 });
  });

  it('an empty filter is no filter', async () => {
    const all = await tags({ username: 'flt-', action: '', from: '', to: '' });
    expect(all).toEqual({ found: ['A', 'B', 'C', 'D'], total: 4 });
  });

  it('refuses a malformed value with 400, naming the filter', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ from: 'yesterday' }, 'from', 'From must be a date (YYYY-MM-DD)'],
      [{ to: '2020-02-30' }, 'to', 'To must be a real date'],
      [{ from: '2020-03-01', to: '2020-02-01' }, 'to', 'To must not be before From'],
      [{ username: 'x'.repeat(101) }, 'username', 'User must be at most 100 characters'],
      [{ action: 'y'.repeat(101) }, 'action', 'Action must be at most 100 characters'],
    ];
    for (const [query, field, message] of cases) {
      const body = expectError(await t.get('GetAudits', admin, query), 400, 'Invalid input');
      expect(body.errors).toEqual([{ field, message }]);
    }
  });

  it('needs a session (401) and VIEW_AUDITS (403)', async () => {
    expectError(await t.get('GetAudits', undefined, { username: 'flt-' }), 401, 'Not signed in');
    const stranger = await t.userWith(['VIEW_USERS']);
    expectError(
      await t.get('GetAudits', stranger.cookie, { username: 'flt-' }),
      403,
      'You do not have permission to do this',
    );
  });

  it('leave the entries themselves alone', async () => {
    const rows = await t.handle.db
      .select({ username: audits.username })
      .from(audits)
      .where(inArray(audits.username, ['flt-alice', 'flt-bob', 'flt-alicia']));
    expect(rows).toHaveLength(4);
  });
});

/** A CSV answer's lines, each split into its fields (every field is quoted). */
function csvRows(body: string): string[][] {
  expect(body.startsWith('\ufeff')).toBe(true);
  const lines = body.slice(1).split('\r\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) =>
    line
      .slice(1, -1)
      .split('","')
      .map((f) => f.replaceAll('""', '"')),
  );
}

describe('ExportAudits', () => {
  it('writes every entry the filters match, newest first, in steps past the batch size', {
    timeout: 60_000,
  }, async () => {
    const bulk = Array.from({ length: 2345 }, (_, i) => ({
      action: 'IMPORT' as const,
      collection: 'employees',
      after: { n: i },
      actor: { userCode: 'USER-exp', username: 'exp-bulk' },
    }));
    await recordAudits(t.handle.db, bulk);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/ExportAudits?username=exp-bulk&action=IMPORT',
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-logs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual([
      'Created At',
      'Action',
      'Module',
      'Record Code',
      'User',
      'Audit Code',
      'Changes',
      'Before',
      'After',
    ]);
    expect(rows).toHaveLength(2345);
    expect(new Set(rows.map((r) => r[5])).size).toBe(2345);
    // Newest first: the last one written comes first.
    expect(rows.map((r) => (JSON.parse(r[8] ?? '{}') as { n: number }).n)).toEqual(
      bulk.map((_, i) => 2344 - i),
    );
    expect(rows[0]?.slice(1, 5)).toEqual(['IMPORT', 'employees', '', 'exp-bulk']);
    expect(rows[0]?.[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('matches what GetAudits counts for the same keyword and filters', async () => {
    const query = { username: 'flt-', collection: 'genders', keyword: 'e' };
    const listed = expectOk(
      await t.get('GetAudits', admin, { ...query, limit: 100 }),
      'Audit Logs fetched successfully',
    );
    const res = await t.get('ExportAudits', admin, query);
    const [, ...rows] = csvRows(res.body);
    expect(rows.map((r) => r[5])).toEqual((listed.data as { auditCode: string }[]).map((a) => a.auditCode));
    expect(rows).toHaveLength(3);
  });

  it('keeps a spreadsheet from running a value as a formula', async () => {
    await recordAudits(t.handle.db, [
      {
        action: 'LOGIN_FAILED',
        collection: 'auth',
        after: null,
        actor: { userCode: 'USER-x', username: '=HYPERLINK("x")' },
      },
    ]);
    const [, row] = csvRows((await t.get('ExportAudits', admin, { username: 'HYPERLINK' })).body);
    expect(row?.[4]).toBe(`'=HYPERLINK("x")`);
  });

  it('refuses what GetAudits refuses: 401, 403 and 400', async () => {
    expectError(await t.get('ExportAudits', undefined, {}), 401, 'Not signed in');
    const stranger = await t.userWith(['VIEW_USERS']);
    expectError(
      await t.get('ExportAudits', stranger.cookie, {}),
      403,
      'You do not have permission to do this',
    );
    const bad = expectError(await t.get('ExportAudits', admin, { from: '2020-02-30' }), 400, 'Invalid input');
    expect(bad.errors).toEqual([{ field: 'from', message: 'From must be a real date' }]);
  });
});
