import { PERFORMANCE_MESSAGES, type PerformanceRow } from '@wfc/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { makeSkill, rowOf, save, submission } from '../performance/support.ts';
import { type Company, company } from './support.ts';

/**
 * The Performance Snapshot for a team lead (Lena: Alpha, that is Lena and Anna) and for an
 * employee (Anna: herself): the grid, report, CSV, rows, history, trend and overview show only
 * them, and a save naming anyone else is refused whole.
 */

const t = sharedTestApp();
const DATE = '2026-03-10';
let admin: string;
let c: Company;
let skill: string;
let bertRow: PerformanceRow;

const SAVE_REFUSED = 'You cannot save scores of employees outside the records your role reaches';

beforeAll(async () => {
  admin = await t.login();
  c = await company(t, admin);
  skill = await makeSkill(t, admin, 'Scoped skill');
  await save(
    t,
    admin,
    [c.people.lena, c.people.anna, c.people.bert].map((p) =>
      submission(p.employeeCode, DATE, { [skill]: 6 }),
    ),
  );
  bertRow = await rowOf(t, admin, c.people.bert.employeeCode, DATE);
});

const gridNames = (data: PerformanceRow[]) => data.map((r) => r.employeeName).sort();

describe('the grid, report and CSV', () => {
  it('show a team lead the team and count only it', async () => {
    const grid = expectOk(
      await t.get('GetPerformances', c.lena, { date: DATE }),
      PERFORMANCE_MESSAGES.listed,
    );
    expect({ names: gridNames(grid.data), total: grid.total }).toEqual({
      names: ['Anna Alpha', 'Lena Lead'],
      total: 2,
    });
    const beta = expectOk(
      await t.get('GetPerformances', c.lena, { date: DATE, departmentCode: c.beta }),
      PERFORMANCE_MESSAGES.listed,
    );
    expect(beta).toMatchObject({ data: [], total: 0 });
    const report = expectOk(
      await t.get('GetPerformanceReport', c.lena, { date: DATE }),
      PERFORMANCE_MESSAGES.report,
    );
    expect(gridNames(report.data)).toEqual(['Anna Alpha', 'Lena Lead']);
    const posted = expectOk(
      await t.postJson('GetPerformanceReport', { date: DATE }, c.lena),
      PERFORMANCE_MESSAGES.report,
    );
    expect(posted.total).toBe(2);
    const csv = await t.get('ExportPerformanceReport', c.lena, { date: DATE });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Anna Alpha');
    expect(csv.body).not.toContain('Bert Beta');
  });

  it('show an employee their own row only', async () => {
    const grid = expectOk(
      await t.get('GetPerformances', c.anna, { date: DATE }),
      PERFORMANCE_MESSAGES.listed,
    );
    expect({ names: gridNames(grid.data), total: grid.total }).toEqual({ names: ['Anna Alpha'], total: 1 });
    const csv = (await t.get('ExportPerformanceReport', c.anna, { date: DATE })).body;
    expect(csv).toContain('Anna Alpha');
    expect(csv).not.toContain('Lena Lead');
  });

  it('keep each caller’s page apart: the admin still sees everyone', async () => {
    const grid = expectOk(await t.get('GetPerformances', admin, { date: DATE }), PERFORMANCE_MESSAGES.listed);
    expect(grid.total).toBe(3);
  });
});

describe('rows, history and trend of someone beyond reach', () => {
  it('answer as for a code that does not exist', async () => {
    const outside = expectError(
      await t.postJson('GetPerformanceByCode', { performanceCode: bertRow.performanceCode }, c.lena),
      404,
      PERFORMANCE_MESSAGES.notFound,
    );
    const missing = expectError(
      await t.postJson('GetPerformanceByCode', { performanceCode: 'PERF-0000000000000000' }, c.lena),
      404,
      PERFORMANCE_MESSAGES.notFound,
    );
    expect(outside).toEqual(missing);
    const rows = await t.postJson(
      'GetPerformancesByDateAndEmployeeCodes',
      { date: DATE, employeeCodes: [c.people.bert.employeeCode] },
      c.lena,
    );
    expectError(rows, 400, 'Invalid input');
    expect(rows.json().errors).toEqual([
      { field: 'employeeCodes.0', message: PERFORMANCE_MESSAGES.employeeNotFound },
    ]);
    expectError(
      await t.postJson('GetPerformancesByEmployeeCode', { employeeCode: c.people.bert.employeeCode }, c.lena),
      404,
      PERFORMANCE_MESSAGES.employeeNotFound,
    );
    for (const cookie of [c.lena, c.anna]) {
      expectError(
        await t.postJson(
          'GetPerformanceTrend',
          { employeeCode: c.people.bert.employeeCode, from: DATE, to: DATE },
          cookie,
        ),
        404,
        PERFORMANCE_MESSAGES.employeeNotFound,
      );
    }
    expectError(
      await t.postJson(
        'GetPerformanceTrend',
        { employeeCode: c.people.lena.employeeCode, from: DATE, to: DATE },
        c.anna,
      ),
      404,
      PERFORMANCE_MESSAGES.employeeNotFound,
    );
  });

  it('are answered within reach', async () => {
    const annaRow = await rowOf(t, c.lena, c.people.anna.employeeCode, DATE);
    expect(annaRow.skills[0]?.score).toBe(6);
    expectOk(
      await t.postJson('GetPerformanceByCode', { performanceCode: annaRow.performanceCode }, c.anna),
      PERFORMANCE_MESSAGES.fetched,
    );
    const history = expectOk(
      await t.postJson('GetPerformancesByEmployeeCode', { employeeCode: c.people.anna.employeeCode }, c.anna),
      PERFORMANCE_MESSAGES.listed,
    );
    expect(history.total).toBe(1);
    const trend = await t.postJson(
      'GetPerformanceTrend',
      { employeeCode: c.people.anna.employeeCode, from: DATE, to: DATE },
      c.anna,
    );
    expect(trend.statusCode, trend.body).toBe(200);
  });
});

describe('the overview and its departments', () => {
  it('cover a team lead’s departments only, and refuse another department', async () => {
    const overview = expectOk(
      await t.get('GetPerformanceOverview', c.lena, { date: DATE }),
      'Performance overview fetched successfully',
    );
    expect(overview.data.departments.map((d: { name: string }) => d.name)).toEqual(['Alpha']);
    expect(overview.data.departments[0]).toMatchObject({ employees: 2, daily: 6 });
    expectError(
      await t.get('GetPerformanceOverview', c.lena, { date: DATE, departmentCode: c.beta }),
      403,
      'You can see the overview of your own team’s departments only',
    );
    const departments = expectOk(
      await t.get('GetPerformanceDepartments', c.lena),
      'Departments fetched successfully',
    );
    expect(departments.data.map((d: { name: string }) => d.name)).toEqual(['Alpha']);
  });

  it('are not an employee’s: the overview is of whole departments', async () => {
    expectError(
      await t.get('GetPerformanceOverview', c.anna, { date: DATE }),
      403,
      'The overview shows whole departments: you can see only your own scores',
    );
    expect(
      expectOk(await t.get('GetPerformanceDepartments', c.anna), 'Departments fetched successfully').data,
    ).toEqual([]);
    const all = expectOk(await t.get('GetPerformanceDepartments', admin), 'Departments fetched successfully');
    expect(all.data.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['Alpha', 'Beta']));
  });
});

describe('saving scores', () => {
  it('saves a team member’s row, and refuses a batch naming anyone else whole', async () => {
    const anna = await rowOf(t, c.lena, c.people.anna.employeeCode, DATE);
    await save(t, c.lena, [
      submission(c.people.anna.employeeCode, DATE, { [skill]: 8 }, anna.performanceCode ?? undefined),
    ]);
    expect((await rowOf(t, c.lena, c.people.anna.employeeCode, DATE)).skills[0]?.score).toBe(8);
    const mixed = await t.postJson(
      'CreateUpdatePerformances',
      {
        performances: [
          submission(c.people.anna.employeeCode, DATE, { [skill]: 2 }, anna.performanceCode ?? undefined),
          submission(c.people.bert.employeeCode, DATE, { [skill]: 2 }, bertRow.performanceCode ?? undefined),
        ],
      },
      c.lena,
    );
    expectError(mixed, 403, SAVE_REFUSED);
    expect(mixed.json().data).toBeUndefined();
    const unknown = await t.postJson(
      'CreateUpdatePerformances',
      { performances: [submission('EMP-0000000000000000', DATE, { [skill]: 2 })] },
      c.lena,
    );
    expectError(unknown, 403, SAVE_REFUSED);
    expect((await rowOf(t, c.lena, c.people.anna.employeeCode, DATE)).skills[0]?.score).toBe(8);
    expect((await rowOf(t, admin, c.people.bert.employeeCode, DATE)).skills[0]?.score).toBe(6);
  });

  it('is no employee’s to do on their own scores', async () => {
    const res = await t.postJson(
      'CreateUpdatePerformances',
      { performances: [submission(c.people.anna.employeeCode, DATE, { [skill]: 10 })] },
      c.anna,
    );
    expect(res.statusCode).toBe(403);
  });
});
