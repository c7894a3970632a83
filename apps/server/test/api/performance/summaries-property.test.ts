import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { rows } from '../../../src/seed/sql.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { type Cells, makeDepartment, makeEmployee, makeSkill, save, submission } from './support.ts';

/*
 * The summaries are kept in step by two writers, the save (TypeScript) and the triggers on
 * `employees` (migrations 0011, 0013, 0014, 0015); the rebuild derives them from the scores
 * alone. Whatever sequence of saves, moves and deletions ran, every summary must hold exactly
 * the rows the rebuild writes: the rebuild is the specification, the incremental paths the
 * optimisation. FC_RUNS raises the number of sequences tried.
 */

const RUNS = Number(process.env.FC_RUNS ?? 12);

/** Days either side of month and year ends, where running sums restart. */
const DATES = [
  '2024-01-31',
  '2024-02-01',
  '2024-02-15',
  '2024-02-29',
  '2024-03-01',
  '2024-12-31',
  '2025-01-01',
];

/**
 * Every summary, as ordered JSON text rows (numerics keep their written scale, so a value
 * summed another way shows), and the summary columns `performances` carries itself. The
 * department sums keep a row whose measures fell back to 0 (it adds nothing to a read, and
 * deleting it would cost the save a second statement); the rebuild writes none, so such rows
 * are left out of the comparison.
 */
const SUMMARIES: readonly (readonly [table: string, empty?: string])[] = [
  ['performance_months'],
  ['performance_month_days'],
  ['performance_skill_days'],
  ['performance_skill_months'],
  ['performance_department_skill_months'],
  ['performance_overall_skill_days'],
  ['performance_overall_skill_months'],
  ['performance_department_days', 'daily_sum = 0 and days = 0'],
  ['performance_department_months', 'daily_sum = 0 and days = 0'],
  ['performance_bucket_changes'],
  ['performance_department_buckets', 'employees = 0'],
  ['performance_department_bucket_months', 'employees = 0'],
];

let t: TestApp;
let admin: string;
let seq = 0;
const departments: string[] = [];
const employees: { code: string; id: string; name: string }[] = [];
const skills: string[] = [];

async function addEmployee(department: string) {
  seq += 1;
  const person = { id: `SUM-${seq}`, name: `Person ${seq}`, code: '' };
  person.code = await makeEmployee(t, admin, department, person.id, person.name);
  employees.push(person);
}

async function addSkill() {
  seq += 1;
  skills.push(await makeSkill(t, admin, `Skill ${seq}`));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  departments.push(await makeDepartment(t, admin, 'Operations'), await makeDepartment(t, admin, 'Sales'));
  for (const d of [0, 0, 1, 1]) await addEmployee(departments[d] as string);
  for (let i = 0; i < 3; i++) await addSkill();
});
afterAll(() => t.close());

async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, empty] of SUMMARIES) {
    const kept = empty ? sql.raw(`where not (${empty})`) : sql``;
    const found = await rows<{ r: string }>(
      t.handle.db,
      sql`select row_to_json(x)::text as r from ${sql.raw(table)} x ${kept} order by 1`,
    );
    out[table] = found.map((f) => f.r);
  }
  const own = await rows<{ r: string }>(
    t.handle.db,
    sql`select row_to_json(x)::text as r from (
          select performance_code, daily_average, month_sum, month_days from performances
        ) x order by 1`,
  );
  out.performances = own.map((f) => f.r);
  return out;
}

/** Indices into the live lists, taken modulo their length when the operation runs. */
const cell = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant<''>(''));
const row = fc.record({
  employee: fc.nat(),
  date: fc.constantFrom(...DATES),
  cells: fc.array(fc.tuple(fc.nat(), cell), { minLength: 1, maxLength: 3 }),
});
const operation = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      rows: fc.array(row, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move' as const), employee: fc.nat(), department: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteEmployee' as const), employee: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteSkill' as const), skill: fc.nat() }) },
);
type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

const pick = <T>(list: readonly T[], i: number) => list[i % list.length] as T;

async function saveRows(op: Extract<Operation, { kind: 'save' }>) {
  const seen = new Set<string>();
  const batch = [];
  for (const r of op.rows) {
    const employee = pick(employees, r.employee).code;
    // A batch naming an employee and date twice is refused before anything is written.
    if (seen.has(`${employee}|${r.date}`)) continue;
    seen.add(`${employee}|${r.date}`);
    const cells: Cells = {};
    for (const [s, v] of r.cells) cells[pick(skills, s)] = v;
    batch.push(submission(employee, r.date, cells));
  }
  await save(t, admin, batch);
}

async function move(op: Extract<Operation, { kind: 'move' }>) {
  const person = pick(employees, op.employee);
  const res = await t.post(
    'UpdateEmployee',
    {
      employeeCode: person.code,
      employeeId: person.id,
      name: person.name,
      departmentCode: pick(departments, op.department),
      joinDate: '2020-01-01',
      userCode: '',
    },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
}

/** Through the API, or, for someone with scores (which the API refuses), behind the server. */
async function deleteEmployee(op: Extract<Operation, { kind: 'deleteEmployee' }>) {
  const index = op.employee % employees.length;
  const person = employees[index] as (typeof employees)[number];
  const res = await t.post('DeleteEmployee', { employeeCode: person.code }, admin);
  if (res.statusCode === 409) {
    await t.handle.db.execute(sql`delete from employees where employee_code = ${person.code}`);
  } else expect(res.statusCode, res.body).toBe(200);
  employees.splice(index, 1);
  await addEmployee(pick(departments, op.employee));
}

async function deleteSkill(op: Extract<Operation, { kind: 'deleteSkill' }>) {
  const index = op.skill % skills.length;
  const res = await t.post('DeleteSkill', { skillCode: skills[index] }, admin);
  if (res.statusCode === 409) return;
  expect(res.statusCode, res.body).toBe(200);
  skills.splice(index, 1);
  await addSkill();
}

async function run(op: Operation) {
  if (op.kind === 'save') await saveRows(op);
  else if (op.kind === 'move') await move(op);
  else if (op.kind === 'deleteEmployee') await deleteEmployee(op);
  else await deleteSkill(op);
}

describe('every summary equals its rebuild from the scores', () => {
  it('after any sequence of saves, moves and deletions', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const op of ops) await run(op);
        const kept = await snapshot();
        // The rebuild rewrites every summary from the scores; the next sequence starts from it.
        await rebuildPerformanceRollups(t.handle.db);
        expect(kept).toEqual(await snapshot());
      }),
      { numRuns: RUNS },
    );
  });
});
