import type { PerformanceRow } from '@wfc/contract';
import { asc, count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  audits,
  performanceBucketChanges,
  performanceDepartmentBucketMonths,
  performanceDepartmentBuckets,
  performanceDepartmentDays,
  performanceDepartmentMonths,
  performanceDepartmentSkillMonths,
  performanceMonths,
  performanceOverallSkillDays,
  performanceOverallSkillMonths,
  performanceScores,
  performanceSkillDays,
  performanceSkillMonths,
  performances,
} from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { type Cells, grid, makeDepartment, makeEmployee, makeSkill, rowOf, submission } from './support.ts';

/*
 * Optimistic concurrency of the Performance Snapshot: each grid row carries the version of its
 * performance, a save names the version each row was read at, and a stale row refuses the whole
 * batch with 409 and the rows as they now stand.
 */

const t = sharedTestApp();
const EDITOR = ['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];
let admin: string;
/** Two people editing the same grid. */
const ann = { cookie: '', username: '' };
const bob = { cookie: '', username: '' };
const skill = {} as Record<'Accuracy' | 'Speed' | 'Teamwork', string>;
const emp = {} as Record<'aaron' | 'bea' | 'carla' | 'dan' | 'eve' | 'finn', string>;

beforeAll(async () => {
  admin = await t.login();
  Object.assign(ann, await t.userWith(EDITOR));
  Object.assign(bob, await t.userWith(EDITOR));
  const dept = await makeDepartment(t, admin);
  for (const title of ['Accuracy', 'Speed', 'Teamwork'] as const)
    skill[title] = await makeSkill(t, admin, title);
  const people: [keyof typeof emp, string][] = [
    ['aaron', 'Aaron Berg'],
    ['bea', 'Bea Cruz'],
    ['carla', 'Carla Diaz'],
    ['dan', 'Dan Eve'],
    ['eve', 'Eve Fox'],
    ['finn', 'Finn Gale'],
  ];
  for (const [i, [key, name]] of people.entries())
    emp[key] = await makeEmployee(t, admin, dept, `E-00${i + 1}`, name);
});

type Version = number | null | undefined;

/** A submission row naming the version it was read at (absent when `version` is undefined). */
const row = (employeeCode: string, date: string, cells: Cells, version: Version) => ({
  ...submission(employeeCode, date, cells),
  ...(version === undefined ? {} : { version }),
});

const saveAs = (cookie: string, rows: ReturnType<typeof row>[]) =>
  t.postJson('CreateUpdatePerformances', { performances: rows }, cookie);

async function saved(cookie: string, rows: ReturnType<typeof row>[]) {
  const res = await saveAs(cookie, rows);
  expect(res.statusCode, res.body).toBe(200);
}

const scores = (r: PerformanceRow) => r.skills.map((s) => s.score);

/** Everything a save could touch, to show that a refused one touched nothing. */
async function fingerprint() {
  const db = t.handle.db;
  return {
    performances: await db.select().from(performances).orderBy(asc(performances.id)),
    scores: await db
      .select()
      .from(performanceScores)
      .orderBy(asc(performanceScores.performanceCode), asc(performanceScores.skillCode)),
    months: await db
      .select()
      .from(performanceMonths)
      .orderBy(asc(performanceMonths.employeeCode), asc(performanceMonths.month)),
    skillDays: await db
      .select()
      .from(performanceSkillDays)
      .orderBy(
        asc(performanceSkillDays.departmentCode),
        asc(performanceSkillDays.date),
        asc(performanceSkillDays.skillCode),
      ),
    departmentSkillMonths: await db
      .select()
      .from(performanceDepartmentSkillMonths)
      .orderBy(
        asc(performanceDepartmentSkillMonths.departmentCode),
        asc(performanceDepartmentSkillMonths.month),
        asc(performanceDepartmentSkillMonths.skillCode),
      ),
    skillMonths: await db
      .select()
      .from(performanceSkillMonths)
      .orderBy(
        asc(performanceSkillMonths.employeeId),
        asc(performanceSkillMonths.month),
        asc(performanceSkillMonths.skillId),
      ),
    overallSkillDays: await db
      .select()
      .from(performanceOverallSkillDays)
      .orderBy(asc(performanceOverallSkillDays.date), asc(performanceOverallSkillDays.skillCode)),
    overallSkillMonths: await db
      .select()
      .from(performanceOverallSkillMonths)
      .orderBy(asc(performanceOverallSkillMonths.month), asc(performanceOverallSkillMonths.skillCode)),
    departmentDays: await db
      .select()
      .from(performanceDepartmentDays)
      .orderBy(asc(performanceDepartmentDays.departmentCode), asc(performanceDepartmentDays.date)),
    departmentMonths: await db
      .select()
      .from(performanceDepartmentMonths)
      .orderBy(asc(performanceDepartmentMonths.departmentCode), asc(performanceDepartmentMonths.month)),
    departmentBucketMonths: await db
      .select()
      .from(performanceDepartmentBucketMonths)
      .orderBy(
        asc(performanceDepartmentBucketMonths.departmentCode),
        asc(performanceDepartmentBucketMonths.month),
        asc(performanceDepartmentBucketMonths.bucket),
      ),
    bucketChanges: await db
      .select()
      .from(performanceBucketChanges)
      .orderBy(asc(performanceBucketChanges.employeeCode), asc(performanceBucketChanges.date)),
    departmentBuckets: await db
      .select()
      .from(performanceDepartmentBuckets)
      .orderBy(
        asc(performanceDepartmentBuckets.departmentCode),
        asc(performanceDepartmentBuckets.date),
        asc(performanceDepartmentBuckets.bucket),
      ),
    audits: (await db.select({ n: count() }).from(audits))[0]!.n,
  };
}

describe('versions of grid rows', () => {
  const DAY = '2024-03-12';

  it('start at 1, and only a save that changes a row moves it on', async () => {
    expect((await rowOf(t, ann.cookie, emp.aaron, DAY)).version).toBeNull();
    await saved(ann.cookie, [row(emp.aaron, DAY, { [skill.Speed]: 5 }, null)]);
    const first = await rowOf(t, ann.cookie, emp.aaron, DAY);
    expect(first.version).toBe(1);
    // The same values again: nothing is written, so no new version.
    await saved(ann.cookie, [row(emp.aaron, DAY, { [skill.Speed]: 5 }, 1)]);
    expect((await rowOf(t, ann.cookie, emp.aaron, DAY)).version).toBe(1);
    await saved(ann.cookie, [row(emp.aaron, DAY, { [skill.Speed]: 6 }, 1)]);
    expect((await rowOf(t, ann.cookie, emp.aaron, DAY)).version).toBe(2);
    // Every read of the row carries its version.
    const page = await grid(t, ann.cookie, { date: DAY, keyword: 'Aaron' });
    expect(page.data[0]).toMatchObject({ employeeCode: emp.aaron, version: 2 });
    const sorted = await grid(t, ann.cookie, { date: DAY, keyword: 'Aaron', sortField: 'yearly' });
    expect(sorted.data[0]!.version).toBe(2);
    const byCode = await t.postJson(
      'GetPerformanceByCode',
      { performanceCode: first.performanceCode },
      admin,
    );
    expect(byCode.json().data.version).toBe(2);
    const history = await t.postJson('GetPerformancesByEmployeeCode', { employeeCode: emp.aaron }, admin);
    expect(history.json().data[0]).toMatchObject({ date: DAY, version: 2 });
    const report = await t.get('GetPerformanceReport', admin, { date: DAY, keyword: 'Aaron' });
    expect(report.json().data[0].version).toBe(2);
  });

  it('do not move when only the running sums of a row are rewritten by an earlier day', async () => {
    await saved(ann.cookie, [row(emp.aaron, '2024-03-20', { [skill.Speed]: 8 }, null)]);
    const later = await rowOf(t, ann.cookie, emp.aaron, '2024-03-20');
    expect(later.version).toBe(1);
    // A back-dated day rewrites the later rows' running sums, not their scores.
    await saved(ann.cookie, [row(emp.aaron, '2024-03-15', { [skill.Speed]: 2 }, null)]);
    const after = await rowOf(t, ann.cookie, emp.aaron, '2024-03-20');
    expect(after.total.monthly).not.toBe(later.total.monthly);
    expect(after.version).toBe(1);
  });

  it('refuse a version that is not a whole number of at least 1', async () => {
    for (const version of [0, -1, 1.5, 'x']) {
      const res = await t.postJson(
        'CreateUpdatePerformances',
        { performances: [{ ...submission(emp.aaron, DAY, { [skill.Speed]: 1 }), version }] },
        ann.cookie,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([
        { field: 'performances.0.version', message: 'Version must be empty or a whole number of at least 1' },
      ]);
    }
  });
});

describe('a stale row', () => {
  const DAY = '2024-04-09';

  it('refuses the whole save with 409, naming the employee and who changed it, and writes nothing', async () => {
    await saved(admin, [row(emp.bea, DAY, { [skill.Accuracy]: 4, [skill.Speed]: 4 }, undefined)]);
    // Ann and Bob both open the date: Bea's row at version 1.
    const opened = await rowOf(t, bob.cookie, emp.bea, DAY);
    expect(opened.version).toBe(1);
    await saved(ann.cookie, [row(emp.bea, DAY, { [skill.Accuracy]: 9, [skill.Speed]: 4 }, 1)]);
    const current = await rowOf(t, bob.cookie, emp.bea, DAY);
    expect(current.version).toBe(2);

    const before = await fingerprint();
    const res = await saveAs(bob.cookie, [
      // A new row, fine by itself: refused with the batch.
      row(emp.carla, DAY, { [skill.Teamwork]: 7 }, null),
      row(emp.bea, DAY, { [skill.Accuracy]: 4, [skill.Speed]: 1 }, 1),
    ]);
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json();
    expect(body.statusCode).toBe(409);
    expect(body.message).toMatch(
      new RegExp(
        `^Scores of Bea Cruz were changed by ${ann.username} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC since you opened this date$`,
      ),
    );
    // The current row, as GetPerformances answers it: Ann's scores and the version to send next.
    expect(body.data).toEqual([current]);
    expect(scores(body.data[0])).toEqual([9, 4, null]);
    expect(await fingerprint()).toEqual(before);
    expect((await rowOf(t, bob.cookie, emp.carla, DAY)).performanceCode).toBeNull();

    // Bob takes the current version: his save goes through.
    await saved(bob.cookie, [
      row(emp.carla, DAY, { [skill.Teamwork]: 7 }, null),
      row(emp.bea, DAY, { [skill.Accuracy]: 9, [skill.Speed]: 1 }, 2),
    ]);
    const merged = await rowOf(t, bob.cookie, emp.bea, DAY);
    expect(scores(merged)).toEqual([9, 1, null]);
    expect(merged.version).toBe(3);
  });

  it('includes a row created meanwhile, when the writer saw none (null, or empty in a form)', async () => {
    const day = '2024-04-10';
    expect((await rowOf(t, bob.cookie, emp.dan, day)).performanceCode).toBeNull();
    await saved(ann.cookie, [row(emp.dan, day, { [skill.Speed]: 3 }, null)]);
    const before = await fingerprint();
    const json = await saveAs(bob.cookie, [row(emp.dan, day, { [skill.Speed]: 8 }, null)]);
    expect(json.statusCode, json.body).toBe(409);
    expect(json.json().message).toMatch(
      /^Scores of Dan Eve were changed by user\S* at .* UTC since you opened/,
    );
    expect(json.json().data).toEqual([await rowOf(t, bob.cookie, emp.dan, day)]);
    expect(json.json().data[0]).toMatchObject({ version: 1, skills: expect.any(Array) });
    // The browser's form encoding sends null as an empty value.
    const form = await t.post(
      'CreateUpdatePerformances',
      { performances: [row(emp.dan, day, { [skill.Speed]: 8 }, null)] },
      bob.cookie,
    );
    expect(form.statusCode, form.body).toBe(409);
    expect(await fingerprint()).toEqual(before);
  });

  it('names every stale employee, and "someone else" when different people changed them', async () => {
    const day = '2024-04-11';
    await saved(admin, [
      row(emp.aaron, day, { [skill.Speed]: 1 }, null),
      row(emp.bea, day, { [skill.Speed]: 1 }, null),
      row(emp.carla, day, { [skill.Speed]: 1 }, null),
    ]);
    await saved(ann.cookie, [row(emp.bea, day, { [skill.Speed]: 2 }, 1)]);
    await saved(bob.cookie, [row(emp.aaron, day, { [skill.Speed]: 2 }, 1)]);
    const res = await saveAs(admin, [
      row(emp.carla, day, { [skill.Speed]: 5 }, 1),
      row(emp.bea, day, { [skill.Speed]: 5 }, 1),
      row(emp.aaron, day, { [skill.Speed]: 5 }, 1),
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Scores of Aaron Berg and Bea Cruz were changed by someone else since you opened this date',
    );
    expect(res.json().data.map((r: PerformanceRow) => [r.employeeName, r.version, scores(r)])).toEqual([
      ['Aaron Berg', 2, [null, 2, null]],
      ['Bea Cruz', 2, [null, 2, null]],
    ]);
    // The same person changed both: named, without a time.
    await saved(ann.cookie, [
      row(emp.aaron, day, { [skill.Speed]: 3 }, 2),
      row(emp.bea, day, { [skill.Speed]: 3 }, 2),
    ]);
    const again = await saveAs(admin, [
      row(emp.aaron, day, { [skill.Speed]: 5 }, 2),
      row(emp.bea, day, { [skill.Speed]: 5 }, 2),
    ]);
    expect(again.json().message).toBe(
      `Scores of Aaron Berg and Bea Cruz were changed by ${ann.username} since you opened this date`,
    );
  });
});

describe('rows nobody else changed', () => {
  const DAY = '2024-05-07';

  it('never conflict: different employees, and the same employee on another date', async () => {
    await saved(admin, [
      row(emp.eve, DAY, { [skill.Accuracy]: 5 }, null),
      row(emp.finn, DAY, { [skill.Accuracy]: 5 }, null),
      row(emp.eve, '2024-05-08', { [skill.Accuracy]: 5 }, null),
    ]);
    // Both opened the date with every row at version 1.
    await saved(ann.cookie, [row(emp.eve, DAY, { [skill.Accuracy]: 6 }, 1)]);
    await saved(bob.cookie, [
      row(emp.finn, DAY, { [skill.Accuracy]: 7 }, 1),
      row(emp.eve, '2024-05-08', { [skill.Accuracy]: 7 }, 1),
    ]);
    expect((await rowOf(t, admin, emp.eve, DAY)).version).toBe(2);
    expect((await rowOf(t, admin, emp.finn, DAY)).version).toBe(2);
    expect((await rowOf(t, admin, emp.eve, '2024-05-08')).version).toBe(2);
  });

  it('without a version, a save is not checked and overwrites as it always did', async () => {
    const before = await rowOf(t, admin, emp.eve, DAY);
    expect(before.version).toBe(2);
    await saved(bob.cookie, [row(emp.eve, DAY, { [skill.Accuracy]: 1 }, undefined)]);
    const after = await rowOf(t, admin, emp.eve, DAY);
    expect(scores(after)).toEqual([1, null, null]);
    expect(after.version).toBe(3);
    // Nor is a row that another writer created meanwhile.
    await saved(bob.cookie, [row(emp.finn, '2024-05-09', { [skill.Accuracy]: 4 }, undefined)]);
    await saved(ann.cookie, [row(emp.finn, '2024-05-09', { [skill.Accuracy]: 2 }, undefined)]);
    expect(scores(await rowOf(t, admin, emp.finn, '2024-05-09'))).toEqual([2, null, null]);
  });
});

describe('two saves of the same row at once', () => {
  it("one wins, the other gets 409 with the winner's row, and only the winner is audited", async () => {
    const day = '2024-06-04';
    await saved(admin, [row(emp.carla, day, { [skill.Speed]: 5 }, null)]);
    const auditsBefore = (await fingerprint()).audits;
    const [a, b] = await Promise.all([
      saveAs(ann.cookie, [row(emp.carla, day, { [skill.Speed]: 8 }, 1)]),
      saveAs(bob.cookie, [row(emp.carla, day, { [skill.Speed]: 2 }, 1)]),
    ]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    const [winner, loser] = a!.statusCode === 200 ? [8, b!] : [2, a!];
    const now = await rowOf(t, admin, emp.carla, day);
    expect(scores(now)).toEqual([null, winner, null]);
    expect(now.version).toBe(2);
    expect(loser.json().data).toEqual([now]);
    expect((await fingerprint()).audits).toBe(auditsBefore + 1);
  });

  it('many at once: exactly one of them is saved', async () => {
    const day = '2024-06-05';
    await saved(admin, [row(emp.dan, day, { [skill.Teamwork]: 0 }, null)]);
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((points, i) =>
        saveAs(i % 2 ? ann.cookie : bob.cookie, [row(emp.dan, day, { [skill.Teamwork]: points }, 1)]),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const won = statuses.indexOf(200) + 1;
    const now = await rowOf(t, admin, emp.dan, day);
    expect(scores(now)).toEqual([null, null, won]);
    expect(now.version).toBe(2);
  });
});
