import { PERFORMANCE_SORT_FIELDS } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { resolveApiToken } from '../../../src/auth/api-tokens.ts';
import { resolveSession } from '../../../src/auth/sessions.ts';
import { testConfig } from '../../../src/config/config.ts';
import { QueryCache } from '../../../src/db/query-cache.ts';
import { declaredReadsCheck } from '../../../src/db/read-audit.ts';
import { permissions$ } from '../../../src/resources/definitions/access.ts';
import { SERVER_RESOURCES } from '../../../src/resources/index.ts';
import { makeServices } from '../../../src/services.ts';
import { sharedDemoApp } from '../../support/app.ts';

/*
 * A kept read is dropped when a table it declared changes, so a table it reads but does not
 * declare would let it serve stale data. Here every kept read is checked against the tables
 * PostgreSQL's own plans say its statements scan.
 */

const t = sharedDemoApp({ people: 12, days: 20 });
type Query = Record<string, string | undefined>;
/** The query without its empty parts, as a browser would send it. */
const given = (q: Query) =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));
const get = (path: string, query: Query = {}) => t.get(path, t.admin, given(query));
const post = (path: string, body: Record<string, string>, query: Query = {}) =>
  t.post(path, body, t.admin, given(query));

describe('every kept read declares every table it reads', () => {
  it('checks reads of another table than the declared ones', async () => {
    await expect(
      t.services.cache.get(['planted'], ['genders'], () =>
        t.handle.db.execute(sql`select count(*) from roles`),
      ),
    ).rejects.toThrow(/read roles but declared only genders/);
    expect(
      await t.services.cache.get(['declared'], ['roles'], async () => {
        await t.handle.db.execute(sql`select count(*) from roles`);
        return 1;
      }),
    ).toBe(1);
  });

  it('for every list, each sort field, keyword and view', async () => {
    for (const res of SERVER_RESOURCES) {
      const { endpoints, sortFields } = res.def;
      const variants: Query[] = [
        {},
        { keyword: 'a' },
        { populate: 'false' },
        ...sortFields.flatMap((sortField) => [
          { sortField, sortValue: 'asc' },
          { sortField, sortValue: 'desc', keyword: 'e', page: '2', limit: '2' },
        ]),
      ];
      for (const query of variants) {
        const list = await get(endpoints.list, query);
        expect(list.statusCode, `${endpoints.list} ${JSON.stringify(query)} ${list.body}`).toBe(200);
      }
      for (const sub of res.parentFilters) {
        const parentList = SERVER_RESOURCES.find((r) => r.def.key === sub.parent);
        if (!parentList) throw new Error(`${sub.endpoint}: ${sub.parent} has no definition`);
        const parents = await get(parentList.def.endpoints.list, { limit: '1' });
        expect(parents.statusCode, `${parentList.def.endpoints.list} ${parents.body}`).toBe(200);
        const [parent]: Record<string, string>[] = parents.json().data;
        const subQueries: Query[] = [{}, { keyword: 'a', sortField: sortFields[0] ?? 'createdAt' }];
        for (const query of subQueries) {
          const page = await post(sub.endpoint, { [sub.param]: parent?.[sub.param] ?? '' }, query);
          expect(page.statusCode, `${sub.endpoint} ${page.body}`).toBe(200);
        }
      }
    }
  });

  it('for the session lookup every request makes', async () => {
    const checked = new QueryCache(undefined, 1024 * 1024, declaredReadsCheck(t.handle.explain));
    const id = t.admin.slice(t.admin.indexOf('=') + 1);
    const session = await resolveSession(t.handle.db, id, t.services.sessionPolicy, new Date(), checked);
    expect(session?.username).toBe('admin');
    expect(checked.stats.misses).toBe(1);
  });

  it('for the token lookup every API token call makes', async () => {
    const [role] = (await get('GetRoles', { limit: '1' })).json().data as { roleCode: string }[];
    const created = await t.post(
      'CreateApiToken',
      { name: 'Reads check', roleCode: role?.roleCode, noExpiry: true },
      t.admin,
    );
    const checked = new QueryCache(undefined, 1024 * 1024, declaredReadsCheck(t.handle.explain));
    const principal = await resolveApiToken(t.handle.db, created.json().data.token, new Date(), checked);
    expect(principal?.username).toBe('Reads check');
    expect(checked.stats.misses).toBe(1);
  });

  it('for the performance grid, in every sort', async () => {
    for (const sortField of PERFORMANCE_SORT_FIELDS) {
      for (const sortValue of ['asc', 'desc']) {
        const res = await get('GetPerformances', { sortField, sortValue, keyword: 'a', limit: '5' });
        expect(res.statusCode, `${sortField} ${res.body}`).toBe(200);
      }
    }
  });

  it('fails a sub-list whose definition forgets a table it reads (a planted omission)', async () => {
    const subLists = permissions$.parentFilters;
    const sub = subLists[0];
    if (!sub) throw new Error('the permissions resource lists by role');
    const roles = await get('GetRoles', { limit: '1' });
    expect(roles.statusCode, roles.body).toBe(200);
    const [role]: { roleCode: string }[] = roles.json().data;
    // A server built from the definition without `reads: [rolePermissions]`. The definition is put
    // back however the build ends: the files of a worker share their modules (vitest.config.ts).
    permissions$.parentFilters = [{ ...sub, reads: [] }];
    const planted = await buildApp(
      makeServices(t.handle.db, testConfig({ WEB_DIST: '/nonexistent/' }), undefined, {
        checkReads: declaredReadsCheck(t.handle.explain),
      }),
    ).finally(() => {
      permissions$.parentFilters = subLists;
    });
    try {
      const res = await planted.inject({
        method: 'POST',
        url: `/api/${sub.endpoint}`,
        payload: { [sub.param]: role?.roleCode ?? '' },
        headers: { cookie: t.admin },
      });
      expect(res.statusCode).toBe(500);
      expect((await post(sub.endpoint, { [sub.param]: role?.roleCode ?? '' })).statusCode).toBe(200);
    } finally {
      await planted.close();
    }
  });
});
