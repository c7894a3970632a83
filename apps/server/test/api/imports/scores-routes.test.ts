import { IMPORT_MESSAGES } from '@wfc/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audits } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { makeDepartment, makeEmployee, makeSkill, rowOf } from '../performance/support.ts';
import { csvOf, startImport } from './support.ts';

/*
 * Scores imported through the API as the wizard imports them: StartImport previews the file,
 * CommitImport writes it through the grid's save, with one IMPORT entry besides the rows' own.
 */

const t = sharedTestApp();
let admin: string;
const skill = {} as Record<'Accuracy' | 'Speed', string>;
const emp = {} as Record<'ann' | 'bob', string>;

beforeAll(async () => {
  admin = await t.login();
  const dept = await makeDepartment(t, admin);
  for (const title of ['Accuracy', 'Speed'] as const) skill[title] = await makeSkill(t, admin, title);
  emp.ann = await makeEmployee(t, admin, dept, 'E-001', 'Ann Lee');
  emp.bob = await makeEmployee(t, admin, dept, 'E-002', 'Bob Ray');
});

const scoresOf = async (employeeCode: string, date: string) =>
  Object.fromEntries((await rowOf(t, admin, employeeCode, date)).skills.map((s) => [s.title, s.score]));

describe('importing scores through the API', () => {
  it('previews a wide file, commits it with one IMPORT entry, and reads it back as no change', async () => {
    const file = csvOf(
      [
        ['Employee Id', 'Date', 'Accuracy', 'Speed'],
        ['E-001', '45352', '7', '9'],
        ['e-002', '2024-03-01', '4', ''],
      ],
      ';',
    );
    const started = await startImport(
      t,
      admin,
      { module: 'performance' },
      { name: 'march.csv', data: Buffer.concat([Buffer.from('\uFEFF'), file]) },
    );
    expect(started.statusCode, started.body).toBe(200);
    const preview = started.json().data;
    expect(preview).toMatchObject({
      status: 'ready',
      module: 'performance',
      layout: 'wide',
      mapping: ['employeeId', 'date', `skill:${skill.Accuracy}`, `skill:${skill.Speed}`],
      counts: { rows: 2, create: 2, update: 0, unchanged: 0, errors: 0, skipped: 0 },
      errors: [],
    });
    expect(preview.sample[0]).toEqual({
      row: 2,
      action: 'create',
      values: {
        employeeId: 'E-001',
        date: '2024-03-01',
        [`skill:${skill.Accuracy}`]: '7',
        [`skill:${skill.Speed}`]: '9',
      },
    });

    const committed = await t.post('CommitImport', { importCode: preview.importCode }, admin);
    expect(committed.statusCode, committed.body).toBe(200);
    expect(committed.json().data).toMatchObject({ status: 'committed', counts: { create: 2 } });
    expect(await scoresOf(emp.ann, '2024-03-01')).toEqual({ Accuracy: 7, Speed: 9 });
    expect(await scoresOf(emp.bob, '2024-03-01')).toEqual({ Accuracy: 4, Speed: null });
    expect((await rowOf(t, admin, emp.ann, '2024-03-01')).total.daily).toBe(8);
    const entries = await t.handle.db.select().from(audits).where(eq(audits.collection, 'performances'));
    expect(entries.filter((a) => a.action === 'CREATE')).toHaveLength(2);
    expect(entries.filter((a) => a.action === 'IMPORT')).toHaveLength(1);

    const again = await startImport(t, admin, { module: 'performance' }, { name: 'march.csv', data: file });
    expect(again.json().data.counts).toMatchObject({ create: 0, update: 0, unchanged: 2 });
  });

  it('previews a long file with its errors at their rows, and commits only when told to skip them', async () => {
    const file = csvOf([
      ['Employee Id', 'Date', 'Skill', 'Score'],
      ['E-001', '2024-03-02', 'Accuracy', '3'],
      ['E-001', '2024-03-02', 'speed', '12'],
      ['E-002', '2024-03-02', 'Speed', '6'],
    ]);
    const started = await startImport(t, admin, { module: 'performance' }, { name: 'long.csv', data: file });
    expect(started.statusCode, started.body).toBe(200);
    const preview = started.json().data;
    expect(preview).toMatchObject({
      layout: 'long',
      counts: { rows: 3, create: 2, errors: 1 },
      errors: [{ row: 3, column: 'Score', message: 'Score must be empty or a whole number from 0 to 10' }],
    });
    const refused = await t.post('CommitImport', { importCode: preview.importCode }, admin);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(IMPORT_MESSAGES.hasErrors);
    expect(await scoresOf(emp.ann, '2024-03-02')).toEqual({ Accuracy: null, Speed: null });

    const skipped = await t.post('CommitImport', { importCode: preview.importCode, skipErrors: true }, admin);
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json().data.counts).toMatchObject({ create: 2, skipped: 1 });
    expect(await scoresOf(emp.ann, '2024-03-02')).toEqual({ Accuracy: 3, Speed: null });
    expect(await scoresOf(emp.bob, '2024-03-02')).toEqual({ Accuracy: null, Speed: 6 });
  });
});
