import { parseArgs } from 'node:util';
import { faker } from '@faker-js/faker';
import { type SQL, sql } from 'drizzle-orm';
import { hashPassword } from '../src/auth/passwords.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import {
  audits,
  cities,
  employees,
  genders,
  performances,
  profiles,
  roles,
  users,
} from '../src/db/schema/index.ts';
import { rebuildPerformanceRollups } from '../src/performance/summaries/rebuild.ts';
import { setIndexesAside } from '../src/seed/bulk.ts';
import { DEMO_PASSWORD, DEMO_ROLES, SKILLS } from '../src/seed/catalogue.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { loadGeography } from '../src/seed/geography.ts';
import { insertReferenceData, insertRoles } from '../src/seed/reference.ts';
import { insertDailyScores } from '../src/seed/scores.ts';
import { codeSql, countOf, rows } from '../src/seed/sql.ts';
import { BENCH_ADMIN_PASSWORD, benchDatabaseState, benchUrl } from './lib/database.ts';

const HELP = `npm run bench:data -w @wfc/server -- [options]   (DATABASE_URL names the PostgreSQL server)

  --database NAME     database to fill, created if missing (BENCH_DATABASE, default wfc_bench)
  --employees N       employees, each with a user (BENCH_EMPLOYEES, default 5000)
  --skills N          skills scored every day (BENCH_SKILLS, default 20)
  --days N            days of scores ending today (BENCH_DAYS, default 365)
  --audits N          audit records (BENCH_AUDITS, default 1000000)
  --cities LIST       'all' or ISO2 codes, e.g. GB,IE (BENCH_CITIES, default all)
  --concurrency N     parallel loaders (BENCH_CONCURRENCY, default 2)
  --demo              the demo data instead (npm run seed:demo's: 300 people, 14,190 cities), so that
                      bench can measure at demo volume too; the sizes above are then ignored

The database is emptied first, but only one this generator created.`;

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: process.env.BENCH_DATABASE ?? 'wfc_bench' },
    employees: { type: 'string', default: process.env.BENCH_EMPLOYEES ?? '5000' },
    skills: { type: 'string', default: process.env.BENCH_SKILLS ?? '20' },
    days: { type: 'string', default: process.env.BENCH_DAYS ?? '365' },
    audits: { type: 'string', default: process.env.BENCH_AUDITS ?? '1000000' },
    cities: { type: 'string', default: process.env.BENCH_CITIES ?? 'all' },
    concurrency: { type: 'string', default: process.env.BENCH_CONCURRENCY ?? '2' },
    demo: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

function count(name: string, raw: string, min = 0) {
  const n = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number >= ${min}`);
  return n;
}
const size = {
  employees: count('employees', args.employees, 1),
  skills: count('skills', args.skills, 1),
  days: count('days', args.days),
  audits: count('audits', args.audits),
  concurrency: count('concurrency', args.concurrency, 1),
  cities:
    args.cities === 'all' ? ('all' as const) : args.cities.split(',').map((c) => c.trim().toUpperCase()),
};

/** Employees per scoring statement: small enough to share out, large enough to stay set-based. */
const EMPLOYEES_PER_CHUNK = 250;
const AUDITS_PER_CHUNK = 100_000;

const state = await benchDatabaseState(args.database, true);
if (state === 'foreign') {
  throw new Error(
    `Database ${args.database} exists and was not made by this generator; choose another --database`,
  );
}
const url = new URL(benchUrl(args.database));
// Sorts for index builds stay in memory; losing the last commits to a crash costs nothing here.
url.searchParams.set('options', '-c maintenance_work_mem=512MB -c work_mem=128MB -c synchronous_commit=off');
const handle = await openDatabase({
  databaseUrl: url.toString(),
  dataDir: '',
  poolSize: size.concurrency + 1,
});
const db = handle.db;

const timings: [string, number][] = [];
async function step(name: string, work: () => Promise<unknown>) {
  const started = performance.now();
  console.log(`${name}...`);
  await work();
  const seconds = (performance.now() - started) / 1000;
  timings.push([name, seconds]);
  console.log(`  ${name}: ${seconds.toFixed(1)} s`);
}

/** A part of a step, timed on its own line. */
async function phase(name: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  console.log(`    ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Runs the jobs `concurrency` at a time, each on its own pooled connection. */
async function inParallel(jobs: (() => Promise<unknown>)[]) {
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  };
  await Promise.all(Array.from({ length: size.concurrency }, worker));
}

function chunks(total: number, per: number) {
  return Array.from({ length: Math.ceil(total / per) }, (_, i) => ({
    from: i * per + 1,
    to: Math.min(total, (i + 1) * per),
  }));
}

const textArray = (values: readonly string[]): SQL =>
  sql`${`{${values.map((v) => JSON.stringify(v)).join(',')}}`}::text[]`;

async function emptyDatabase() {
  const tables = await rows<{ name: string }>(
    db,
    sql`select quote_ident(tablename) as name from pg_tables
      where schemaname = 'public' and tablename <> 'schema_migrations'`,
  );
  if (tables.length) {
    await db.execute(sql.raw(`truncate ${tables.map((t) => t.name).join(', ')} restart identity cascade`));
  }
}

function benchSkills() {
  return Array.from({ length: size.skills }, (_, i) =>
    i < SKILLS.length ? SKILLS[i]! : { title: `Skill ${i + 1}`, description: 'Generated for benchmarks' },
  );
}

/** Names cycle through faker's lists with different strides, so that pairs rarely repeat. */
async function insertPeople() {
  const first = textArray(faker.definitions.person.first_name?.generic ?? ['Alex']);
  const last = textArray(faker.definitions.person.last_name?.generic ?? ['Smith']);
  const hash = await hashPassword(DEMO_PASSWORD);
  const person = sql`select g.i,
      (${first})[1 + (g.i * 7919) % cardinality(${first})] as first,
      (${last})[1 + (g.i * 104729) % cardinality(${last})] as last
    from generate_series(1, ${size.employees}) as g(i)`;
  await db.execute(sql`insert into ${users} (user_code, username, email, password_hash, role_code)
    select ${codeSql('USER-')}, lower(regexp_replace(p.first || '.' || p.last, '[^A-Za-z.]', '', 'g')) || p.i,
      lower(regexp_replace(p.first || '.' || p.last, '[^A-Za-z.]', '', 'g')) || p.i || '@example.com',
      ${hash}, r.role_code
    from (${person}) p cross join (select role_code from ${roles} where role_name = ${DEMO_ROLES.viewer.roleName}) r
    order by p.i`);
  await db.execute(sql`insert into ${employees} (employee_code, employee_id, name, department_code, join_date, user_code)
    select ${codeSql('EMP-')}, 'B' || lpad(p.i::text, 6, '0'), p.first || ' ' || p.last,
      d.department_code, date '2010-01-01' + (p.i * 37) % 5000, u.user_code
    from (${person}) p
    join ${users} u on u.username = lower(regexp_replace(p.first || '.' || p.last, '[^A-Za-z.]', '', 'g')) || p.i
    join (select department_code, row_number() over (order by id) - 1 as n, count(*) over () as of
          from departments) d on d.n = p.i % d.of
    order by p.i`);
}

/**
 * A profile for every user with an employee: its names, a gender, and an address in a city drawn
 * with a stride over every city, so that the profile list's joins and keyword reach all five
 * references at volume.
 */
async function insertProfiles() {
  await db.execute(sql`insert into ${profiles} (profile_code, first_name, last_name, dob, gender_code,
      phone_number, country_code, state_code, city_code, user_code)
    select ${codeSql('PROFILE-')}, split_part(e.name, ' ', 1), substr(e.name, strpos(e.name, ' ') + 1),
      date '1960-01-01' + ((e.id * 53) % 15000)::int, g.gender_code, '+1555' || lpad(e.id::text, 7, '0'),
      c.country_code, c.state_code, c.city_code, e.user_code
    from ${employees} e
    join (select gender_code, row_number() over (order by id) - 1 as n, count(*) over () as of
          from ${genders}) g on g.n = e.id % g.of
    join (select country_code, state_code, city_code, row_number() over (order by id) - 1 as n
          from ${cities}) c on c.n = (e.id * 7919) % (select count(*) from ${cities})
    where e.user_code is not null
    order by e.id`);
}

async function insertScores() {
  if (size.days === 0) return;
  const today = new Date();
  const from = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (size.days - 1)),
  );
  const deferred = await setIndexesAside(db, ['performances', 'performance_scores']);
  await phase('rows', () =>
    inParallel(
      chunks(size.employees, EMPLOYEES_PER_CHUNK).map(
        (c) => () =>
          insertDailyScores(db, {
            employees: sql`select id, employee_code from ${employees} where id between ${c.from} and ${c.to}`,
            skills: sql`select id, skill_code from skills`,
            from: from.toISOString().slice(0, 10),
            days: size.days,
          }),
      ),
    ),
  );
  await phase('indexes, keys and foreign keys', () => deferred.restore(size.concurrency));
}

const ACTIONS = [
  ['UPDATE', 40],
  ['CREATE', 25],
  ['LOGIN', 20],
  ['LOGOUT', 8],
  ['DELETE', 4],
  ['LOGIN_FAILED', 3],
] as const;
const COLLECTIONS = ['employees', 'profiles', 'users', 'departments', 'skills', 'cities', 'roles', 'genders'];

/** A year of history in time order, from the bench users, with small before/after bodies. */
async function insertAudits() {
  if (size.audits === 0) return;
  const actions = textArray(ACTIONS.flatMap(([a, weight]) => Array<string>(weight).fill(a)));
  const collections = textArray(COLLECTIONS);
  const deferred = await setIndexesAside(db, ['audits']);
  await phase('rows', () =>
    inParallel(
      chunks(size.audits, AUDITS_PER_CHUNK).map(
        (c) => () =>
          db.execute(sql`insert into ${audits} (audit_code, action, collection, before, after, changes,
            user_code, username, created_at)
          select ${codeSql('AUDIT-')}, a.action,
            case when a.action like 'LOG%' then 'auth' else (${collections})[1 + (g.i * 31) % cardinality(${collections})] end,
            case when a.action in ('UPDATE', 'DELETE') then jsonb_build_object('name', 'Value ' || (g.i % 997)) end,
            case when a.action <> 'DELETE' then jsonb_build_object('name', 'Value ' || (g.i % 991)) end,
            case when a.action = 'UPDATE'
              then jsonb_build_object('name', jsonb_build_object('old', 'Value ' || (g.i % 997), 'new', 'Value ' || (g.i % 991))) end,
            u.user_code, u.username,
            now() - interval '365 days' + (g.i::float8 / ${size.audits}) * interval '365 days'
          from generate_series(${c.from}::bigint, ${c.to}::bigint) as g(i)
          cross join lateral (select (${actions})[1 + (g.i * 7) % 100] as action) a
          join ${users} u on u.id = 1 + (g.i * 13) % ${size.employees + 1}
          order by g.i`),
      ),
    ),
  );
  await phase('indexes', () => deferred.restore(size.concurrency));
}

const started = performance.now();
console.log(
  args.demo
    ? `Filling ${args.database} (${state === 'created' ? 'new' : 'emptied first'}) with the demo data`
    : `Filling ${args.database} (${state === 'created' ? 'new' : 'emptied first'}): ${size.employees} employees, ` +
        `${size.skills} skills, ${size.days} days, ${size.audits} audits, cities ${size.cities === 'all' ? 'all' : size.cities.join(',')}`,
);
try {
  await step('migrate and bootstrap', async () => {
    await migrate(db);
    await emptyDatabase();
    await bootstrap(db, BENCH_ADMIN_PASSWORD);
  });
  if (args.demo) await fillDemo();
  else await fillGenerated();
  await step('vacuum and analyze', () => db.execute(sql`vacuum analyze`));
  const total = (performance.now() - started) / 1000;
  console.table(Object.fromEntries(timings.map(([name, seconds]) => [name, `${seconds.toFixed(1)} s`])));
  console.table({
    employees: await countOf(db, employees),
    profiles: await countOf(db, profiles),
    performances: await countOf(db, performances),
    audits: await countOf(db, audits),
    ...Object.fromEntries(
      (
        await rows<{ name: string; n: string }>(
          db,
          sql`select relname as name, n_live_tup as n from pg_stat_user_tables
            where relname in ('cities', 'performance_scores', 'performance_months')`,
        )
      ).map((r) => [r.name, Number(r.n)]),
    ),
  });
  console.log(
    `Done in ${total.toFixed(0)} s. Sign in as admin / ${BENCH_ADMIN_PASSWORD}; users share '${DEMO_PASSWORD}'.`,
  );
} finally {
  await handle.close();
}

/** What `npm run seed:demo` loads, step by step as it reports them. */
async function fillDemo() {
  await seedDemo(db, {
    onStep: (name, ms) => {
      timings.push([name, ms / 1000]);
      console.log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
    },
  });
}

async function fillGenerated() {
  await step('countries, states and cities', async () => {
    const deferred = await setIndexesAside(db, ['countries', 'states', 'cities']);
    await loadGeography(db, { cityCountries: size.cities });
    await deferred.restore(size.concurrency);
  });
  await step('genders, departments, skills and roles', async () => {
    await insertReferenceData(db, benchSkills());
    await insertRoles(db);
  });
  await step('users, employees and profiles', async () => {
    await insertPeople();
    await insertProfiles();
  });
  await step('scores', insertScores);
  await step('performance rollups', () => rebuildPerformanceRollups(db));
  await step('audit records', insertAudits);
}
