import { sql } from 'drizzle-orm';
import { recordAudit } from '../audit/recorder.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Database, Executor } from '../db/client.ts';
import {
  audits,
  cities,
  countries,
  departmentManagers,
  departments,
  employees,
  genders,
  performanceMonths,
  performanceScores,
  performances,
  profilePictures,
  profiles,
  roles,
  skills,
  states,
  users,
} from '../db/schema/index.ts';
import { rebuildPerformanceRollups } from '../performance/summaries/rebuild.ts';
import { processPicture } from '../resources/pictures.ts';
import { identicon } from './avatars.ts';
import { withIndexesDeferred } from './bulk.ts';
import { DEMO_PASSWORD, DEMO_ROLES, type DEPARTMENTS, type DemoRoleKey, SKILLS } from './catalogue.ts';
import { loadGeography } from './geography.ts';
import { type DemoPerson, demoPeople } from './people.ts';
import { insertReferenceData, insertRoles } from './reference.ts';
import { insertDailyScores } from './scores.ts';
import { codeSql, countOf, jsonRecords, rows } from './sql.ts';

export interface DemoOptions {
  people?: number;
  /** Days of scores, ending today. */
  days?: number;
  /** ISO2 codes of the countries whose cities load; every country and state always loads. */
  cityCountries?: readonly string[] | 'all';
  pictures?: boolean;
  /** Told each step's duration, for progress output. */
  onStep?: (step: string, ms: number) => void;
}

/** Enough cities for believable addresses while keeping the first embedded start quick. */
export const DEMO_CITY_COUNTRIES = ['GB', 'IE', 'IN', 'CA', 'AU', 'NZ', 'ZA', 'SG'] as const;

/**
 * Accounts with a memorable name for trying each demo role. They are users only, but for one
 * that `manages` a department: it is linked to an employee of its own (`employeeId`) who is that
 * department's manager, since a team is the employees of the departments one's employee manages.
 */
export const DEMO_ACCOUNTS: readonly {
  username: string;
  role: DemoRoleKey;
  manages?: { department: (typeof DEPARTMENTS)[number]; employeeId: string; name: string };
}[] = [
  { username: 'manager', role: 'manager' },
  { username: 'hr.officer', role: 'hr' },
  { username: 'viewer', role: 'viewer' },
  {
    username: 'teamlead',
    role: 'teamLead',
    manages: { department: 'Customer Support', employeeId: 'TL-0001', name: 'Terry Lead' },
  },
];

/**
 * A company that has recorded daily scores for a quarter: the last 91 days (13 weeks, about 65
 * working days) for 150 employees, 20 skills each. A first embedded start loads it in seconds and
 * it takes about 140 MB on disk; a year for 300 people took over a minute and 670 MB (docs/operations.md).
 */
const DEFAULTS = {
  people: 150,
  days: 91,
  cityCountries: DEMO_CITY_COUNTRIES as readonly string[] | 'all',
  pictures: true,
};

/**
 * Demo data (docs/product.md section 1). Idempotent: every row is found again by its natural key
 * (name, username, employee id, ...), so a second run adds nothing; one transaction, so a failed
 * run leaves nothing half-loaded. Returns the resulting row counts.
 */
export async function seedDemo(db: Database, options: DemoOptions = {}): Promise<Record<string, number>> {
  const opts = { ...DEFAULTS, ...options };
  const people = demoPeople(opts.people);
  const step = async (name: string, run: () => Promise<void>) => {
    const started = performance.now();
    await run();
    opts.onStep?.(name, performance.now() - started);
  };
  await db.transaction(async (tx) => {
    // Bulk statements, exempt from the server's statement timeout like migrations.
    await tx.execute(sql`set local statement_timeout = 0`);
    const before = await countOf(tx, users);
    await step('geography', () => loadGeography(tx, { cityCountries: opts.cityCountries }));
    await step('genders, departments, skills, roles', async () => {
      await insertReferenceData(tx, SKILLS);
      await insertRoles(tx);
    });
    await step('users', () => insertUsers(tx, people));
    await step('employees and profiles', async () => {
      await insertEmployees(tx, people);
      await insertProfiles(tx, people);
      await insertManagers(tx, people);
    });
    const storePictures = opts.pictures ? await startPictures(tx, people) : undefined;
    await step('scores', () => insertScores(tx, people, opts.days));
    if (storePictures) await step('pictures (made meanwhile)', storePictures);
    const added = (await countOf(tx, users)) - before;
    if (added > 0) {
      await recordAudit(tx, {
        action: 'IMPORT',
        collection: 'demo data',
        after: { users: added, employees: people.length, days: opts.days },
        actor: null,
      });
    }
  });
  return summary(db);
}

async function insertUsers(tx: Executor, people: DemoPerson[]) {
  const wanted = [
    ...DEMO_ACCOUNTS.map((a) => ({ username: a.username, email: `${a.username}@example.com`, role: a.role })),
    ...people.map((p) => ({ username: p.username, email: p.email, role: p.role })),
  ].map((u) => ({ ...u, role: DEMO_ROLES[u.role].roleName }));
  const existing = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${users} where lower(username) in (select lower(r.username)
      from ${jsonRecords(wanted, sql`username text`)})`,
  );
  if (existing[0]?.n === wanted.length) return;
  const hash = await hashPassword(DEMO_PASSWORD);
  await tx.execute(sql`insert into ${users} (user_code, username, email, password_hash, role_code)
    select ${codeSql('USER-')}, r.username, r.email, ${hash}, ro.role_code
    from ${jsonRecords(wanted, sql`username text, email text, role text`)}
    join ${roles} ro on ro.role_name = r.role
    on conflict do nothing`);
}

/** The demo accounts that manage a department, as the employees they are linked to. */
const managingAccounts = () =>
  DEMO_ACCOUNTS.flatMap((a) =>
    a.manages
      ? [
          {
            employeeId: a.manages.employeeId,
            name: a.manages.name,
            department: a.manages.department,
            username: a.username,
          },
        ]
      : [],
  );

async function insertEmployees(tx: Executor, people: DemoPerson[]) {
  const list = [
    ...people.map((p) => ({
      employeeId: p.employeeId,
      name: `${p.firstName} ${p.lastName}`,
      department: p.department,
      joinDate: p.joinDate,
      username: p.username,
    })),
    ...managingAccounts().map((a) => ({ ...a, joinDate: '2020-01-06' })),
  ];
  await tx.execute(sql`insert into ${employees} (employee_code, employee_id, name, department_code, join_date, user_code)
    select ${codeSql('EMP-')}, r."employeeId", r.name, d.department_code, r."joinDate"::date, u.user_code
    from ${jsonRecords(list, sql`"employeeId" text, name text, department text, "joinDate" text, username text`)}
    join ${departments} d on lower(d.name) = lower(r.department)
    left join ${users} u on lower(u.username) = lower(r.username)
    on conflict do nothing`);
}

/**
 * Each department's managers: the person holding the Manager role in it, and the demo account
 * that manages it. One statement whatever the number of people.
 */
async function insertManagers(tx: Executor, people: DemoPerson[]) {
  const managers = [
    ...people
      .filter((p) => p.role === 'manager')
      .map((p) => ({ employeeId: p.employeeId, department: p.department })),
    ...managingAccounts(),
  ].map(({ employeeId, department }) => ({ employeeId, department }));
  await tx.execute(sql`insert into ${departmentManagers} (department_code, employee_code)
    select d.department_code, e.employee_code
    from ${jsonRecords(managers, sql`"employeeId" text, department text`)}
    join ${departments} d on lower(d.name) = lower(r.department)
    join ${employees} e on lower(e.employee_id) = lower(r."employeeId")
    on conflict do nothing`);
}

async function insertProfiles(tx: Executor, people: DemoPerson[]) {
  const places = await rows<{ city: string; state: string; country: string }>(
    tx,
    sql`select ci.city_code as city, ci.state_code as state, ci.country_code as country
      from ${cities} ci order by ci.id limit 5000`,
  );
  const list = people.map((p) => {
    const place = places.length ? places[p.cityPick % places.length] : undefined;
    return { ...p, city: place?.city ?? null, state: place?.state ?? null, country: place?.country ?? null };
  });
  await tx.execute(sql`insert into ${profiles} (profile_code, first_name, last_name, dob, gender_code,
      phone_number, address_line_one, address_line_two, country_code, state_code, city_code, postal_code,
      linkedin, twitter, facebook, instagram, website_portfolio_url, notify_email, notify_sms, notify_push,
      user_code)
    select ${codeSql('PROFILE-')}, r."firstName", r."lastName", r.dob::date, g.gender_code,
      r."phoneNumber", r."addressLineOne", r."addressLineTwo", r.country, r.state, r.city, r."postalCode",
      r.linkedin, r.twitter, r.facebook, r.instagram, r."websitePortfolioUrl",
      r."notifyEmail", r."notifySms", r."notifyPush", u.user_code
    from ${jsonRecords(
      list,
      sql`"firstName" text, "lastName" text, dob text, gender text, "phoneNumber" text,
        "addressLineOne" text, "addressLineTwo" text, country text, state text, city text, "postalCode" text,
        linkedin text, twitter text, facebook text, instagram text, "websitePortfolioUrl" text,
        "notifyEmail" boolean, "notifySms" boolean, "notifyPush" boolean, username text`,
    )}
    join ${genders} g on lower(g.gender_name) = lower(r.gender)
    join ${users} u on lower(u.username) = lower(r.username)
    on conflict do nothing`);
}

const PICTURE_BATCH = 25;

/**
 * Starts making the pictures of the demo profiles that have none, and answers a function that
 * stores them. sharp works on its own threads, so the pictures are made while the single-threaded
 * embedded database loads the scores.
 */
async function startPictures(tx: Executor, people: DemoPerson[]) {
  const missing = await rows<{ profile_code: string; username: string }>(
    tx,
    sql`select pr.profile_code, u.username from ${profiles} pr
      join ${users} u on u.user_code = pr.user_code
      where lower(u.username) in (select lower(r.username) from ${jsonRecords(
        people.map((p) => ({ username: p.username })),
        sql`username text`,
      )})
      and not exists (select 1 from ${profilePictures} pp where pp.profile_code = pr.profile_code)`,
  );
  const made = Promise.all(
    missing.map(async (m) => ({
      profileCode: m.profile_code,
      ...(await processPicture({
        fieldname: 'profilePicture',
        filename: `${m.username}.png`,
        mimetype: 'image/png',
        data: await identicon(m.username),
      })),
    })),
  );
  // Handled here so that a failure waits for the store step instead of going unhandled meanwhile.
  made.catch(() => {});
  return async () => {
    const pictures = await made;
    for (let i = 0; i < pictures.length; i += PICTURE_BATCH) {
      await tx
        .insert(profilePictures)
        .values(pictures.slice(i, i + PICTURE_BATCH))
        .onConflictDoNothing();
    }
  };
}

/** About 60,000 scores a statement at 20 skills and a quarter's working days. */
const EMPLOYEES_PER_STATEMENT = 50;

async function insertScores(tx: Executor, people: DemoPerson[], days: number) {
  if (days <= 0) return;
  const today = new Date();
  const from = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)),
  );
  const ids = people.map((p) => ({ employeeId: p.employeeId }));
  // Only employees without any performance yet: a re-run, even on a later day, adds nothing.
  const unscored = sql`select e.id, e.employee_code from ${employees} e
    where lower(e.employee_id) in (select lower(r."employeeId") from ${jsonRecords(ids, sql`"employeeId" text`)})
    and not exists (select 1 from ${performances} p where p.employee_code = e.employee_code)`;
  const [unscoredCount] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from (${unscored}) u`);
  if (!unscoredCount?.n) return;
  // A statement per few dozen employees: the embedded database holds the server's thread while a
  // statement runs, and a first start answers its health probes between two.
  const chunks = Math.ceil(unscoredCount.n / EMPLOYEES_PER_STATEMENT);
  const load = async () => {
    for (let chunk = 0; chunk < chunks; chunk++) {
      await insertDailyScores(tx, {
        employees: sql`select u.id, u.employee_code from (${unscored}) u where u.id % ${chunks} = ${chunk}`,
        skills: sql`select s.id, s.skill_code from ${skills} s
          where lower(s.title) in (select lower(r.title) from ${jsonRecords(
            SKILLS.map((s) => ({ title: s.title })),
            sql`title text`,
          )})`,
        from: from.toISOString().slice(0, 10),
        days,
        workdaysOnly: true,
      });
    }
  };
  if ((await countOf(tx, performances)) === 0) {
    // Index builds sort in memory instead of spilling to disk.
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    await withIndexesDeferred(tx, ['performances', 'performance_scores'], load);
  } else await load();
  await rebuildPerformanceRollups(tx);
}

async function summary(db: Database) {
  const tables = {
    genders,
    countries,
    states,
    cities,
    departments,
    skills,
    roles,
    users,
    employees,
    profiles,
    profilePictures,
    performances,
    performanceScores,
    performanceMonths,
    audits,
  };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) out[name] = await countOf(db, table);
  return out;
}
