import type { PerformanceRow } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvStream } from '../../../src/performance/grid/csv.ts';
import { datePage } from '../../../src/performance/grid/page.ts';
import { type DateGridQuery, listSkills, withSkills } from '../../../src/performance/grid/read.ts';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { gridRows } from './direct.ts';
import { makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

/*
 * A page sorted by an average has a query of its own: that average alone for every employee,
 * ordered and paged by SQL, then the page's rows in full, in one document. Each check here
 * compares an API answer with the same page computed directly from the rollups (every average of
 * every employee, sorted), after whatever may have moved the averages.
 */

let t: TestApp;
let admin: string;
let dept: string;
let seq = 0;
const skill = {} as Record<'Accuracy' | 'Speed' | 'Teamwork', string>;
const people: string[] = [];

const D = '2024-03-05';
const FIELDS = ['daily', 'monthly', 'yearly'] as const;
const DIRECTIONS = ['asc', 'desc'] as const;

type Field = (typeof FIELDS)[number];
type Direction = (typeof DIRECTIONS)[number];

async function person(name: string) {
  seq += 1;
  const code = await makeEmployee(t, admin, dept, `GRID-${String(seq).padStart(3, '0')}`, name);
  people.push(code);
  return code;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  dept = await makeDepartment(t, admin);
  for (const title of ['Accuracy', 'Speed', 'Teamwork'] as const)
    skill[title] = await makeSkill(t, admin, title);
  const { Accuracy: a, Speed: s, Teamwork: w } = skill;
  // Equal names and equal averages, so that the name and id tie-breaks are needed.
  const ann = await person('Ann Lee');
  const ann2 = await person('Ann Lee');
  const bob = await person('Bob Stone');
  const cy = await person('Cy Young');
  const dee = await person('Dee Park');
  await person('Eve Unscored');
  const fay = await person('Fay Lane');
  await save(t, admin, [
    submission(ann, '2023-12-29', { [a]: 1 }),
    submission(ann, '2024-01-08', { [a]: 6, [s]: 7 }),
    submission(ann, '2024-03-01', { [a]: 8 }),
    submission(ann, D, { [a]: 9, [s]: 7 }),
    submission(ann2, D, { [a]: 8, [s]: 8 }),
    submission(bob, '2024-02-12', { [w]: 3 }),
    submission(bob, D, { [a]: 8, [s]: 8, [w]: '' }),
    submission(cy, '2024-03-04', { [a]: 10 }),
    // A saved row with nothing scored: a code, no daily average.
    submission(dee, D, { [a]: '', [s]: '' }),
    submission(dee, '2024-01-02', { [w]: 5 }),
    submission(fay, '2024-03-01', { [a]: 0, [s]: 1, [w]: 2 }),
  ]);
});
afterAll(() => t.close());

/** Every employee's averages, sorted, then paged: the plain computation from the rollups. */
async function direct(q: DateGridQuery) {
  const db = t.handle.db;
  const base = await gridRows(db, q);
  const rows = await withSkills(db, base, await listSkills(db));
  const all = await gridRows(db, { ...q, page: undefined });
  return { data: rows, total: all.length };
}

interface PageQuery {
  date: string;
  sortField: Field;
  sortValue: Direction;
  keyword?: string;
  limit?: number;
  page?: number;
}

async function viaApi(q: PageQuery): Promise<{ data: PerformanceRow[]; total: number }> {
  const res = await t.get('GetPerformances', admin, {
    date: q.date,
    sortField: q.sortField,
    sortValue: q.sortValue,
    keyword: q.keyword ?? '',
    limit: q.limit ?? 10,
    page: q.page ?? 1,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { data, total } = res.json();
  return { data, total };
}

const directQuery = (q: PageQuery): DateGridQuery => ({
  date: q.date,
  filter: { kind: 'keyword', keyword: q.keyword ?? '' },
  sortField: q.sortField,
  sortValue: q.sortValue,
  page: { limit: q.limit ?? 10, offset: ((q.page ?? 1) - 1) * (q.limit ?? 10) },
});

async function expectSame(q: PageQuery) {
  expect(await viaApi(q), JSON.stringify(q)).toEqual(await direct(directQuery(q)));
}

/** Every average, both directions, pages of three up to past the end, with and without a keyword. */
async function expectGridCorrect(date: string, keywords = ['', 'ann']) {
  for (const sortField of FIELDS)
    for (const sortValue of DIRECTIONS)
      for (const keyword of keywords)
        for (const page of [1, 2, 3, 4])
          await expectSame({ date, sortField, sortValue, keyword, limit: 3, page });
}

describe('pages sorted by an average', () => {
  it('equal the direct computation: a scored date, a date nobody scored, a new year, before any score', async () => {
    for (const date of [D, '2024-03-03', '2024-01-01', '2023-06-01']) await expectGridCorrect(date);
    await expectSame({ date: D, sortField: 'yearly', sortValue: 'desc', keyword: 'nobody-matches' });
    await expectSame({ date: D, sortField: 'daily', sortValue: 'asc', limit: 100 });
  });

  it('the report and the CSV sorted by an average list the same rows as the direct computation', async () => {
    for (const sortField of FIELDS) {
      const q = { date: D, sortField, sortValue: 'desc' as const };
      const all = { ...directQuery(q), page: undefined };
      const expected = await direct(all);
      const report = await t.get('GetPerformanceReport', admin, q);
      expect(report.json().data).toEqual(expected.data);
      const csv = await t.get('ExportPerformanceReport', admin, q);
      let text = '';
      for await (const chunk of csvStream(await listSkills(t.handle.db), expected.data)) text += chunk;
      expect(csv.body).toBe(text);
    }
  });
});

describe("one way to build a date's rows", () => {
  it('every page in turn lists the unpaged rows, in the same order, for every sort and keyword', async () => {
    const db = t.handle.db;
    for (const sortField of ['name', 'employeeId', ...FIELDS] as const)
      for (const sortValue of DIRECTIONS)
        for (const keyword of ['', 'ann']) {
          const q: DateGridQuery = { date: D, filter: { kind: 'keyword', keyword }, sortField, sortValue };
          const all = await datePage(db, q);
          const paged: PerformanceRow[] = [];
          for (let offset = 0; offset < all.total + 2; offset += 2) {
            const page = await datePage(db, { ...q, page: { limit: 2, offset } });
            expect(page.total).toBe(all.total);
            expect(page.skills).toEqual(all.skills);
            paged.push(...page.rows);
          }
          expect(paged, JSON.stringify(q)).toEqual(all.rows);
          expect(all.rows).toHaveLength(all.total);
        }
  });
});

describe('what moves the averages', () => {
  it('a save of an earlier day of the year moves that date and every later one of the year', async () => {
    await expectGridCorrect(D);
    await expectGridCorrect('2024-12-31', ['']);
    const [, , bob] = people;
    await save(t, admin, [submission(bob!, '2024-01-15', { [skill.Teamwork]: 10 })]);
    await expectGridCorrect(D);
    await expectGridCorrect('2024-12-31', ['']);
    await expectGridCorrect('2024-01-01', ['']);
  });

  it('a save of a later day or of another year', async () => {
    await expectGridCorrect(D, ['']);
    const [ann, , , cy] = people;
    await save(t, admin, [
      submission(cy!, '2024-03-20', { [skill.Speed]: 2 }),
      submission(ann!, '2023-11-02', { [skill.Speed]: 9 }),
    ]);
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01', ['']);
  });

  it('clearing every cell of a day takes its daily average away', async () => {
    await expectGridCorrect(D, ['']);
    const [, ann2] = people;
    await save(t, admin, [submission(ann2!, D, { [skill.Accuracy]: '', [skill.Speed]: '' })]);
    await expectGridCorrect(D);
  });

  it('a new employee appears on every date (without scores); a deleted one disappears', async () => {
    await expectGridCorrect(D, ['']);
    await expectGridCorrect('2023-06-01', ['']);
    const newcomer = await person('Ann Newcomer');
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01');
    const res = await t.post('DeleteEmployee', { employeeCode: newcomer }, admin);
    expect(res.statusCode, res.body).toBe(200);
    people.pop();
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01');
  });

  it('scores loaded behind the server, then the rollup rebuild', async () => {
    await expectGridCorrect(D, ['']);
    const [, , , , dee] = people;
    await t.handle.db.execute(sql`
      with p as (
        insert into performances (performance_code, employee_code, date)
        values ('PERF-LOADEDBEHIND01', ${dee}, '2024-02-20') returning performance_code
      )
      insert into performance_scores (performance_code, skill_code, points)
      select performance_code, ${skill.Speed}, 9 from p`);
    await rebuildPerformanceRollups(t.handle.db);
    // The pages kept by this instance go once it has seen the loader's changes.
    await t.settle();
    await expectGridCorrect(D);
  });

  it('a renamed employee is found and ordered by the new name at once', async () => {
    await expectGridCorrect(D, ['']);
    const [, ann2] = people;
    const res = await t.post(
      'UpdateEmployee',
      {
        employeeCode: ann2,
        employeeId: 'GRID-002',
        name: 'Aaron Lee',
        departmentCode: dept,
        joinDate: '2020-01-01',
        userCode: '',
      },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    await expectGridCorrect(D, ['', 'aaron', 'ann']);
  });
});
