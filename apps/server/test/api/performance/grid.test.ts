import type { PerformanceRow } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../../src/db/client.ts';
import { csvStream } from '../../../src/performance/csv.ts';
import { ensureGrid } from '../../../src/performance/grid.ts';
import {
  countEmployees,
  type DateGridQuery,
  gridRows,
  listSkills,
  withSkills,
} from '../../../src/performance/read.ts';
import { rebuildPerformanceRollups } from '../../../src/performance/rollups.ts';
import { savePerformances } from '../../../src/performance/save.ts';
import { rowsOf } from '../../../src/performance/sql.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

/*
 * Pages sorted by an average come from the materialised grid. Each check here compares an API
 * answer with the same page computed directly from the rollups (what the grid stores), after
 * whatever may have moved the averages.
 */

let t: TestApp;
let admin: string;
let dept: string;
let seq = 0;
const skill: Record<string, string> = {};
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
  for (const title of ['Accuracy', 'Speed', 'Teamwork']) skill[title] = await makeSkill(t, admin, title);
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

/** What the grid endpoint answered before the grid existed: computed from the rollups. */
async function direct(q: DateGridQuery) {
  const db = t.handle.db;
  const base = await gridRows(db, q);
  const rows = await withSkills(db, base, await listSkills(db));
  return { data: rows, total: base[0]?.total ?? (await countEmployees(db, q.filter)) };
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

const markers = async () =>
  (
    await rowsOf<{ date: string }>(
      t.handle.db,
      sql`select date::text as date from performance_grid_dates order by date`,
    )
  ).map((r) => r.date);

describe('pages sorted by an average', () => {
  it('equal the direct computation: a scored date, a date nobody scored, a new year, before any score', async () => {
    for (const date of [D, '2024-03-03', '2024-01-01', '2023-06-01']) await expectGridCorrect(date);
    await expectSame({ date: D, sortField: 'yearly', sortValue: 'desc', keyword: 'nobody-matches' });
    await expectSame({ date: D, sortField: 'daily', sortValue: 'asc', limit: 100 });
  });

  it('materialise a date once, and only the dates asked for', async () => {
    expect(await markers()).toEqual(['2023-06-01', '2024-01-01', '2024-03-03', D]);
    const [{ n }] = await rowsOf<{ n: number }>(
      t.handle.db,
      sql`select count(*)::int as n from performance_grid where date = ${D}::date`,
    );
    expect(n).toBe(people.length);
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

describe('what moves the averages', () => {
  it('a save of an earlier day of the year: that date and every later one of the year are filled again', async () => {
    await expectGridCorrect(D);
    await expectGridCorrect('2024-12-31', ['']);
    const [, , bob] = people;
    await save(t, admin, [submission(bob, '2024-01-15', { [skill.Teamwork]: 10 })]);
    expect(await markers()).not.toContain(D);
    expect(await markers()).not.toContain('2024-12-31');
    // Dates before the change, and other years, keep their grid.
    expect(await markers()).toEqual(expect.arrayContaining(['2023-06-01', '2024-01-01']));
    await expectGridCorrect(D);
    await expectGridCorrect('2024-12-31', ['']);
  });

  it('a save of a later day or of another year leaves the grid alone', async () => {
    await expectGridCorrect(D, ['']);
    const [ann, , , cy] = people;
    await save(t, admin, [
      submission(cy, '2024-03-20', { [skill.Speed]: 2 }),
      submission(ann, '2023-11-02', { [skill.Speed]: 9 }),
    ]);
    expect(await markers()).toEqual(expect.arrayContaining([D, '2023-06-01']));
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01', ['']);
  });

  it('clearing every cell of a day takes its daily average away', async () => {
    await expectGridCorrect(D, ['']);
    const [, ann2] = people;
    await save(t, admin, [submission(ann2, D, { [skill.Accuracy]: '', [skill.Speed]: '' })]);
    await expectGridCorrect(D);
  });

  it('a new employee appears on every date (without scores); a deleted one disappears', async () => {
    await expectGridCorrect(D, ['']);
    await expectGridCorrect('2023-06-01', ['']);
    const newcomer = await person('Ann Newcomer');
    expect(await markers()).toEqual([]);
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01');
    const res = await t.post('DeleteEmployee', { employeeCode: newcomer }, admin);
    expect(res.statusCode, res.body).toBe(200);
    people.pop();
    await expectGridCorrect(D);
    await expectGridCorrect('2023-06-01');
  });

  it('scores loaded behind the server, then the rollup rebuild: every date is filled again', async () => {
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
    expect(await markers()).toEqual([]);
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
    expect(await markers()).toContain(D);
    await expectGridCorrect(D, ['', 'aaron', 'ann']);
  });
});

describe('a fill and a save at the same time', () => {
  const DAY = '2024-05-10';

  /** On PostgreSQL, until some session waits for an advisory lock (for a few seconds at most). */
  async function untilSomeoneWaits() {
    if (t.handle.kind !== 'postgres') return;
    for (let i = 0; i < 300; i++) {
      const [{ n }] = await rowsOf<{ n: number }>(
        t.handle.db,
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
      );
      if (n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Runs `work` in a transaction that stays open while `concurrent` starts, until that waits for
   * the grid lock, then commits; answers what `concurrent` answered. The embedded database runs
   * one thing at a time, so there `concurrent` simply runs after the commit.
   */
  async function meanwhile<T>(work: (tx: Tx) => Promise<unknown>, concurrent: () => Promise<T>): Promise<T> {
    let started: Promise<T> | undefined;
    await t.handle.db.transaction(async (tx) => {
      await work(tx);
      started = concurrent();
      await untilSomeoneWaits();
    });
    return started as Promise<T>;
  }

  const yearly = { date: DAY, sortField: 'yearly', sortValue: 'desc', limit: 100 } as const;

  it('a fill that starts while a save is uncommitted waits for it, and sees what it saved', async () => {
    const [, , , , , , fay] = people;
    expect(await markers()).not.toContain(DAY);
    const cells = [{ skillCode: skill.Speed, pointsEarned: 10, totalPoints: 10 }];
    const read = await meanwhile(
      (tx) =>
        savePerformances(tx, [{ employeeCode: fay, date: '2024-04-01', performancePerSkill: cells }], null),
      () => viaApi(yearly),
    );
    expect(read).toEqual(await direct(directQuery(yearly)));
    await expectGridCorrect(DAY);
  });

  it('a save that commits while a fill is under way removes the marker the fill writes', async () => {
    const [, , , , , , fay] = people;
    const before = (await viaApi(yearly)).data.find((r) => r.employeeCode === fay)?.total.yearly;
    await meanwhile(
      // A fill that has read the averages and written its marker, and has not committed yet.
      async (tx) => {
        await tx.execute(sql`delete from performance_grid_dates where date = ${DAY}::date`);
        await ensureGrid(tx, DAY);
      },
      () => save(t, admin, [submission(fay, '2024-04-02', { [skill.Accuracy]: 10 })]),
    );
    expect(await markers()).not.toContain(DAY);
    const after = await viaApi(yearly);
    expect(after.data.find((r) => r.employeeCode === fay)?.total.yearly).not.toBe(before);
    expect(after).toEqual(await direct(directQuery(yearly)));
    await expectGridCorrect(DAY);
  });
});
