import { userUpdateSchema } from '@wfc/contract';
import { City, Country, State } from 'country-state-city';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { DEMO_PASSWORD, DEMO_ROLES, DEPARTMENTS, GENDERS, SKILLS } from '../../../src/seed/catalogue.ts';
import { DEMO_ACCOUNTS, type DemoOptions, seedDemo } from '../../../src/seed/demo.ts';
import { rows } from '../../../src/seed/sql.ts';
import { sharedTestApp } from '../../support/app.ts';

// More people than one scoring statement takes (seed/demo.ts loads 50 a statement), so that the
// rollups are checked against scores loaded in several statements, as the default volume is.
const PEOPLE = 60;
const DAYS = 40;
// Small volumes keep the file quick; the embedded start uses the same code with the defaults.
const OPTIONS: DemoOptions = { people: PEOPLE, days: DAYS, cityCountries: ['IE', 'NZ'] };

const t = sharedTestApp();
let first: Record<string, number>;
let second: Record<string, number>;

function workdaysEndingToday(days: number) {
  const today = new Date();
  let n = 0;
  for (let i = 0; i < days; i++) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) n++;
  }
  return n;
}

beforeAll(async () => {
  first = await seedDemo(t.handle.db, OPTIONS);
  second = await seedDemo(t.handle.db, OPTIONS);
}, 180_000);

describe('demo data', () => {
  it('loads the expected volumes', () => {
    const cities = City.getAllCities().filter((c) => c.countryCode === 'IE' || c.countryCode === 'NZ');
    expect(first).toMatchObject({
      genders: GENDERS.length,
      countries: Country.getAllCountries().length,
      states: State.getAllStates().length,
      cities: cities.length,
      departments: DEPARTMENTS.length,
      skills: SKILLS.length,
      // Administrator from bootstrap, then the demo roles.
      roles: 1 + Object.keys(DEMO_ROLES).length,
      users: 1 + DEMO_ACCOUNTS.length + PEOPLE,
      // The people, and the demo accounts that manage a department as employees of their own.
      employees: PEOPLE + DEMO_ACCOUNTS.filter((a) => a.manages).length,
      profiles: PEOPLE,
      profilePictures: PEOPLE,
      performances: PEOPLE * workdaysEndingToday(DAYS),
    });
    // About 1 skill in 23 is left unscored, and unscored skills have no row.
    const cells = first.performances! * SKILLS.length;
    expect(first.performanceScores).toBeGreaterThan(cells * 0.9);
    expect(first.performanceScores).toBeLessThan(cells);
    expect(first.performanceMonths).toBeGreaterThanOrEqual(PEOPLE * 2);
  });

  it('adds nothing when run again', () => {
    expect(second).toEqual(first);
  });

  it('writes the daily averages and rollups exactly as a rebuild computes them', async () => {
    const snapshot = async () => ({
      days: await rows(
        t.handle.db,
        sql`select performance_code, daily_average::text, month_sum::text, month_days from performances order by 1`,
      ),
      months: await rows(
        t.handle.db,
        sql`select employee_code, month::text, day_sum::text, day_count, year_sum::text, year_days
          from performance_months order by 1, 2`,
      ),
      monthDays: await rows(t.handle.db, sql`select * from performance_month_days order by 1, 2`),
    });
    const loaded = await snapshot();
    await rebuildPerformanceRollups(t.handle.db);
    expect(await snapshot()).toEqual(loaded);
    const [scores] = await rows<{ bad: number; low: number; high: number }>(
      t.handle.db,
      sql`select count(*) filter (where points is null)::int as bad, min(points)::int as low, max(points)::int as high
        from performance_scores`,
    );
    expect(scores!.bad).toBe(0);
    expect(scores!.low).toBeGreaterThanOrEqual(0);
    expect(scores!.high).toBeLessThanOrEqual(10);
    expect(scores!.high).toBeGreaterThan(scores!.low);
  });

  it('gives codes of the usual shape and consistent references', async () => {
    const [row] = await rows<{ employee_code: string; performance_code: string; city_code: string }>(
      t.handle.db,
      sql`select e.employee_code, p.performance_code, pr.city_code
        from employees e join performances p on p.employee_code = e.employee_code
        join users u on u.user_code = e.user_code join profiles pr on pr.user_code = u.user_code limit 1`,
    );
    expect(row!.employee_code).toMatch(/^EMP-[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(row!.performance_code).toMatch(/^PERF-[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(row!.city_code).toMatch(/^CITY-[0-9A-HJKMNP-TV-Z]{16}$/);
    const [mismatch] = await rows<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from profiles pr join cities c on c.city_code = pr.city_code
        where c.state_code <> pr.state_code or c.country_code <> pr.country_code`,
    );
    expect(mismatch!.n).toBe(0);
  });

  it('lets the demo accounts sign in with the permissions of their role', async () => {
    const cookie = await t.login('manager', DEMO_PASSWORD);
    const session = (await t.get('GetSession', cookie)).json();
    const held = session.data.role.rolePermissions.map((p: { permissionName: string }) => p.permissionName);
    expect(session.data.role.roleName).toBe(DEMO_ROLES.manager.roleName);
    expect([...held].sort()).toEqual([...DEMO_ROLES.manager.permissions].sort());

    const employees = (await t.get('GetEmployees', cookie, { keyword: 'E100', limit: 5 })).json();
    expect(employees.total).toBe(PEOPLE);
    const viewer = await t.login('viewer', DEMO_PASSWORD);
    expect((await t.get('GetAudits', viewer)).statusCode).toBe(403);
  });

  it('signs a demo employee in to their own records only, and the team lead to their department', async () => {
    const [person] = await rows<{ username: string; employee_code: string }>(
      t.handle.db,
      sql`select u.username, e.employee_code from users u
        join employees e on e.user_code = u.user_code join roles r on r.role_code = u.role_code
        where r.role_name = ${DEMO_ROLES.employee.roleName} order by u.id limit 1`,
    );
    const cookie = await t.login(person!.username, DEMO_PASSWORD);
    const session = (await t.get('GetSession', cookie)).json().data;
    expect(session.employee.employeeCode).toBe(person!.employee_code);
    for (const list of ['GetEmployees', 'GetProfiles', 'GetPerformances']) {
      expect((await t.get(list, cookie)).json().total, list).toBe(1);
    }

    const lead = await t.login('teamlead', DEMO_PASSWORD);
    const [team] = await rows<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from employees e join departments d on d.department_code = e.department_code
        where d.name = 'Customer Support'`,
    );
    const listed = (await t.get('GetEmployees', lead, { limit: 100 })).json();
    expect(listed.total).toBe(team!.n);
    expect(
      listed.data.every((e: { department: { name: string } }) => e.department.name === 'Customer Support'),
    ).toBe(true);
    expect((await t.get('GetPerformances', lead)).json().total).toBe(team!.n);
    expect((await t.get('GetAudits', lead)).statusCode).toBe(403);
  });

  it('makes only users the console itself could save: every username and email passes the user rules', async () => {
    const all = await rows<{ username: string; email: string }>(
      t.handle.db,
      sql`select username, email from users`,
    );
    expect(all.length).toBeGreaterThan(PEOPLE);
    const refused = all.filter(
      (u) => !userUpdateSchema.pick({ username: true, email: true }).safeParse(u).success,
    );
    expect(refused).toEqual([]);
  });

  it('gives every profile a picture the browser can load', async () => {
    const cookie = await t.login('hr.officer', DEMO_PASSWORD);
    const list = (await t.get('GetProfiles', cookie, { limit: 1 })).json();
    const url = list.data[0].profilePicture.thumbnail as string;
    const picture = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');
  });
});
