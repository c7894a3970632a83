import {
  addDays,
  localIsoDate,
  type PerformanceOverview,
  type PerformanceRow,
  type PerformanceTrend,
} from '@wfc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

let t: TestApp;
let admin: string;
let ops: string;
let sales: string;
let empty: string;
let alpha: string;
let bravo: string;
let charlie: string;
let delta: string;
let ann: string;
let bob: string;
let cy: string;

/*
 * Hand-computed data across a year boundary. Daily averages:
 *   Ann (Operations)  2023-12-30: 4, 6 -> 5     2023-12-31: 8        2024-01-02: 7, 8 (Charlie empty) -> 7.5
 *                     2024-01-03: nothing scored (a row without a daily average)
 *                     2024-01-05: 10, 9, 2 -> 7                      2024-02-01: Bravo 3 -> 3
 *   Bob (Operations)  2023-12-15: 2            2024-01-05: 5
 *   Cy  (Sales)       2024-01-04: 6, 9 -> 7.5  2024-01-06: 1
 * Delta is never scored; the department Empty has nobody.
 */
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  ops = await makeDepartment(t, admin, 'Operations');
  sales = await makeDepartment(t, admin, 'Sales');
  empty = await makeDepartment(t, admin, 'Empty');
  // Created out of title order: skills follow the title, as the grid's columns do.
  delta = await makeSkill(t, admin, 'Delta');
  charlie = await makeSkill(t, admin, 'Charlie');
  alpha = await makeSkill(t, admin, 'Alpha');
  bravo = await makeSkill(t, admin, 'Bravo');
  ann = await makeEmployee(t, admin, ops, 'INS-1', 'Ann Lee');
  bob = await makeEmployee(t, admin, ops, 'INS-2', 'Bob Stone');
  cy = await makeEmployee(t, admin, sales, 'INS-3', 'Cy Young');
  await save(t, admin, [
    submission(ann, '2023-12-30', { [alpha]: 4, [bravo]: 6 }),
    submission(ann, '2023-12-31', { [alpha]: 8 }),
    submission(ann, '2024-01-02', { [alpha]: 7, [bravo]: 8, [charlie]: '' }),
    submission(ann, '2024-01-03', { [alpha]: '', [bravo]: '' }),
    submission(ann, '2024-01-05', { [alpha]: 10, [bravo]: 9, [charlie]: 2 }),
    submission(ann, '2024-02-01', { [bravo]: 3 }),
    submission(bob, '2023-12-15', { [alpha]: 2 }),
    submission(bob, '2024-01-05', { [alpha]: 5 }),
    submission(cy, '2024-01-04', { [alpha]: 6, [bravo]: 9 }),
    submission(cy, '2024-01-06', { [alpha]: 1 }),
  ]);
});
afterAll(() => t.close());

async function trend(body: Record<string, string>) {
  const res = await t.postJson('GetPerformanceTrend', body, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as PerformanceTrend;
}

async function overview(query: Record<string, string>) {
  const res = await t.get('GetPerformanceOverview', admin, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as PerformanceOverview;
}

const noSkills = () => [
  { skillCode: alpha, title: 'Alpha', average: null, scored: 0 },
  { skillCode: bravo, title: 'Bravo', average: null, scored: 0 },
  { skillCode: charlie, title: 'Charlie', average: null, scored: 0 },
  { skillCode: delta, title: 'Delta', average: null, scored: 0 },
];

const buckets = (counts: Record<string, number>) =>
  Array.from({ length: 10 }, (_, i) => `${i}-${i + 1}`).map((bucket) => ({
    bucket,
    count: counts[bucket] ?? 0,
  }));

describe('GetPerformanceTrend', () => {
  it('across a year boundary: scored days, month means inside the range, skill means and counts', async () => {
    const data = await trend({ employeeCode: ann, from: '2023-12-31', to: '2024-02-01' });
    expect(data.employee).toEqual({
      employeeCode: ann,
      employeeId: 'INS-1',
      name: 'Ann Lee',
      department: { departmentCode: ops, name: 'Operations' },
    });
    // 2023-12-30 is before the range; 2024-01-03 has a row but no score.
    expect(data.days).toEqual([
      { date: '2023-12-31', daily: 8 },
      { date: '2024-01-02', daily: 7.5 },
      { date: '2024-01-05', daily: 7 },
      { date: '2024-02-01', daily: 3 },
    ]);
    // December is 12-31 alone (12-30 is outside the range); January (7.5 + 7) / 2.
    expect(data.months).toEqual([
      { month: '2023-12', average: 8 },
      { month: '2024-01', average: 7.25 },
      { month: '2024-02', average: 3 },
    ]);
    // Alpha 8, 7, 10; Bravo 8, 9, 3; Charlie 2; Delta never.
    expect(data.skills).toEqual([
      { skillCode: alpha, title: 'Alpha', average: 8.33, scored: 3 },
      { skillCode: bravo, title: 'Bravo', average: 6.67, scored: 3 },
      { skillCode: charlie, title: 'Charlie', average: 2, scored: 1 },
      { skillCode: delta, title: 'Delta', average: null, scored: 0 },
    ]);
    expect([data.from, data.to]).toEqual(['2023-12-31', '2024-02-01']);
  });

  it('an empty range: no days, its month without an average, every skill unscored', async () => {
    const data = await trend({ employeeCode: ann, from: '2024-01-03', to: '2024-01-04' });
    expect(data.days).toEqual([]);
    expect(data.months).toEqual([{ month: '2024-01', average: null }]);
    expect(data.skills).toEqual(noSkills());
  });

  it('agrees with GetPerformancesByEmployeeCode on every day', async () => {
    const res = await t.postJson('GetPerformancesByEmployeeCode?limit=100', { employeeCode: ann }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const history = (res.json().data as PerformanceRow[])
      .filter((r) => r.total.daily !== null)
      .map((r) => ({ date: r.date, daily: r.total.daily }))
      .sort((a, b) => a.date.localeCompare(b.date));
    const data = await trend({ employeeCode: ann, from: '2023-06-01', to: '2024-06-01' });
    expect(data.days).toEqual(history);
    // The history's monthly average on a month's last scored day is the trend's month when the range holds the month.
    const lastOfMonth = (res.json().data as PerformanceRow[]).find((r) => r.date === '2024-01-05');
    expect(data.months.find((m) => m.month === '2024-01')?.average).toBe(lastOfMonth?.total.monthly);
  });

  it('defaults to the last 90 days up to today', async () => {
    const data = await trend({ employeeCode: ann });
    const today = localIsoDate(new Date());
    expect([data.from, data.to]).toEqual([addDays(today, -89), today]);
    expect(data.days).toEqual([]);
  });

  it('refuses a reversed range, one over 366 days, an unknown employee and dates outside the bounds', async () => {
    const ask = (body: Record<string, string>) => t.postJson('GetPerformanceTrend', body, admin);
    const reversed = await ask({ employeeCode: ann, from: '2024-02-01', to: '2024-01-31' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors).toEqual([{ field: 'to', message: 'To must not be before From' }]);
    const long = await ask({ employeeCode: ann, from: '2023-01-01', to: '2024-01-03' });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([
      { field: 'to', message: 'From and To can be at most 366 days apart' },
    ]);
    // 366 days apart is the limit: 2023-01-01 to 2024-01-02.
    expect((await ask({ employeeCode: ann, from: '2023-01-01', to: '2024-01-02' })).statusCode).toBe(200);
    const unknown = await ask({ employeeCode: 'EMP-NOPE' });
    expect(unknown.statusCode).toBe(404);
    const ancient = await ask({ employeeCode: ann, from: '1969-12-31' });
    expect(ancient.statusCode).toBe(400);
    expect(ancient.json().errors[0].field).toBe('from');
  });
});

describe('GetPerformanceOverview', () => {
  it('a date in January: the month is the year so far; departments pooled; the distribution of yearly averages', async () => {
    const data = await overview({ date: '2024-01-05' });
    expect(data.date).toBe('2024-01-05');
    expect(data.departmentCode).toBeNull();
    // Alpha 7, 10, 5, 6; Bravo 8, 9, 9; Charlie 2 (Bob's December and Cy's 6 January are outside).
    expect(data.skills).toEqual([
      { skillCode: alpha, title: 'Alpha', monthly: 7, yearly: 7 },
      { skillCode: bravo, title: 'Bravo', monthly: 8.67, yearly: 8.67 },
      { skillCode: charlie, title: 'Charlie', monthly: 2, yearly: 2 },
      { skillCode: delta, title: 'Delta', monthly: null, yearly: null },
    ]);
    // Operations: daily (7 + 5) / 2; month and year (7.5 + 7 + 5) / 3. Sales: no row on the date.
    expect(data.departments).toEqual([
      { departmentCode: empty, name: 'Empty', employees: 0, daily: null, monthly: null, yearly: null },
      { departmentCode: ops, name: 'Operations', employees: 2, daily: 6, monthly: 6.5, yearly: 6.5 },
      { departmentCode: sales, name: 'Sales', employees: 1, daily: null, monthly: 7.5, yearly: 7.5 },
    ]);
    // Yearly: Ann 7.25, Bob 5, Cy 7.5.
    expect(data.distribution).toEqual(buckets({ '5-6': 1, '7-8': 2 }));
  });

  it('a department filter, a month after January, and rounding half away from zero', async () => {
    const data = await overview({ date: '2024-02-01', departmentCode: ops });
    expect(data.departmentCode).toBe(ops);
    // February so far: Ann's Bravo 3. The year: Alpha 7, 10, 5; Bravo 8, 9, 3; Charlie 2.
    expect(data.skills).toEqual([
      { skillCode: alpha, title: 'Alpha', monthly: null, yearly: 7.33 },
      { skillCode: bravo, title: 'Bravo', monthly: 3, yearly: 6.67 },
      { skillCode: charlie, title: 'Charlie', monthly: null, yearly: 2 },
      { skillCode: delta, title: 'Delta', monthly: null, yearly: null },
    ]);
    // Year: (7.5 + 7 + 3 + 5) / 4 = 5.625, shown 5.63.
    expect(data.departments).toEqual([
      { departmentCode: ops, name: 'Operations', employees: 2, daily: 3, monthly: 3, yearly: 5.63 },
    ]);
    // Ann (7.5 + 7 + 3) / 3 = 5.83, Bob 5.
    expect(data.distribution).toEqual(buckets({ '5-6': 2 }));
  });

  it('a date with nothing scored, and a department without employees', async () => {
    const data = await overview({ date: '2025-03-01', departmentCode: empty });
    expect(data.skills.every((s) => s.monthly === null && s.yearly === null)).toBe(true);
    expect(data.departments).toEqual([
      { departmentCode: empty, name: 'Empty', employees: 0, daily: null, monthly: null, yearly: null },
    ]);
    expect(data.distribution).toEqual(buckets({}));
  });

  it('agrees with the grid: a department averages what its rows average', async () => {
    const res = await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: ops });
    const rows = res.json().data as PerformanceRow[];
    const daily = rows.flatMap((r) => (r.total.daily === null ? [] : [r.total.daily]));
    const data = await overview({ date: '2024-01-05', departmentCode: ops });
    expect(data.departments[0]?.daily).toBe(daily.reduce((a, b) => a + b, 0) / daily.length);
  });
});

describe('the department filter of the grid, the report and the CSV', () => {
  it('lists only the department’s employees, with the same rows as unfiltered', async () => {
    const all = (await t.get('GetPerformances', admin, { date: '2024-01-05' })).json();
    expect(all.total).toBe(3);
    const res = await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: ops });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.total).toBe(2);
    expect(page.data).toEqual(
      (all.data as PerformanceRow[]).filter((r) => r.employeeCode === ann || r.employeeCode === bob),
    );
    // Sorted by an average, with a keyword, and an empty selection meaning every department.
    const sorted = (
      await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: ops, sortField: 'daily' })
    ).json();
    expect(sorted.data.map((r: PerformanceRow) => r.employeeName)).toEqual(['Bob Stone', 'Ann Lee']);
    const keyword = (
      await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: ops, keyword: 'bob' })
    ).json();
    expect(keyword.total).toBe(1);
    expect(
      (await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: '' })).json().total,
    ).toBe(3);
    const none = (
      await t.get('GetPerformances', admin, { date: '2024-01-05', departmentCode: empty })
    ).json();
    expect([none.data, none.total]).toEqual([[], 0]);

    const report = await t.post('GetPerformanceReport', { date: '2024-01-05', departmentCode: sales }, admin);
    expect(report.json().data.map((r: PerformanceRow) => r.employeeName)).toEqual(['Cy Young']);
    const csv = await t.get('ExportPerformanceReport', admin, { date: '2024-01-05', departmentCode: sales });
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"Cy Young"');
  });
});

describe('scores for a future date', () => {
  it('are refused with a 400 naming the row; today is accepted and a future date can be read', async () => {
    const today = localIsoDate(new Date());
    const tomorrow = addDays(today, 1);
    const res = await t.postJson(
      'CreateUpdatePerformances',
      { performances: [submission(bob, today, { [alpha]: 4 }), submission(bob, tomorrow, { [alpha]: 4 })] },
      admin,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'performances.1.date', message: 'Scores cannot be recorded for a future date' },
    ]);
    await save(t, admin, [submission(bob, today, { [alpha]: 4 })]);
    const future = await t.get('GetPerformances', admin, { date: tomorrow });
    expect(future.statusCode).toBe(200);
  });
});

describe('GetPerformanceDepartments', () => {
  it('lists every department by name for the filters', async () => {
    const res = await t.get('GetPerformanceDepartments', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { departmentCode: empty, name: 'Empty' },
      { departmentCode: ops, name: 'Operations' },
      { departmentCode: sales, name: 'Sales' },
    ]);
  });
});
