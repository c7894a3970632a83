import { autoMapping, IMPORT_MESSAGES, type PerformanceRowInput, SCORE_MESSAGE } from '@wfc/contract';
import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../../src/audit/recorder.ts';
import type { ActiveSession } from '../../../src/auth/sessions.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import type { ImportPlan } from '../../../src/db/schema/index.ts';
import { audits, performanceScores, performances, permissions, users } from '../../../src/db/schema/index.ts';
import { ApiError } from '../../../src/http/envelope.ts';
import type { OpenedSheet } from '../../../src/imports/files/sheet.ts';
import type { ImportRun } from '../../../src/imports/importer.ts';
import { scoreImporter } from '../../../src/imports/scores/importer.ts';
import { ROW_MESSAGES } from '../../../src/imports/scores/rows.ts';
import { savePerformances } from '../../../src/performance/save/save.ts';
import { sharedTestApp } from '../../support/app.ts';
import { makeDepartment, makeEmployee, makeSkill, rowOf } from '../performance/support.ts';

/*
 * The score importer over a real database: what a file's rows would do, what committing them
 * writes (scores, averages, audit entries), and what it refuses (rows with errors, rows changed
 * since the preview), writing nothing then.
 */

const t = sharedTestApp();
let admin: string;
let session: ActiveSession;
let actor: AuditActor;
const skill = {} as Record<'Accuracy' | 'Speed' | 'Teamwork', string>;
const emp = {} as Record<'ann' | 'bob' | 'cat' | 'dan', string>;

beforeAll(async () => {
  admin = await t.login();
  const db = t.handle.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'admin'));
  if (!user) throw new Error('no admin');
  const names = await db.select({ name: permissions.permissionName }).from(permissions);
  actor = { userCode: user.userCode, username: user.username };
  session = {
    idHash: 'test',
    userCode: user.userCode,
    username: user.username,
    permissions: new Set(names.map((n) => n.name)),
    scopes: new Map(),
    mfaSetupRequired: false,
  };
  const dept = await makeDepartment(t, admin);
  for (const title of ['Accuracy', 'Speed', 'Teamwork'] as const)
    skill[title] = await makeSkill(t, admin, title);
  const people = [
    ['ann', 'Ann Lee'],
    ['bob', 'Bob Ray'],
    ['cat', 'Cat Fox'],
    ['dan', 'Dan Orr'],
  ] as const;
  for (const [i, [key, name]] of people.entries())
    emp[key] = await makeEmployee(t, admin, dept, `E-00${i + 1}`, name);
});

const sheetOf = (headers: string[], lines: string[][]): OpenedSheet => ({
  format: 'csv',
  sheets: [],
  sheet: null,
  headers,
  async *rows() {
    for (const [i, cells] of lines.entries()) yield { row: i + 2, cells };
  },
});

async function runOf(headers: string[], lines: string[][], options: Partial<ImportRun> = {}) {
  const fields = await scoreImporter.fields(t.handle.db);
  const progress: { checked?: number; written?: number }[] = [];
  const run: ImportRun = {
    services: t.services,
    session,
    actor,
    importCode: 'IMP-test',
    module: 'performance',
    mode: 'upsert',
    sheet: sheetOf(headers, lines),
    mapping: autoMapping(headers, fields),
    fields,
    skipErrors: false,
    async progress(step) {
      progress.push(step);
    },
    ...options,
  };
  return { run, progress };
}

const commit = (run: ImportRun, plan: ImportPlan) =>
  t.handle.db.transaction((tx) => scoreImporter.commit(run, tx, plan));

const cells = (
  scores: Partial<Record<keyof typeof skill, number | null>>,
): PerformanceRowInput['performancePerSkill'] =>
  Object.entries(scores).map(([title, points]) => ({
    skillCode: skill[title as keyof typeof skill],
    pointsEarned: points ?? null,
  }));

const saveDirect = (employeeCode: string, date: string, scores: Parameters<typeof cells>[0]) =>
  t.handle.db.transaction((tx) =>
    savePerformances(tx, [{ employeeCode, date, performancePerSkill: cells(scores) }], actor),
  );

/** Everything a commit could write, to show that a refused one wrote nothing. */
async function fingerprint() {
  const db = t.handle.db;
  const [p] = await db.select({ n: count() }).from(performances);
  const [s] = await db.select({ n: count() }).from(performanceScores);
  const [a] = await db.select({ n: count() }).from(audits);
  const [v] = await rowsOf<{ v: string }>(
    db,
    sql`select coalesce(sum(version), 0)::text as v from performances`,
  );
  return { performances: p?.n, scores: s?.n, audits: a?.n, versions: v?.v };
}

async function scoresOf(employeeCode: string, date: string) {
  const row = await rowOf(t, admin, employeeCode, date);
  return Object.fromEntries(row.skills.map((s) => [s.title, s.score]));
}

const WIDE = ['Employee Id', 'Date', 'Accuracy', 'Speed', 'Teamwork'];

describe('the wide layout', () => {
  it('previews what each row does, then writes it through the grid save', async () => {
    await saveDirect(emp.ann, '2024-03-01', { Accuracy: 5, Speed: 6 });
    await saveDirect(emp.bob, '2024-02-01', { Accuracy: 4 });
    const lines = [
      ['E-001', '2024-03-01', '5', '6', ''], // as saved
      ['e-001', '45353', '7', '8', '9'], // 2024-03-02, new
      ['E-002', '2024-02-01', '5', '', ''], // changes Accuracy
      ['E-003', '2024/03/01', '', '', ''], // nothing scored, nothing saved: no change
      ['E-004', '2024-03-01', '10', '0', ''], // new
    ];
    const { run, progress } = await runOf(WIDE, lines);
    const checked = await scoreImporter.check(run);
    expect(checked.layout).toBe('wide');
    expect(checked.errors).toEqual([]);
    expect(checked.counts).toEqual({ rows: 5, create: 2, update: 1, unchanged: 2, errors: 0, skipped: 0 });
    expect(checked.sample.map((s) => s.action)).toEqual([
      'unchanged',
      'create',
      'update',
      'unchanged',
      'create',
    ]);
    expect(checked.sample[1]?.values).toEqual({
      employeeId: 'E-001',
      date: '2024-03-02',
      [`skill:${skill.Accuracy}`]: '7',
      [`skill:${skill.Speed}`]: '8',
      [`skill:${skill.Teamwork}`]: '9',
    });
    expect(Object.keys(checked.plan.updates)).toHaveLength(1);
    expect(checked.plan.creates.sort()).toEqual([`${emp.ann}|2024-03-02`, `${emp.dan}|2024-03-01`].sort());
    expect(progress.at(-1)).toEqual({ checked: 5 });

    const before = await fingerprint();
    const done = await commit(run, checked.plan);
    expect(done.counts).toMatchObject({ create: 2, update: 1, unchanged: 2, errors: 0, skipped: 0 });
    await t.settle();
    expect(await scoresOf(emp.ann, '2024-03-02')).toEqual({ Accuracy: 7, Speed: 8, Teamwork: 9 });
    expect(await scoresOf(emp.bob, '2024-02-01')).toEqual({ Accuracy: 5, Speed: null, Teamwork: null });
    expect(await scoresOf(emp.dan, '2024-03-01')).toEqual({ Accuracy: 10, Speed: 0, Teamwork: null });
    expect((await rowOf(t, admin, emp.ann, '2024-03-02')).total.daily).toBe(8);
    expect((await rowOf(t, admin, emp.dan, '2024-03-01')).total.daily).toBe(5);
    const after = await fingerprint();
    expect(after.performances).toBe((before.performances ?? 0) + 2);
    expect(after.audits).toBe((before.audits ?? 0) + 3);
    const entries = await rowsOf<{ action: string }>(
      t.handle.db,
      sql`select action from audits where collection = 'performances' and user_code = ${actor.userCode}
          order by created_at desc, id desc limit 3`,
    );
    expect(entries.map((e) => e.action).sort()).toEqual(['CREATE', 'CREATE', 'UPDATE']);

    // The same file again changes nothing.
    const { run: again } = await runOf(WIDE, lines);
    const second = await scoreImporter.check(again);
    expect(second.counts).toMatchObject({ create: 0, update: 0, unchanged: 5 });
    expect(second.plan).toEqual({ updates: {}, creates: [] });
  });

  it('clears a score for an empty cell and keeps those of skills the file does not hold', async () => {
    await saveDirect(emp.cat, '2024-04-01', { Accuracy: 3, Speed: 4, Teamwork: 5 });
    const { run } = await runOf(['Employee Id', 'Date', 'Speed'], [['E-003', '2024-04-01', '']]);
    const checked = await scoreImporter.check(run);
    expect(checked.counts).toMatchObject({ update: 1 });
    await commit(run, checked.plan);
    expect(await scoresOf(emp.cat, '2024-04-01')).toEqual({ Accuracy: 3, Speed: null, Teamwork: 5 });
  });

  it('reports each bad row at its row and column and, unless told to skip them, writes nothing', async () => {
    const lines = [
      ['E-001', '2024-05-01', '1', '2', '3'],
      ['E-404', '2024-05-01', '1', '2', '3'],
      ['E-002', '2099-05-01', '11', '2', '3'],
      ['E-001', '2024-05-01', '4', '4', '4'],
      ['E-003', '2024-05-01', '6', '', ''],
    ];
    const { run } = await runOf(WIDE, lines);
    const checked = await scoreImporter.check(run);
    expect(checked.errors).toEqual([
      { row: 3, column: 'Employee Id', message: 'Employee not found' },
      { row: 4, column: 'Date', message: expect.stringMatching(/^Date must be between/) },
      { row: 4, column: 'Accuracy', message: SCORE_MESSAGE },
      { row: 5, column: null, message: `${ROW_MESSAGES.duplicateRow} (row 2)` },
    ]);
    expect(checked.errorCount).toBe(4);
    expect(checked.counts).toEqual({ rows: 5, create: 2, update: 0, unchanged: 0, errors: 3, skipped: 0 });
    expect(checked.sample.map((s) => s.action)).toEqual(['create', 'error', 'error', 'error', 'create']);

    const before = await fingerprint();
    const refused = await commit(run, checked.plan).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ statusCode: 400, message: IMPORT_MESSAGES.hasErrors });
    expect((refused as ApiError).errors?.[0]).toEqual({
      field: 'row 3',
      message: 'Employee Id: Employee not found',
    });
    expect(await fingerprint()).toEqual(before);

    const skipping = (await runOf(WIDE, lines, { skipErrors: true })).run;
    const done = await commit(skipping, checked.plan);
    expect(done.counts).toMatchObject({ create: 2, errors: 3, skipped: 3 });
    expect(await scoresOf(emp.ann, '2024-05-01')).toEqual({ Accuracy: 1, Speed: 2, Teamwork: 3 });
    expect(await scoresOf(emp.cat, '2024-05-01')).toEqual({ Accuracy: 6, Speed: null, Teamwork: null });
  });

  it('refuses with 409, writing nothing, when a row changed between the preview and the commit', async () => {
    await saveDirect(emp.ann, '2024-06-01', { Accuracy: 1 });
    const lines = [
      ['E-001', '2024-06-01', '2', '', ''],
      ['E-002', '2024-06-01', '3', '', ''],
    ];
    const { run } = await runOf(WIDE, lines);
    const checked = await scoreImporter.check(run);
    expect(checked.counts).toMatchObject({ create: 1, update: 1 });

    // Someone saves Ann's row in the grid meanwhile.
    await saveDirect(emp.ann, '2024-06-01', { Speed: 9 });
    const before = await fingerprint();
    const refused = await commit(run, checked.plan).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 409, message: IMPORT_MESSAGES.stale });
    expect((refused as ApiError).errors).toEqual([
      { field: 'row 2', message: 'Scores of E-001 on 2024-06-01 changed since the preview' },
    ]);
    expect(await fingerprint()).toEqual(before);

    // And a row the preview planned to create that someone created meanwhile.
    const fresh = await scoreImporter.check((await runOf(WIDE, lines)).run);
    await saveDirect(emp.bob, '2024-06-01', { Teamwork: 4 });
    const created = await commit(run, fresh.plan).catch((e: unknown) => e);
    expect(created).toMatchObject({ statusCode: 409 });
    expect((created as ApiError).errors).toEqual([
      { field: 'row 3', message: 'Scores of E-002 on 2024-06-01 changed since the preview' },
    ]);
    expect(await scoresOf(emp.bob, '2024-06-01')).toEqual({ Accuracy: null, Speed: null, Teamwork: 4 });
  });
});

describe('the long layout', () => {
  it('groups one row per skill into each employee and date', async () => {
    const headers = ['Employee Id', 'Date', 'Skill', 'Score'];
    const lines = [
      ['E-004', '2024-07-01', 'Accuracy', '2'],
      ['E-003', '2024-07-01', 'speed', '5'],
      ['E-004', '2024-07-01', 'Teamwork', '4'],
      ['E-004', '2024-07-01', 'Accuracy', '9'],
      ['E-004', '2024-07-01', 'Charm', '9'],
    ];
    const { run } = await runOf(headers, lines, { skipErrors: true });
    const checked = await scoreImporter.check(run);
    expect(checked.layout).toBe('long');
    expect(checked.errors).toEqual([
      { row: 5, column: 'Skill', message: `${ROW_MESSAGES.duplicateSkill} (row 2)` },
      { row: 6, column: 'Skill', message: 'Skill not found' },
    ]);
    expect(checked.counts).toEqual({ rows: 5, create: 2, update: 0, unchanged: 0, errors: 2, skipped: 0 });
    expect(checked.sample[0]).toEqual({
      row: 2,
      action: 'create',
      values: { employeeId: 'E-004', date: '2024-07-01', skill: 'Accuracy', score: '2' },
    });
    await commit(run, checked.plan);
    expect(await scoresOf(emp.dan, '2024-07-01')).toEqual({ Accuracy: 2, Speed: null, Teamwork: 4 });
    expect((await rowOf(t, admin, emp.dan, '2024-07-01')).total.daily).toBe(3);
  });
});

describe('the modes', () => {
  it('only creating refuses a row that changes saved scores; only updating, one that creates', async () => {
    await saveDirect(emp.ann, '2024-09-01', { Accuracy: 1 });
    await saveDirect(emp.bob, '2024-09-01', { Accuracy: 2 });
    const lines = [
      ['E-001', '2024-09-01', '5', '', ''], // changes Ann's
      ['E-002', '2024-09-01', '2', '', ''], // as saved
      ['E-003', '2024-09-01', '7', '', ''], // new
      ['E-004', '2024-09-01', '', '', ''], // nothing, nothing saved
    ];
    const creating = await scoreImporter.check((await runOf(WIDE, lines, { mode: 'create' })).run);
    expect(creating.errors).toEqual([
      { row: 2, column: null, message: `Performance of E-001 on 2024-09-01 ${IMPORT_MESSAGES.exists}` },
    ]);
    expect(creating.counts).toMatchObject({ create: 1, update: 0, unchanged: 2, errors: 1 });
    expect(creating.sample.map((r) => r.action)).toEqual(['error', 'unchanged', 'create', 'unchanged']);

    const updating = await scoreImporter.check((await runOf(WIDE, lines, { mode: 'update' })).run);
    expect(updating.errors).toEqual([
      { row: 4, column: null, message: `Performance of E-003 on 2024-09-01 ${IMPORT_MESSAGES.missing}` },
    ]);
    expect(updating.counts).toMatchObject({ create: 0, update: 1, unchanged: 2, errors: 1 });

    const { run } = await runOf(WIDE, lines, { mode: 'update', skipErrors: true });
    await commit(run, updating.plan);
    expect(await scoresOf(emp.ann, '2024-09-01')).toMatchObject({ Accuracy: 5 });
    expect(await scoresOf(emp.cat, '2024-09-01')).toMatchObject({ Accuracy: null });
  });
});

describe('the mapping and the reach', () => {
  it('refuses a file whose mapping has no Employee Id, at its header, whatever skipping says', async () => {
    const { run } = await runOf(['Who', 'Date', 'Accuracy'], [['E-001', '2024-08-01', '1']], {
      skipErrors: true,
    });
    const checked = await scoreImporter.check(run);
    expect(checked.errors).toEqual([{ row: 1, column: null, message: 'Map a column to Employee Id' }]);
    expect(checked.counts).toMatchObject({ rows: 1, errors: 1 });
    await expect(commit(run, checked.plan)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses rows of employees beyond the importer reach, in the grid words', async () => {
    const own: ActiveSession = {
      ...session,
      scopes: new Map([
        ['CREATE_PERFORMANCE', 'own'],
        ['UPDATE_PERFORMANCE', 'own'],
      ]),
    };
    const { run } = await runOf(WIDE, [['E-001', '2024-08-01', '1', '', '']], { session: own });
    const checked = await scoreImporter.check(run);
    expect(checked.errors).toEqual([{ row: 2, column: 'Employee Id', message: ROW_MESSAGES.outsideReach }]);
  });
});
