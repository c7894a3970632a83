import { DISTRIBUTION_BUCKETS, type PerformanceOverview } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { rows } from '../../../src/seed/sql.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

/*
 * The overview and the trend read rollups only: skill sums per department and date, per department
 * and month, per employee and month; daily-average sums per department and date; the dates each
 * employee's yearly average changes bucket, and those changes summed per department. After every
 * kind of write, each rollup must equal what the scores themselves give, and the overview's and
 * trend's numbers the means computed directly from the scores.
 */

let t: TestApp;
let admin: string;
let ops: string;
let sales: string;
let alpha: string;
let bravo: string;
let charlie: string;
let ann: string;
let bob: string;
let cy: string;

/** Every scored date and the days around them: a month read whole, less some days, or by its days. */
const DATES = [
  '2024-01-31',
  '2024-02-01',
  '2024-02-14',
  '2024-02-15',
  '2024-02-28',
  '2024-03-10',
  '2024-03-31',
  '2024-12-31',
  '2025-01-02',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  ops = await makeDepartment(t, admin, 'Operations');
  sales = await makeDepartment(t, admin, 'Sales');
  alpha = await makeSkill(t, admin, 'Alpha');
  bravo = await makeSkill(t, admin, 'Bravo');
  charlie = await makeSkill(t, admin, 'Charlie');
  ann = await makeEmployee(t, admin, ops, 'SKD-1', 'Ann Lee');
  bob = await makeEmployee(t, admin, ops, 'SKD-2', 'Bob Stone');
  cy = await makeEmployee(t, admin, sales, 'SKD-3', 'Cy Young');
});
afterAll(() => t.close());

interface RollupRow {
  owner: string;
  period: string;
  skill_code: string;
  points_sum: number;
  scored: number;
}

/**
 * Each skill rollup as stored, keyed by codes, and what the scores themselves sum to for the same
 * owner (department or employee) and period (date or month).
 */
const ROLLUPS = [
  {
    stored: sql`select department_code as owner, date::text as period, skill_code, points_sum, scored
        from performance_skill_days`,
    owner: sql`e.department_code`,
    period: sql`p.date`,
  },
  {
    stored: sql`select department_code as owner, month::text as period, skill_code, points_sum, scored
        from performance_department_skill_months`,
    owner: sql`e.department_code`,
    period: sql`date_trunc('month', p.date)::date`,
  },
  {
    stored: sql`select 'all' as owner, date::text as period, skill_code, points_sum, scored
        from performance_overall_skill_days`,
    owner: sql`'all'`,
    period: sql`p.date`,
  },
  {
    stored: sql`select 'all' as owner, month::text as period, skill_code, points_sum, scored
        from performance_overall_skill_months`,
    owner: sql`'all'`,
    period: sql`date_trunc('month', p.date)::date`,
  },
  {
    stored: sql`select e.employee_code as owner, m.month::text as period, k.skill_code, m.points_sum, m.scored
        from performance_skill_months m
        join employees e on e.id = m.employee_id
        join skills k on k.id = m.skill_id`,
    owner: sql`e.employee_code`,
    period: sql`date_trunc('month', p.date)::date`,
  },
];

/** Every skill rollup as stored, and as computed from the scores: they must be the same rows. */
async function expectRollupExact() {
  for (const rollup of ROLLUPS) {
    const stored = await rows<RollupRow>(
      t.handle.db,
      sql`select * from (${rollup.stored}) r order by 1, 2, 3`,
    );
    const direct = await rows<RollupRow>(
      t.handle.db,
      sql`select ${rollup.owner} as owner, ${rollup.period}::text as period, ps.skill_code,
            sum(ps.points)::int as points_sum, count(ps.points)::int as scored
          from performance_scores ps
          join performances p on p.performance_code = ps.performance_code
          join employees e on e.employee_code = p.employee_code
          where ps.points is not null
          group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(stored).toEqual(direct);
  }
}

/**
 * Ranges that start and end on every kind of day: inside one month, across a month's and a year's
 * end, whole months, and a part month read whole less its other days.
 */
const RANGES: [string, string][] = [
  ['2024-01-01', '2024-12-31'],
  ['2024-01-31', '2024-02-01'],
  ['2024-02-01', '2024-02-29'],
  ['2024-02-02', '2024-02-28'],
  ['2024-02-10', '2024-03-10'],
  ['2024-01-15', '2024-03-09'],
  ['2024-03-11', '2025-01-02'],
  ['2024-12-31', '2025-01-02'],
  ['2024-03-11', '2024-12-31'],
];

/** Each skill's mean and count over a range of one employee's days, straight from the scores. */
async function directTrendSkills(employeeCode: string, from: string, to: string) {
  return rows<{ skillCode: string; title: string; average: number | null; scored: number }>(
    t.handle.db,
    sql`select k.skill_code as "skillCode", k.title,
          case when s.n > 0 then round(round(s.total::numeric / s.n, 20), 2)::float8 end as average,
          coalesce(s.n, 0)::int as scored
        from skills k left join (
          select ps.skill_code, sum(ps.points) as total, count(ps.points) as n
          from performance_scores ps
          join performances p on p.performance_code = ps.performance_code
          where p.employee_code = ${employeeCode} and p.date between ${from}::date and ${to}::date
          group by ps.skill_code
        ) s on s.skill_code = k.skill_code
        order by lower(k.title), k.id`,
  );
}

/**
 * A range's days and months straight from the scores: a day's average is the mean of its scores, a
 * month's the mean of its days' averages; every month of the range listed, null when unscored.
 */
async function directTrendDays(employeeCode: string, from: string, to: string) {
  const daily = sql`select p.date, sum(ps.points)::numeric / count(ps.points) as average
      from performances p join performance_scores ps on ps.performance_code = p.performance_code
      where p.employee_code = ${employeeCode} and p.date between ${from}::date and ${to}::date
        and ps.points is not null
      group by p.date`;
  const days = await rows<{ date: string; daily: number }>(
    t.handle.db,
    sql`select d.date::text as date, round(round(d.average, 20), 2)::float8 as daily
        from (${daily}) d order by d.date`,
  );
  const months = await rows<{ month: string; average: number | null }>(
    t.handle.db,
    sql`select to_char(g.month, 'YYYY-MM') as month, round(round(avg(d.average), 20), 2)::float8 as average
        from generate_series(date_trunc('month', ${from}::date), ${to}::date, interval '1 month') g(month)
        left join (${daily}) d on date_trunc('month', d.date) = g.month
        group by g.month order by g.month`,
  );
  return { days, months };
}

/** The trend of every employee over every range: its days, months and skills equal the scores' own means. */
async function expectTrendsExact() {
  const employees = await rows<{ code: string }>(
    t.handle.db,
    sql`select employee_code as code from employees order by 1`,
  );
  for (const { code } of employees) {
    for (const [from, to] of RANGES) {
      const res = await t.post('GetPerformanceTrend', { employeeCode: code, from, to }, admin);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(data.skills, `${code} ${from}..${to}`).toEqual(await directTrendSkills(code, from, to));
      expect({ days: data.days, months: data.months }, `${code} ${from}..${to}`).toEqual(
        await directTrendDays(code, from, to),
      );
    }
  }
}

/** Each skill's monthly and yearly mean up to the date, straight from the scores, rounded as the server rounds. */
async function directSkills(date: string, departmentCode?: string) {
  const month = `${date.slice(0, 7)}-01`;
  const year = `${date.slice(0, 4)}-01-01`;
  const mean = (s: string, n: string) =>
    sql.raw(`case when ${n} > 0 then round(round(${s}::numeric / ${n}, 20), 2)::float8 end`);
  return rows<{ skillCode: string; title: string; monthly: number | null; yearly: number | null }>(
    t.handle.db,
    sql`select k.skill_code as "skillCode", k.title, ${mean('s.month_sum', 's.month_n')} as monthly,
          ${mean('s.year_sum', 's.year_n')} as yearly
        from skills k left join (
          select ps.skill_code,
            sum(ps.points) filter (where p.date >= ${month}::date) as month_sum,
            count(ps.points) filter (where p.date >= ${month}::date) as month_n,
            sum(ps.points) as year_sum, count(ps.points) as year_n
          from performance_scores ps
          join performances p on p.performance_code = ps.performance_code
          join employees e on e.employee_code = p.employee_code
          where p.date >= ${year}::date and p.date <= ${date}::date
            ${departmentCode ? sql`and e.department_code = ${departmentCode}` : sql``}
          group by ps.skill_code
        ) s on s.skill_code = k.skill_code
        order by lower(k.title), k.id`,
  );
}

/**
 * Each employee's daily averages straight from the scores (`employee_code, department_code, date,
 * daily`), kept to 30 decimals as a save keeps them.
 */
const directDays = sql`
  select p.employee_code, e.department_code, p.date,
    (sum(ps.points)::numeric(36, 30) / count(ps.points))::numeric(36, 30) as daily
  from performance_scores ps
  join performances p on p.performance_code = ps.performance_code
  join employees e on e.employee_code = p.employee_code
  where ps.points is not null
  group by 1, 2, 3`;

/** The bucket of each employee's yearly average on each scored day, and the one before it in the year. */
const directBuckets = sql`
  select v.employee_code, v.department_code, v.date, v.bucket,
    lag(v.bucket) over (partition by v.employee_code, date_trunc('year', v.date) order by v.date) as previous
  from (
    select d.employee_code, d.department_code, d.date,
      least(floor(round(round(sum(d.daily) over w / count(*) over w, 20), 2)), 9)::int as bucket
    from (${directDays}) d
    window w as (partition by d.employee_code, date_trunc('year', d.date) order by d.date)
  ) v`;

/** The department days and months, bucket changes, and department buckets by day and month, as stored and as the scores give them. */
async function expectDepartmentRollupsExact() {
  const pairs = [
    [
      sql`select department_code, date::text, daily_sum::text, days from performance_department_days
          where days <> 0`,
      sql`select department_code, date::text, sum(daily)::text as daily_sum, count(*)::int as days
          from (${directDays}) d group by 1, 2`,
    ],
    [
      sql`select department_code, month::text, daily_sum::text, days from performance_department_months
          where days <> 0`,
      sql`select department_code, date_trunc('month', date)::date::text as month, sum(daily)::text as daily_sum,
            count(*)::int as days
          from (${directDays}) d group by 1, 2`,
    ],
    [
      sql`select employee_code, date::text, bucket::int, previous::int from performance_bucket_changes`,
      sql`select employee_code, date::text, bucket, previous from (${directBuckets}) b
          where bucket is distinct from previous`,
    ],
    [
      sql`select department_code, date::text, bucket::int, employees from performance_department_buckets
          where employees <> 0`,
      sql`select department_code, date::text, bucket, sum(n)::int as employees from (
            select department_code, date, bucket, 1 as n from (${directBuckets}) b where bucket is distinct from previous
            union all
            select department_code, date, previous, -1 from (${directBuckets}) b
            where previous is not null and bucket <> previous
          ) x group by 1, 2, 3 having sum(n) <> 0`,
    ],
    [
      sql`select department_code, month::text, bucket::int, employees from performance_department_bucket_months
          where employees <> 0`,
      sql`select department_code, date_trunc('month', date)::date::text as month, bucket, sum(n)::int as employees
          from (
            select department_code, date, bucket, 1 as n from (${directBuckets}) b where bucket is distinct from previous
            union all
            select department_code, date, previous, -1 from (${directBuckets}) b
            where previous is not null and bucket <> previous
          ) x group by 1, 2, 3 having sum(n) <> 0`,
    ],
  ];
  for (const [stored, direct] of pairs) {
    expect(await rows(t.handle.db, sql`select * from (${stored}) r order by 1, 2, 3`)).toEqual(
      await rows(t.handle.db, sql`select * from (${direct}) r order by 1, 2, 3`),
    );
  }
}

/** A date's departments and distribution, straight from the scores, rounded as the server rounds. */
async function directDepartments(date: string, departmentCode?: string) {
  const month = `${date.slice(0, 7)}-01`;
  const year = `${date.slice(0, 4)}-01-01`;
  const mean = (s: string, n: string) =>
    sql.raw(`case when ${n} > 0 then round(round(${s} / ${n}, 20), 2)::float8 end`);
  const only = (column: string) => (departmentCode ? sql`${sql.raw(column)} = ${departmentCode}` : sql`true`);
  const days = sql`select * from (${directDays}) d where d.date between ${year}::date and ${date}::date`;
  const departments = await rows<Record<string, unknown>>(
    t.handle.db,
    sql`select d.department_code as "departmentCode", d.name,
          (select count(*)::int from employees e where e.department_code = d.department_code) as employees,
          ${mean('x.day_sum', 'x.day_n')} as daily, ${mean('x.month_sum', 'x.month_n')} as monthly,
          ${mean('x.year_sum', 'x.year_n')} as yearly
        from departments d left join (
          select department_code,
            sum(daily) filter (where date = ${date}::date) as day_sum,
            count(*) filter (where date = ${date}::date) as day_n,
            sum(daily) filter (where date >= ${month}::date) as month_sum,
            count(*) filter (where date >= ${month}::date) as month_n,
            sum(daily) as year_sum, count(*) as year_n
          from (${days}) y group by 1
        ) x on x.department_code = d.department_code
        where ${only('d.department_code')}
        order by lower(d.name), d.id`,
  );
  const counted = await rows<{ bucket: number; count: number }>(
    t.handle.db,
    sql`select least(floor(round(round(sum(daily) / count(*), 20), 2)), 9)::int as bucket, 1 as count
        from (${days}) y where ${only('y.department_code')} group by y.employee_code`,
  );
  const distribution = DISTRIBUTION_BUCKETS.map((bucket, i) => ({
    bucket,
    count: counted.filter((c) => c.bucket === i).length,
  }));
  return { departments, distribution };
}

async function overviewOf(date: string, departmentCode?: string) {
  const res = await t.get('GetPerformanceOverview', admin, {
    date,
    ...(departmentCode ? { departmentCode } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as PerformanceOverview;
}

/**
 * The rollups, the trends, and the overview on every date for everyone and each department: its
 * skill averages, department averages and distribution.
 */
async function expectExact() {
  await expectRollupExact();
  await expectDepartmentRollupsExact();
  await expectTrendsExact();
  for (const date of DATES) {
    for (const department of [undefined, ops, sales]) {
      const overview = await overviewOf(date, department);
      const label = `${date} ${department ?? 'all'}`;
      expect(overview.skills, label).toEqual(await directSkills(date, department));
      expect({ departments: overview.departments, distribution: overview.distribution }, label).toEqual(
        await directDepartments(date, department),
      );
    }
  }
}

describe("the overview's rollups stay exact", () => {
  it('after saves that create rows across months and years', async () => {
    await save(t, admin, [
      submission(ann, '2024-01-31', { [alpha]: 4, [bravo]: 7 }),
      submission(ann, '2024-02-01', { [alpha]: 9, [bravo]: 2, [charlie]: 5 }),
      submission(bob, '2024-02-01', { [alpha]: 3, [charlie]: '' }),
      submission(bob, '2024-02-15', { [alpha]: 10, [bravo]: 1 }),
      submission(cy, '2024-02-01', { [alpha]: 6, [bravo]: 6, [charlie]: 6 }),
      submission(cy, '2024-03-10', { [charlie]: 8 }),
      submission(ann, '2025-01-02', { [alpha]: 1 }),
    ]);
    await expectExact();
    // One sum checked by hand: Operations' Alpha on 2024-02-01 is Ann's 9 and Bob's 3.
    const [row] = await rows<{ points_sum: number; scored: number }>(
      t.handle.db,
      sql`select points_sum, scored from performance_skill_days
          where department_code = ${ops} and date = '2024-02-01' and skill_code = ${alpha}`,
    );
    expect(row).toEqual({ points_sum: 12, scored: 2 });
  });

  it('after saves that change scores, add some and clear others', async () => {
    await save(t, admin, [
      // Changed, added, kept.
      submission(ann, '2024-02-01', { [alpha]: 2, [bravo]: 2, [charlie]: '' }),
      submission(bob, '2024-02-01', { [alpha]: 3, [bravo]: 10, [charlie]: 4 }),
      // Every cell cleared: the day's rollup rows for Sales go.
      submission(cy, '2024-03-10', { [charlie]: '' }),
    ]);
    await expectExact();
    const left = await rows<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from performance_skill_days
          where department_code = ${sales} and date = '2024-03-10'`,
    );
    expect(left).toEqual([{ n: 0 }]);
    // A save that changes nothing moves nothing.
    await save(t, admin, [submission(bob, '2024-02-01', { [alpha]: 3, [bravo]: 10, [charlie]: 4 })]);
    await expectExact();
  });

  it('after a back-dated save moves the yearly buckets of the days after it', async () => {
    // Bob so far: 2024-02-01 is 17/3 (5.67), 2024-02-15 is 5.5: his yearly average stays in 5-6.
    const bobsBuckets = () =>
      rows<{ date: string; bucket: number; previous: number | null }>(
        t.handle.db,
        sql`select date::text, bucket::int, previous::int from performance_bucket_changes
            where employee_code = ${bob} and date < '2025-01-01' order by date`,
      );
    await save(t, admin, [submission(bob, '2024-03-31', { [alpha]: 10, [bravo]: 10, [charlie]: 10 })]);
    await expectExact();
    // (5.67 + 5.5 + 10) / 3 = 7.06.
    expect(await bobsBuckets()).toEqual([
      { date: '2024-02-01', bucket: 5, previous: null },
      { date: '2024-03-31', bucket: 7, previous: 5 },
    ]);
    // A 1 on 31 January: 1, then 3.33, 4.06 and 5.54 on the later days.
    await save(t, admin, [submission(bob, '2024-01-31', { [alpha]: 1 })]);
    await expectExact();
    expect(await bobsBuckets()).toEqual([
      { date: '2024-01-31', bucket: 1, previous: null },
      { date: '2024-02-01', bucket: 3, previous: 1 },
      { date: '2024-02-15', bucket: 4, previous: 3 },
      { date: '2024-03-31', bucket: 5, previous: 4 },
    ]);
    // Cleared again: back to the first two.
    await save(t, admin, [submission(bob, '2024-01-31', { [alpha]: '' })]);
    await expectExact();
    expect(await bobsBuckets()).toEqual([
      { date: '2024-02-01', bucket: 5, previous: null },
      { date: '2024-03-31', bucket: 7, previous: 5 },
    ]);
  });

  it('after an employee moves to another department, and back', async () => {
    const move = async (departmentCode: string) => {
      const res = await t.post(
        'UpdateEmployee',
        {
          employeeCode: bob,
          employeeId: 'SKD-2',
          name: 'Bob Stone',
          departmentCode,
          joinDate: '2020-01-01',
          userCode: '',
        },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    await move(sales);
    await expectExact();
    await move(ops);
    await expectExact();
    await move(sales);
    await expectExact();
  });

  it('after employees are deleted: through the API (refused while they have scores) and behind it', async () => {
    const refused = await t.post('DeleteEmployee', { employeeCode: cy }, admin);
    expect(refused.statusCode).toBe(409);
    await expectExact();
    // A loader or an operator deletes behind the server: the cascade takes the scores, the trigger the sums.
    await t.handle.db.execute(sql`delete from employees where employee_code = ${cy}`);
    await t.settle();
    await expectExact();
    // Someone without scores, through the API.
    const newcomer = await makeEmployee(t, admin, sales, 'SKD-4', 'Dee Newcomer');
    const res = await t.post('DeleteEmployee', { employeeCode: newcomer }, admin);
    expect(res.statusCode, res.body).toBe(200);
    await expectExact();
  });

  it('after a skill is scored, cleared and deleted', async () => {
    const delta = await makeSkill(t, admin, 'Delta');
    await save(t, admin, [submission(ann, '2024-03-10', { [delta]: 7 })]);
    await expectExact();
    await save(t, admin, [submission(ann, '2024-03-10', { [delta]: '' })]);
    const res = await t.post('DeleteSkill', { skillCode: delta }, admin);
    expect(res.statusCode, res.body).toBe(200);
    await expectExact();
  });

  it('after scores loaded behind the server and the rollup rebuild', async () => {
    await t.handle.db.execute(sql`
      with p as (
        insert into performances (performance_code, employee_code, date)
        values ('PERF-SKILLDAYSLOAD1', ${ann}, '2024-02-15') returning performance_code
      )
      insert into performance_scores (performance_code, skill_code, points)
      select performance_code, s.code, s.points
      from p, (values (${alpha}, 5::smallint), (${bravo}, null::smallint)) as s(code, points)`);
    await rebuildPerformanceRollups(t.handle.db);
    await t.settle();
    await expectExact();
    // A save over the loaded row's unscored cell counts it as a new score.
    await save(t, admin, [submission(ann, '2024-02-15', { [alpha]: 5, [bravo]: 8 })]);
    await expectExact();
  });
});
