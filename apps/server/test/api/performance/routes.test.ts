import { localIsoDate, type PerformanceRow } from '@wfc/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audits, performanceScores, performances } from '../../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { grid, makeDepartment, makeEmployee, makeSkill, rowOf, save, submission } from './support.ts';

let t: TestApp;
let admin: string;
let viewer: string;
let editor: string;
let outsider: string;
let halfEditor: string;
const skill = {} as Record<'Teamwork' | 'Accuracy' | 'Speed', string>;
const emp = {} as Record<'E-001' | 'E-002' | 'E-003' | 'E-004' | 'E-010', string>;
const DAY = '2024-03-05';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  viewer = (await t.userWith(['VIEW_PERFORMANCES'])).cookie;
  editor = (await t.userWith(['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'])).cookie;
  outsider = (await t.userWith(['VIEW_EMPLOYEES', 'VIEW_SKILLS'])).cookie;
  halfEditor = (await t.userWith(['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE'])).cookie;
  const dept = await makeDepartment(t, admin);
  for (const title of ['Teamwork', 'Accuracy', 'Speed'] as const)
    skill[title] = await makeSkill(t, admin, title);
  const people: [keyof typeof emp, string][] = [
    ['E-003', 'Carla Diaz'],
    ['E-001', 'Aaron Berg'],
    ['E-002', 'Bea Cruz'],
    // A formula: it must reach the CSV inert. Sorts first under both C and linguistic collations.
    ['E-010', '=A1+A2'],
    ['E-004', 'Dan "Danny" Eve, Jr.'],
  ];
  for (const [id, name] of people) emp[id] = await makeEmployee(t, admin, dept, id, name);
  await save(t, admin, [
    submission(emp['E-001'], DAY, { [skill.Teamwork]: 9, [skill.Accuracy]: 7 }),
    submission(emp['E-002'], DAY, { [skill.Teamwork]: 4 }),
    submission(emp['E-003'], DAY, { [skill.Speed]: 10 }),
    submission(emp['E-003'], '2024-03-01', { [skill.Speed]: 2 }),
  ]);
});
afterAll(() => t.close());

const names = (rows: PerformanceRow[]) => rows.map((r) => r.employeeName);

describe('GetPerformances', () => {
  it('lists every employee for the date, skills in title order, with the total of employees', async () => {
    const res = await t.get('GetPerformances', viewer, { date: DAY });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Performances fetched successfully');
    expect(body.total).toBe(5);
    expect(names(body.data)).toEqual([
      '=A1+A2',
      'Aaron Berg',
      'Bea Cruz',
      'Carla Diaz',
      'Dan "Danny" Eve, Jr.',
    ]);
    const aaron = body.data[1] as PerformanceRow;
    expect(aaron).toEqual({
      performanceCode: expect.stringMatching(/^PERF-/),
      version: 1,
      employeeCode: emp['E-001'],
      employeeId: 'E-001',
      employeeName: 'Aaron Berg',
      date: DAY,
      skills: [
        { skillCode: skill.Accuracy, title: 'Accuracy', score: 7 },
        { skillCode: skill.Speed, title: 'Speed', score: null },
        { skillCode: skill.Teamwork, title: 'Teamwork', score: 9 },
      ],
      total: { daily: 8, monthly: 8, yearly: 8 },
    });
    const dan = body.data[4] as PerformanceRow;
    expect(dan.performanceCode).toBeNull();
    expect(dan.version).toBeNull();
    expect(dan.skills.map((s) => s.score)).toEqual([null, null, null]);
    expect(dan.total).toEqual({ daily: null, monthly: null, yearly: null });
  });

  it('defaults the date to today', async () => {
    const body = await grid(t, viewer, {});
    expect(body.data[0]!.date).toBe(localIsoDate(new Date()));
  });

  it('pages, and keeps the total of every matching employee', async () => {
    const page2 = await grid(t, viewer, { date: DAY, limit: 2, page: 2 });
    expect(page2.total).toBe(5);
    expect(names(page2.data)).toEqual(['Bea Cruz', 'Carla Diaz']);
    const past = await grid(t, viewer, { date: DAY, limit: 10, page: 9 });
    expect(past).toMatchObject({ data: [], total: 5 });
  });

  it('sorts by name, employee id and each average, employees without a value last either way', async () => {
    const desc = await grid(t, viewer, { date: DAY, sortField: 'name', sortValue: 'desc' });
    expect(names(desc.data)[0]).toBe('Dan "Danny" Eve, Jr.');
    const ids = await grid(t, viewer, { date: DAY, sortField: 'employeeId', sortValue: 'asc' });
    expect(ids.data.map((r) => r.employeeId)).toEqual(['E-001', 'E-002', 'E-003', 'E-004', 'E-010']);
    // Daily: Aaron 8, Bea 4, Carla 10. Monthly: Carla (2 + 10) / 2 = 6.
    const daily = await grid(t, viewer, { date: DAY, sortField: 'daily', sortValue: 'desc' });
    expect(names(daily.data).slice(0, 3)).toEqual(['Carla Diaz', 'Aaron Berg', 'Bea Cruz']);
    const dailyAsc = await grid(t, viewer, { date: DAY, sortField: 'daily', sortValue: 'asc' });
    // Ties (no value) keep name order.
    expect(names(dailyAsc.data)).toEqual([
      'Bea Cruz',
      'Aaron Berg',
      'Carla Diaz',
      '=A1+A2',
      'Dan "Danny" Eve, Jr.',
    ]);
    const monthly = await grid(t, viewer, { date: DAY, sortField: 'monthly', sortValue: 'asc', limit: 2 });
    expect(names(monthly.data)).toEqual(['Bea Cruz', 'Carla Diaz']);
    expect(monthly.data[1]!.total).toEqual({ daily: 10, monthly: 6, yearly: 6 });
    const yearly = await grid(t, viewer, {
      date: DAY,
      sortField: 'yearly',
      sortValue: 'desc',
      limit: 1,
      page: 2,
    });
    expect(names(yearly.data)).toEqual(['Carla Diaz']);
  });

  it('filters by a keyword over the employee name and id, case-insensitively', async () => {
    expect(names((await grid(t, viewer, { date: DAY, keyword: 'cruz' })).data)).toEqual(['Bea Cruz']);
    const byId = await grid(t, viewer, { date: DAY, keyword: 'e-00' });
    expect(byId.total).toBe(4);
    // Wildcards are literal text, not patterns.
    expect((await grid(t, viewer, { date: DAY, keyword: '%' })).total).toBe(0);
  });

  it('refuses a bad date or sort field (400), no session (401) and no permission (403)', async () => {
    const bad = await t.get('GetPerformances', viewer, { date: '2024-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'date', message: 'Date must be a real date' }]);
    const sort = await t.get('GetPerformances', viewer, { sortField: 'daily_average' });
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors).toEqual([{ field: 'sortField', message: "Cannot sort by 'daily_average'" }]);
    expect((await t.get('GetPerformances')).statusCode).toBe(401);
    expect((await t.get('GetPerformances', outsider)).statusCode).toBe(403);
  });
});

describe('CreateUpdatePerformances', () => {
  it('saves a form-encoded batch as the browser sends it, creating and updating rows', async () => {
    const before = await rowOf(t, editor, emp['E-002'], DAY);
    const res = await t.post(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(
            emp['E-002'],
            DAY,
            { [skill.Teamwork]: '', [skill.Speed]: 6 },
            before.performanceCode ?? undefined,
          ),
          submission(emp['E-004'], DAY, { [skill.Accuracy]: 0, [skill.Speed]: 10, [skill.Teamwork]: '' }),
        ],
      },
      editor,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Performances saved successfully');
    expect(body.data).toEqual([
      { performanceCode: before.performanceCode, employeeCode: emp['E-002'], date: DAY },
      { performanceCode: expect.stringMatching(/^PERF-/), employeeCode: emp['E-004'], date: DAY },
    ]);
    const bea = await rowOf(t, viewer, emp['E-002'], DAY);
    expect(bea.skills.map((s) => s.score)).toEqual([null, 6, null]);
    expect(bea.total.daily).toBe(6);
    expect((await rowOf(t, viewer, emp['E-004'], DAY)).total.daily).toBe(5);
  });

  it('audits each changed row in the same transaction, and only changed rows', async () => {
    const code = (await rowOf(t, viewer, emp['E-004'], DAY)).performanceCode ?? '';
    const trail = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.collection, 'performances'), eq(audits.action, 'CREATE')));
    const created = trail.find((a) => (a.after as { performanceCode: string }).performanceCode === code);
    expect(created?.after).toEqual({
      performanceCode: code,
      employeeCode: emp['E-004'],
      date: DAY,
      scores: { Accuracy: 0, Speed: 10 },
    });
    expect(created?.username).toMatch(/^user/);

    const auditsBefore = (await t.handle.db.select({ n: count() }).from(audits))[0]!.n;
    await save(t, editor, [
      submission(emp['E-004'], DAY, { [skill.Accuracy]: 0, [skill.Speed]: 10 }),
      submission(emp['E-001'], DAY, { [skill.Accuracy]: 5 }),
    ]);
    const auditsAfter = (await t.handle.db.select({ n: count() }).from(audits))[0]!.n;
    expect(auditsAfter - auditsBefore).toBe(1);
    const [update] = await t.handle.db
      .select()
      .from(audits)
      .where(eq(audits.action, 'UPDATE'))
      .orderBy(desc(audits.id))
      .limit(1);
    expect(update!.collection).toBe('performances');
    expect(update!.changes).toEqual({ 'scores.Accuracy': { old: 7, new: 5 } });
  });

  it('names each bad row and cell, and saves nothing when any is bad', async () => {
    const rowsBefore = (await t.handle.db.select({ n: count() }).from(performances))[0]!.n;
    const res = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(emp['E-010'], '2024-04-01', { [skill.Speed]: 3 }),
          submission(emp['E-010'], '2024-04-02', { [skill.Speed]: 4 }),
          submission(emp['E-010'], '2024-04-03', { [skill.Speed]: 5 }),
          submission(emp['E-010'], '2024-04-04', { [skill.Accuracy]: 2, [skill.Speed]: 11 }),
          submission(emp['E-010'], '2024-04-05', { [skill.Speed]: 'x' as unknown as number }),
          submission(emp['E-010'], '2024-04-06', { [skill.Speed]: '2.5' as unknown as number }),
          submission(emp['E-010'], '2024-04-07', { [skill.Speed]: -1 }),
        ],
      },
      editor,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      [3, 4, 5, 6].map((i) => ({
        field: `performances.${i}.performancePerSkill.${i === 3 ? 1 : 0}.pointsEarned`,
        message: 'Score must be empty or a whole number from 0 to 10',
      })),
    );
    const rowsAfter = (await t.handle.db.select({ n: count() }).from(performances))[0]!.n;
    expect(rowsAfter).toBe(rowsBefore);
  });

  it('names unknown employees, skills and codes, and rolls back rows already written', async () => {
    const scoresBefore = (await t.handle.db.select({ n: count() }).from(performanceScores))[0]!.n;
    const res = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(emp['E-010'], '2024-05-01', { [skill.Speed]: 3 }),
          submission('EMP-NOBODY', '2024-05-01', { [skill.Speed]: 3 }),
          submission(emp['E-010'], '2024-05-02', { [skill.Speed]: 3, 'SKILL-NONE': 4 }),
          submission(emp['E-010'], '2024-05-03', { [skill.Speed]: 3 }, 'PERF-NONE'),
          submission(emp['E-010'], '2024-05-01', { [skill.Accuracy]: 3 }),
        ],
      },
      editor,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'performances.4.date', message: 'This employee and date appear twice in the list' },
    ]);
    const refs = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(emp['E-010'], '2024-05-01', { [skill.Speed]: 3 }),
          submission('EMP-NOBODY', '2024-05-01', { [skill.Speed]: 3 }),
          submission(emp['E-010'], '2024-05-02', { [skill.Speed]: 3, 'SKILL-NONE': 4 }),
          submission(emp['E-010'], '2024-05-03', { [skill.Speed]: 3 }, 'PERF-NONE'),
          submission(
            emp['E-003'],
            '2024-05-04',
            { [skill.Speed]: 3 },
            (await rowOf(t, viewer, emp['E-001'], DAY)).performanceCode ?? '',
          ),
        ],
      },
      editor,
    );
    expect(refs.statusCode).toBe(400);
    expect(refs.json().errors).toEqual([
      { field: 'performances.1.employeeCode', message: 'Employee not found' },
      { field: 'performances.2.performancePerSkill.1.skillCode', message: 'Skill not found' },
      { field: 'performances.3.performanceCode', message: 'Performance not found' },
      {
        field: 'performances.4.performanceCode',
        message: 'This performance belongs to another employee or date',
      },
    ]);
    const scoresAfter = (await t.handle.db.select({ n: count() }).from(performanceScores))[0]!.n;
    expect(scoresAfter).toBe(scoresBefore);
    const dup = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(emp['E-010'], '2024-05-01', { [skill.Speed]: 3, [`${skill.Speed}`]: 4 }),
          {
            ...submission(emp['E-010'], '2024-05-02', {}),
            performancePerSkill: [
              { skillCode: skill.Speed, pointsEarned: '1' },
              { skillCode: skill.Speed, pointsEarned: '2' },
            ],
          },
        ],
      },
      editor,
    );
    expect(dup.json().errors).toEqual([
      {
        field: 'performances.1.performancePerSkill.1.skillCode',
        message: 'This skill appears twice in the row',
      },
    ]);
  });

  it('refuses an empty list, a wrong total and a bad date (400), no session (401) and half the permissions (403)', async () => {
    const empty = await t.postJson('CreateUpdatePerformances', { performances: [] }, editor);
    expect(empty.json()).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'performances', message: 'No performances to save' }],
    });
    const missing = await t.post('CreateUpdatePerformances', {}, editor);
    expect(missing.json().errors).toEqual([{ field: 'performances', message: 'No performances to save' }]);
    const total = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          {
            ...submission(emp['E-001'], DAY, {}),
            performancePerSkill: [{ skillCode: skill.Speed, pointsEarned: '3', totalPoints: 5 }],
          },
        ],
      },
      editor,
    );
    expect(total.json().errors).toEqual([
      { field: 'performances.0.performancePerSkill.0.totalPoints', message: 'Total points must be 10' },
    ]);
    const date = await t.postJson(
      'CreateUpdatePerformances',
      { performances: [submission(emp['E-001'], '05/03/2024', {})] },
      editor,
    );
    expect(date.json().errors[0]).toEqual({
      field: 'performances.0.date',
      message: 'Date must be a date (YYYY-MM-DD)',
    });
    const body = { performances: [submission(emp['E-001'], DAY, { [skill.Speed]: 1 })] };
    expect((await t.postJson('CreateUpdatePerformances', body)).statusCode).toBe(401);
    expect((await t.postJson('CreateUpdatePerformances', body, viewer)).statusCode).toBe(403);
    expect((await t.postJson('CreateUpdatePerformances', body, halfEditor)).statusCode).toBe(403);
  });
});

describe('GetPerformanceByCode', () => {
  it('answers one saved row, 404 for an unknown code, 400 without one, 401 and 403', async () => {
    const code = (await rowOf(t, viewer, emp['E-003'], DAY)).performanceCode ?? '';
    const res = await t.post('GetPerformanceByCode', { performanceCode: code }, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Performance fetched successfully',
      data: {
        performanceCode: code,
        employeeId: 'E-003',
        date: DAY,
        total: { daily: 10, monthly: 6, yearly: 6 },
      },
    });
    const unknown = await t.post('GetPerformanceByCode', { performanceCode: 'PERF-NONE' }, viewer);
    expect(unknown.json()).toEqual({ statusCode: 404, message: 'Performance not found' });
    const missing = await t.post('GetPerformanceByCode', {}, viewer);
    expect(missing.json().errors).toEqual([
      { field: 'performanceCode', message: 'Performance code is required' },
    ]);
    expect((await t.post('GetPerformanceByCode', { performanceCode: code })).statusCode).toBe(401);
    expect((await t.post('GetPerformanceByCode', { performanceCode: code }, outsider)).statusCode).toBe(403);
  });
});

describe('GetPerformancesByDateAndEmployeeCodes', () => {
  it('answers those employees for the date; unknown codes are named (400); 401 and 403', async () => {
    const res = await t.post(
      'GetPerformancesByDateAndEmployeeCodes',
      { date: '2024-03-01', employeeCodes: [emp['E-003'], emp['E-001']] },
      viewer,
    );
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as PerformanceRow[];
    expect(names(rows)).toEqual(['Aaron Berg', 'Carla Diaz']);
    expect(rows[1]!.total).toEqual({ daily: 2, monthly: 2, yearly: 2 });
    const unknown = await t.post(
      'GetPerformancesByDateAndEmployeeCodes',
      { date: DAY, employeeCodes: [emp['E-001'], 'EMP-NONE'] },
      viewer,
    );
    expect(unknown.json()).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'employeeCodes.1', message: 'Employee not found' }],
    });
    const badDate = await t.post(
      'GetPerformancesByDateAndEmployeeCodes',
      { date: 'today', employeeCodes: [] },
      viewer,
    );
    expect(badDate.json().errors[0]).toEqual({ field: 'date', message: 'Date must be a date (YYYY-MM-DD)' });
    expect((await t.post('GetPerformancesByDateAndEmployeeCodes', { employeeCodes: [] })).statusCode).toBe(
      401,
    );
    expect(
      (await t.post('GetPerformancesByDateAndEmployeeCodes', { employeeCodes: [] }, outsider)).statusCode,
    ).toBe(403);
  });
});

describe('GetPerformancesByEmployeeCode', () => {
  it("pages and sorts one employee's dates with the averages as of each date", async () => {
    const res = await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, viewer);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.data.map((r: PerformanceRow) => [r.date, r.total])).toEqual([
      [DAY, { daily: 10, monthly: 6, yearly: 6 }],
      ['2024-03-01', { daily: 2, monthly: 2, yearly: 2 }],
    ]);
    const asc = await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, viewer, {
      sortField: 'daily',
      sortValue: 'asc',
      limit: 1,
    });
    expect(asc.json()).toMatchObject({ total: 2, data: [{ date: '2024-03-01' }] });
    const past = await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, viewer, {
      page: 5,
    });
    expect(past.json()).toMatchObject({ total: 2, data: [] });
    const kw = await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, viewer, {
      keyword: '03-01',
    });
    expect(kw.json().data.map((r: PerformanceRow) => r.date)).toEqual(['2024-03-01']);
  });

  it('404 for an unknown employee, 400 without one or with a bad sort, 401 and 403', async () => {
    const unknown = await t.post('GetPerformancesByEmployeeCode', { employeeCode: 'EMP-NONE' }, viewer);
    expect(unknown.json()).toEqual({ statusCode: 404, message: 'Employee not found' });
    const missing = await t.post('GetPerformancesByEmployeeCode', {}, viewer);
    expect(missing.json().errors).toEqual([{ field: 'employeeCode', message: 'Employee is required' }]);
    const sort = await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, viewer, {
      sortField: 'name',
    });
    expect(sort.statusCode).toBe(400);
    expect((await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] })).statusCode).toBe(
      401,
    );
    expect(
      (await t.post('GetPerformancesByEmployeeCode', { employeeCode: emp['E-003'] }, outsider)).statusCode,
    ).toBe(403);
  });
});

describe('GetPerformanceReport', () => {
  it('answers every matching row unpaged, by GET and by POST', async () => {
    const get = await t.get('GetPerformanceReport', viewer, { date: DAY, limit: 1 });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toMatchObject({ message: 'Performance report fetched successfully', total: 5 });
    expect(get.json().data).toHaveLength(5);
    const post = await t.post('GetPerformanceReport', { date: DAY, keyword: 'berg' }, viewer);
    expect(post.json()).toMatchObject({ total: 1, data: [{ employeeName: 'Aaron Berg' }] });
  });

  it('400 for a bad date or sort, 401 and 403', async () => {
    expect((await t.get('GetPerformanceReport', viewer, { date: 'x' })).json().errors[0].field).toBe('date');
    expect((await t.post('GetPerformanceReport', { date: '2024-13-01' }, viewer)).statusCode).toBe(400);
    expect((await t.get('GetPerformanceReport', viewer, { sortField: 'x' })).statusCode).toBe(400);
    expect((await t.get('GetPerformanceReport')).statusCode).toBe(401);
    expect((await t.post('GetPerformanceReport', {})).statusCode).toBe(401);
    expect((await t.get('GetPerformanceReport', outsider)).statusCode).toBe(403);
    expect((await t.post('GetPerformanceReport', {}, outsider)).statusCode).toBe(403);
  });
});

describe('ExportPerformanceReport', () => {
  it('streams Performance_Report.csv: BOM, every field quoted, the grid columns, every matching employee', async () => {
    const res = await t.get('ExportPerformanceReport', viewer, { date: DAY, limit: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Performance_Report.csv"');
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual([
      '"Employee Id","Employee Name","Accuracy","Speed","Teamwork","Daily Average","Monthly Average","Yearly Average"',
      `"E-010","'=A1+A2","","","","","",""`,
      '"E-001","Aaron Berg","5","","9","7.00","7.00","7.00"',
      '"E-002","Bea Cruz","","6","","6.00","6.00","6.00"',
      '"E-003","Carla Diaz","","10","","10.00","6.00","6.00"',
      '"E-004","Dan ""Danny"" Eve, Jr.","0","10","","5.00","5.00","5.00"',
    ]);
  });

  it('follows the keyword and sort, and refuses a bad date (400), no session (401) and no permission (403)', async () => {
    const res = await t.get('ExportPerformanceReport', viewer, { date: DAY, keyword: 'cruz' });
    expect(res.body.split('\r\n')).toHaveLength(3);
    const sorted = await t.get('ExportPerformanceReport', viewer, {
      date: DAY,
      sortField: 'daily',
      sortValue: 'desc',
    });
    expect(sorted.body.split('\r\n')[1]).toMatch(/^"E-003"/);
    const bad = await t.get('ExportPerformanceReport', viewer, { date: '2024-3-5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({ field: 'date', message: 'Date must be a date (YYYY-MM-DD)' });
    expect((await t.get('ExportPerformanceReport')).statusCode).toBe(401);
    expect((await t.get('ExportPerformanceReport', outsider)).statusCode).toBe(403);
  });
});
