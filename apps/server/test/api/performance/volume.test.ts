import type { PerformanceRow } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCode } from '../../../src/db/codes.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { departments, employees, skills } from '../../../src/db/schema/index.ts';
import { assembleRows, listScores, listSkills } from '../../../src/performance/grid/read.ts';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { gridRows } from './direct.ts';
import { submission } from './support.ts';

const EMPLOYEES = 1000;
const SKILLS = 20;
const DAY = '2024-06-14';

let t: TestApp;
let admin: string;
let employeeCodes: string[];
let skillCodes: string[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const departmentCode = newCode('DEPT-');
  await t.handle.db.insert(departments).values({ departmentCode, name: 'Volume' });
  skillCodes = Array.from({ length: SKILLS }, () => newCode('SKILL-'));
  await t.handle.db
    .insert(skills)
    .values(skillCodes.map((skillCode, i) => ({ skillCode, title: `Skill ${100 + i}` })));
  employeeCodes = Array.from({ length: EMPLOYEES }, () => newCode('EMP-'));
  await t.handle.db.insert(employees).values(
    employeeCodes.map((employeeCode, i) => ({
      employeeCode,
      employeeId: `V-${String(i).padStart(4, '0')}`,
      name: `Volume ${String(i).padStart(4, '0')}`,
      departmentCode,
      joinDate: '2020-01-01',
    })),
  );
});
afterAll(() => t.close());

/** Employee i scores (i + s) mod 11 on skill s, except skill 0 which stays empty. */
const cells = (i: number) =>
  Object.fromEntries(skillCodes.map((code, s) => [code, s === 0 ? ('' as const) : (i + s) % 11]));

const expectedDaily = (i: number) => {
  const scores = skillCodes.slice(1).map((_, k) => (i + k + 1) % 11);
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;
};

describe('a whole company at once', () => {
  it('saves 20,000 cells in one request (a body over the general 1 MB limit), then reads, sorts and exports them', async () => {
    // Version null: the grid saw no saved row, so each must still be missing (none is).
    const rows = employeeCodes.map((code, i) => ({ ...submission(code, DAY, cells(i)), version: null }));
    const payload = JSON.stringify({ performances: rows });
    expect(payload.length).toBeGreaterThan(1024 * 1024);

    let started = performance.now();
    const saved = await t.postJson('CreateUpdatePerformances', { performances: rows }, admin);
    const saveMs = performance.now() - started;
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(200);
    expect(saved.json().total).toBe(EMPLOYEES);

    started = performance.now();
    const page = await t.get('GetPerformances', admin, {
      date: DAY,
      sortField: 'yearly',
      sortValue: 'desc',
      limit: 30,
    });
    const pageMs = performance.now() - started;
    const body = page.json() as { data: PerformanceRow[]; total: number };
    expect(body.total).toBe(EMPLOYEES);
    expect(body.data).toHaveLength(30);
    const yearly = body.data.map((r) => r.total.yearly ?? -1);
    expect(yearly).toEqual([...yearly].sort((a, b) => b - a));
    for (const row of body.data) {
      const i = Number(row.employeeId.slice(2));
      expect(row.total.daily).toBe(expectedDaily(i));
      expect(row.skills[0]!.score).toBeNull();
    }

    started = performance.now();
    const csv = await t.get('ExportPerformanceReport', admin, { date: DAY });
    const exportMs = performance.now() - started;
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(EMPLOYEES + 1);

    // The report reads its scores over several connections; one statement reads the same.
    const report = (await t.get('GetPerformanceReport', admin, { date: DAY })).json()
      .data as PerformanceRow[];
    const db = t.handle.db;
    const base = await gridRows(db, {
      date: DAY,
      filter: { kind: 'keyword', keyword: '' },
      sortField: 'name',
      sortValue: 'asc',
    });
    const codes = base.flatMap((b) => (b.performanceCode ? [b.performanceCode] : []));
    expect(report).toEqual(assembleRows(base, await listSkills(db), await listScores(db, codes)));

    // Saving the same values again changes nothing, so nothing is rewritten or audited. Without
    // versions: not checked (with null, every row would now be stale).
    const unversioned = rows.map(({ version: _, ...row }) => row);
    started = performance.now();
    expect(
      (await t.postJson('CreateUpdatePerformances', { performances: unversioned }, admin)).statusCode,
    ).toBe(200);
    const resaveMs = performance.now() - started;

    // Every third row clears one cell and changes another, across the chunks a save works in; each
    // row names the version it was read at, as the grid sends it (the unchanged re-save kept 1).
    const edited = employeeCodes.map((code, i) => ({
      ...submission(
        code,
        DAY,
        i % 3 ? cells(i) : { ...cells(i), [skillCodes[1]!]: '', [skillCodes[2]!]: 10 },
      ),
      version: 1,
    }));
    started = performance.now();
    expect((await t.postJson('CreateUpdatePerformances', { performances: edited }, admin)).statusCode).toBe(
      200,
    );
    const editMs = performance.now() - started;
    const [updates] = await rowsOf<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from audits where collection = 'performances' and action = 'UPDATE'`,
    );
    expect(updates!.n).toBe(Math.ceil(EMPLOYEES / 3));
    const versions = await rowsOf<{ version: number; n: number }>(
      t.handle.db,
      sql`select version, count(*)::int as n from performances group by version order by version`,
    );
    expect(versions).toEqual([
      { version: 1, n: EMPLOYEES - Math.ceil(EMPLOYEES / 3) },
      { version: 2, n: Math.ceil(EMPLOYEES / 3) },
    ]);
    const rollups = () =>
      rowsOf(
        t.handle.db,
        sql`select p.performance_code, p.daily_average::text, p.month_sum::text, p.month_days,
              m.day_sum::text, m.year_sum::text, m.year_days
            from performances p join performance_months m on m.employee_code = p.employee_code
            order by 1`,
      );
    const kept = await rollups();
    await rebuildPerformanceRollups(t.handle.db);
    expect(await rollups()).toEqual(kept);
    console.info(
      `volume (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): save ${saveMs.toFixed(0)} ms, ` +
        `page by yearly ${pageMs.toFixed(0)} ms, export ${exportMs.toFixed(0)} ms, unchanged re-save ${resaveMs.toFixed(0)} ms, ` +
        `a third edited ${editMs.toFixed(0)} ms`,
    );
  });
});
