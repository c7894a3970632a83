import { listQuerySchema, type ParsedListQuery, VIEW_PERSONAL_DATA } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerList, type ListRequest, parseListQuery } from '../../../bench/lib/capture.ts';
import { type ListScenario, listScenarios } from '../../../bench/lib/list-scenarios.ts';
import { previousList } from '../../../bench/lib/previous-list.ts';
import type { SessionContext } from '../../../src/http/routes.ts';
import { cities$ } from '../../../src/resources/definitions/geography.ts';
import { listRecords } from '../../../src/resources/read.ts';
import { SKILLS } from '../../../src/seed/catalogue.ts';
import { DEMO_CITY_COUNTRIES } from '../../../src/seed/demo.ts';
import { loadGeography } from '../../../src/seed/geography.ts';
import { insertReferenceData, insertRoles } from '../../../src/seed/reference.ts';
import { codeSql, rows } from '../../../src/seed/sql.ts';
import { sharedTestApp } from '../../support/app.ts';

/*
 * The list SQL at a volume where plans matter: the demo geography (14,190 cities in 4,963 states
 * of 250 countries), 6,000 users, employees and profiles and 60,000 audit records, analysed. The
 * lists answer exactly as the previous formulation did (bench/lib/previous-list.ts, the one
 * `npm run bench` compares with), and the read audit every test app runs finds no list scanning
 * thousands of rows for a few: the previous formulation's `= any(array(select ...))` fails it.
 */

const t = sharedTestApp();
const PEOPLE = 6000;
const AUDITS = 60_000;
let scenarios: ListScenario[] = [];

const FIRST = ['Anna', 'Sandra', 'Jason', 'Olivia', 'Santiago', 'Kyoko', 'Liam', 'Noah', 'Emma', 'Zoe'];
const LAST = ['Anderson', 'Johnson', 'Sanchez', 'Kowalski', 'Schultz', "O'Neil", 'Smith', 'Nguyen', 'Brown'];
const textArray = (values: readonly string[]) =>
  sql`${`{${values.map((v) => JSON.stringify(v)).join(',')}}`}::text[]`;

/** People and audit records made by set-based statements, like `npm run bench:data`'s. */
async function generate() {
  const db = t.handle.db;
  await loadGeography(db, { cityCountries: DEMO_CITY_COUNTRIES });
  await insertReferenceData(db, SKILLS);
  await insertRoles(db);
  const person = sql`select g.i, (${textArray(FIRST)})[1 + g.i % ${FIRST.length}] as first,
      (${textArray(LAST)})[1 + (g.i / ${FIRST.length}) % ${LAST.length}] as last
    from generate_series(1, ${PEOPLE}) as g(i)`;
  await db.execute(sql`insert into users (user_code, username, email, password_hash, role_code)
    select ${codeSql('USER-')}, lower(regexp_replace(p.first || '.' || p.last, '[^A-Za-z.]', '', 'g')) || p.i,
      lower(p.first) || p.i || '@example.com', 'not a hash', r.a[1 + p.i % cardinality(r.a)]
    from (${person}) p, (select array_agg(role_code order by id) as a from roles) r`);
  await db.execute(sql`insert into employees (employee_code, employee_id, name, department_code, join_date, user_code)
    select ${codeSql('EMP-')}, 'T' || lpad(p.i::text, 6, '0'), p.first || ' ' || p.last,
      d.a[1 + p.i % cardinality(d.a)], date '2015-01-01' + p.i % 3000, u.user_code
    from (${person}) p cross join (select array_agg(department_code order by id) as a from departments) d
    join users u on u.username = lower(regexp_replace(p.first || '.' || p.last, '[^A-Za-z.]', '', 'g')) || p.i`);
  await db.execute(sql`insert into profiles (profile_code, first_name, last_name, dob, gender_code, phone_number,
      country_code, state_code, city_code, user_code)
    select ${codeSql('PROFILE-')}, split_part(e.name, ' ', 1), substr(e.name, strpos(e.name, ' ') + 1),
      date '1970-01-01' + e.id::int % 15000, g.a[1 + e.id % cardinality(g.a)],
      '+44 20 ' || lpad(e.id::text, 8, '0'), c.country_code, c.state_code, c.city_code, e.user_code
    from employees e cross join (select array_agg(gender_code order by id) as a from genders) g
    join cities c on c.id = 1 + (e.id * 7919) % (select count(*) from cities)`);
  await db.execute(sql`insert into audits (audit_code, action, collection, user_code, username, created_at)
    select ${codeSql('AUDIT-')}, (array['UPDATE','CREATE','LOGIN','DELETE'])[1 + g.i % 4],
      (array['employees','profiles','roles','cities'])[1 + (g.i / 4) % 4], u.user_code, u.username,
      now() - interval '365 days' + (g.i::float8 / ${AUDITS}) * interval '365 days'
    from generate_series(1, ${AUDITS}) as g(i) join users u on u.id = 1 + g.i % ${PEOPLE}`);
  await db.execute(sql`vacuum analyze`);
}

beforeAll(async () => {
  await generate();
  await t.settle();
  scenarios = await listScenarios(
    async (query) => (await rows<{ v: string }>(t.handle.db, sql.raw(query)))[0]?.v ?? '',
  );
}, 600_000);

/** Common, rare and empty keywords, upper case, and every LIKE special, alone and inside a word. */
const KEYWORDS = ['san', 'SAN', 'a', 'kyo', 'zzq', 'son', '%', '_', '\\', 'o_n', "o'n", '50%'];

/** The scenario with another keyword, page, sort or no keyword at all. */
function variant(l: ListRequest, query: Record<string, string | undefined>): ListRequest {
  const merged = { ...l.query, ...query };
  return {
    ...l,
    query: Object.fromEntries(
      Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined),
    ),
  };
}

/**
 * Reads the audit finds that are known and left (docs/performance.md, "List SQL"): PostgreSQL 15
 * costs the branch of a country's cities whose state's name matches ('san': 95 states, none of
 * them with a city of that country) at 500.6 as a scan of the 14,190 cities and at 498.5 through
 * the state index, and takes the scan (1.3 ms) as a tie. At benchmark volume it takes the index.
 */
const KNOWN_SCANS = ['a country\'s cities `san` {"keyword":"san"'];

/** The list read through the test app's audited query cache, as its route would read it. */
function auditedList(req: ListRequest) {
  const ctx = {
    query: parseListQuery(req),
    session: {
      userCode: 'USER-TEST',
      // Every field searched, as the previous formulation searched them (need-to-know aside).
      permissions: new Set(req.lookup ? [] : [req.res.def.permissions.view, VIEW_PERSONAL_DATA]),
      scopes: new Map(),
    },
    services: t.services,
  } as unknown as SessionContext<unknown, ParsedListQuery>;
  const sub = req.res.parentFilters.find((f) => f.endpoint === req.sub?.endpoint);
  const parent = sub && req.sub ? { where: sub.where(req.sub.code), key: req.sub, sub } : undefined;
  return listRecords(req.res, ctx, parent);
}

describe('list SQL at volume', () => {
  it('answers every list, sub-list and selector as the previous formulation did, page after page', async () => {
    expect(scenarios.length).toBeGreaterThan(20);
    const db = t.handle.db;
    let compared = 0;
    for (const l of scenarios) {
      const sorts = [{}, { sortField: '_id', sortValue: 'desc' }];
      if (l.res === cities$ && !l.lookup) sorts.push({ sortField: 'state.name', sortValue: 'desc' });
      for (const keyword of [l.query.keyword, ...KEYWORDS]) {
        for (const sort of sorts) {
          const first = variant(l, { keyword, ...sort, page: '1' });
          const now = await answerList(db, first);
          const lastPage = String(Math.max(1, Math.ceil(now.total / 10)));
          for (const page of ['1', '2', lastPage]) {
            const req = variant(first, { page });
            const [a, b] = [await answerList(db, req), await answerList(db, req, true)];
            expect(a, `${l.name} ${JSON.stringify(req.query)}`).toEqual(b);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  }, 900_000);

  it('gives the same totals on both databases: the counts this data must give', async () => {
    const total = async (l: ListRequest) => (await answerList(t.handle.db, l)).total;
    const cities = scenarios.find((s) => s.name.startsWith('GetCities `san`'));
    if (!cities) throw new Error('no GetCities scenario');
    const [expected] = await rows<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from cities c join states s on s.state_code = c.state_code
        join countries co on co.country_code = c.country_code
        where c.name ilike '%san%' or s.name ilike '%san%' or co.name ilike '%san%'`,
    );
    expect(await total(cities)).toBe(expected?.n);
    expect(await total(variant(cities, { keyword: 'zzq' }))).toBe(0);
  });

  it('reads every list through its indexes: the read audit finds no scan of thousands of rows for a few', async () => {
    const selector = await t.userWith(['CREATE_PROFILE', 'CREATE_EMPLOYEE', 'CREATE_USER']);
    const admin = await t.login();
    const found: string[] = [];
    for (const l of scenarios) {
      // Keywords of three characters or more: a trigram index cannot serve a shorter one (nor a
      // LIKE special alone), and a table is then scanned whatever the SQL.
      for (const keyword of [l.query.keyword, 'san', 'kyo', 'zzq', 'son%', 'o_neil']) {
        const req = variant(l, { keyword });
        const cookie = l.lookup ? selector.cookie : admin;
        const query = req.query as Record<string, string>;
        const param = l.res.parentFilters.find((f) => f.endpoint === l.sub?.endpoint)?.param;
        const res = l.sub
          ? await t.post(l.sub.endpoint, { [param ?? '']: l.sub.code }, cookie, query)
          : await t.get(l.res.def.endpoints.list, cookie, query);
        if (res.statusCode !== 200) {
          // The answer is a bare 500: the same read again, outside HTTP, tells what the audit found.
          const why = await auditedList(req).catch((err: unknown) => String(err));
          found.push(`${l.name} ${JSON.stringify(query)}: ${res.statusCode}\n${String(why).slice(0, 400)}`);
        }
      }
    }
    const known = found.filter((f) => KNOWN_SCANS.some((k) => f.startsWith(k)));
    expect(found.filter((f) => !known.includes(f))).toEqual([]);
    if (known.length) console.log(`Known scans (docs/performance.md):\n${known.join('\n')}`);
  });

  it('fails a planted formulation that scans the table at this volume', async () => {
    const tables = ['cities', 'states', 'countries'];
    const db = t.handle.db;
    // A hashed semi-join inside the keyword's OR: every city is read and tested.
    const semiJoin = () =>
      db.execute(sql`select count(*) from cities where name ilike '%san%'
        or state_code in (select state_code from states where name ilike '%san%')`);
    await expect(t.services.cache.get(['count', 'planted'], tables, semiJoin)).rejects.toThrow(
      /scanned without an index:\n.* on cities read \d+ rows to keep \d+/,
    );
    // Outside a list's kept reads the rule does not apply: the same read passes there.
    await t.services.cache.get(['planted'], tables, semiJoin);
  });

  it('fails the previous formulation, `= any(array(select ...))`, on PostgreSQL 15 and 18', async () => {
    const query = listQuerySchema().parse({ keyword: 'san', sortField: 'name', sortValue: 'asc' });
    const previous = () => previousList(t.handle.db, cities$, { query });
    const read = t.services.cache.get(['list', 'planted'], ['cities', 'states', 'countries'], previous);
    // The embedded database's planner (PostgreSQL 18 since PGlite 0.5) scans the cities too; its
    // PostgreSQL 17 served the init-plan's array through a BitmapOr of the reference indexes here.
    await expect(read).rejects.toThrow(/scanned without an index:\n.* on cities read \d+ rows to keep \d+/);
  });
});
