import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCode } from '../../../src/db/codes.ts';
import { performanceMonths, performanceScores, performances } from '../../../src/db/schema/index.ts';
import { rebuildPerformanceRollups } from '../../../src/performance/summaries/rebuild.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import {
  type Cells,
  makeDepartment,
  makeEmployee,
  makeSkill,
  rowOf,
  save,
  submission,
  totalsOf,
} from './support.ts';

let t: TestApp;
let admin: string;
let dept: string;
let alpha: string;
let bravo: string;
let charlie: string;
let seq = 0;

const employee = () => {
  seq += 1;
  return makeEmployee(t, admin, dept, `AVG-${seq}`, `Person ${seq}`);
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  dept = await makeDepartment(t, admin);
  // Created out of title order, to show the columns follow the title and not creation.
  charlie = await makeSkill(t, admin, 'Charlie');
  alpha = await makeSkill(t, admin, 'Alpha');
  bravo = await makeSkill(t, admin, 'Bravo');
});
afterAll(() => t.close());

describe('averages, computed by hand', () => {
  it('daily is the mean of the scored skills; unscored skills do not count', async () => {
    const e = await employee();
    await save(t, admin, [submission(e, '2024-03-05', { [alpha]: 7, [bravo]: 8, [charlie]: '' })]);
    const row = await rowOf(t, admin, e, '2024-03-05');
    expect(row.skills).toEqual([
      { skillCode: alpha, title: 'Alpha', score: 7 },
      { skillCode: bravo, title: 'Bravo', score: 8 },
      { skillCode: charlie, title: 'Charlie', score: null },
    ]);
    expect(row.total).toEqual({ daily: 7.5, monthly: 7.5, yearly: 7.5 });
    expect(row.performanceCode).toMatch(/^PERF-[0-9A-Z]{16}$/);
  });

  it('monthly starts on the 1st and yearly on 1 January; dates without scores do not count', async () => {
    const e = await employee();
    await save(t, admin, [
      submission(e, '2023-12-31', { [alpha]: 2 }),
      submission(e, '2024-01-01', { [alpha]: 6 }),
      submission(e, '2024-02-28', { [alpha]: 4, [bravo]: 5 }),
      submission(e, '2024-02-29', { [alpha]: 10, [bravo]: '', [charlie]: '' }),
      submission(e, '2024-03-01', { [alpha]: 3, [bravo]: 3, [charlie]: 4 }),
      submission(e, '2024-03-04', { [alpha]: '', [bravo]: '', [charlie]: '' }),
      submission(e, '2024-03-05', { [alpha]: 7, [bravo]: 8 }),
    ]);
    // Daily: Dec 31 = 2, Jan 1 = 6, Feb 28 = 4.5, Feb 29 = 10, Mar 1 = 10/3, Mar 4 = none, Mar 5 = 7.5.
    expect(await totalsOf(t, admin, e, '2023-12-31')).toEqual({ daily: 2, monthly: 2, yearly: 2 });
    // A new year leaves December out.
    expect(await totalsOf(t, admin, e, '2024-01-01')).toEqual({ daily: 6, monthly: 6, yearly: 6 });
    // (4.5 + 10) / 2 = 7.25; year (6 + 4.5 + 10) / 3 = 6.8333...
    expect(await totalsOf(t, admin, e, '2024-02-29')).toEqual({ daily: 10, monthly: 7.25, yearly: 6.83 });
    // A date with no row: no daily; the month so far is Mar 1 alone; year (6 + 4.5 + 10 + 10/3) / 4 = 143/24.
    const mar3 = await rowOf(t, admin, e, '2024-03-03');
    expect(mar3.performanceCode).toBeNull();
    expect(mar3.total).toEqual({ daily: null, monthly: 3.33, yearly: 5.96 });
    // A saved row with nothing scored has a code but no daily average, and counts for nothing.
    const mar4 = await rowOf(t, admin, e, '2024-03-04');
    expect(mar4.performanceCode).not.toBeNull();
    expect(mar4.total).toEqual({ daily: null, monthly: 3.33, yearly: 5.96 });
    // Month (10/3 + 7.5) / 2 = 65/12 = 5.4166...; year (6 + 4.5 + 10 + 10/3 + 7.5) / 5 = 94/15 = 6.2666...
    expect(await totalsOf(t, admin, e, '2024-03-05')).toEqual({ daily: 7.5, monthly: 5.42, yearly: 6.27 });
    // A month with nothing yet: no monthly, the year carries on.
    expect(await totalsOf(t, admin, e, '2024-04-15')).toEqual({ daily: null, monthly: null, yearly: 6.27 });
    // Before anything was scored: nothing at all.
    expect(await totalsOf(t, admin, e, '2023-12-30')).toEqual({ daily: null, monthly: null, yearly: null });
  });

  it('a score cleared back to empty stops counting, and a back-dated change moves every later average', async () => {
    const e = await employee();
    await save(t, admin, [
      submission(e, '2024-01-01', { [alpha]: 6 }),
      submission(e, '2024-02-28', { [alpha]: 4, [bravo]: 5 }),
      submission(e, '2024-02-29', { [alpha]: 10 }),
      submission(e, '2024-03-01', { [alpha]: 3, [bravo]: 3, [charlie]: 4 }),
    ]);
    expect(await totalsOf(t, admin, e, '2024-03-01')).toEqual({ daily: 3.33, monthly: 3.33, yearly: 5.96 });

    await save(t, admin, [submission(e, '2024-02-29', { [alpha]: '' })]);
    const feb29 = await rowOf(t, admin, e, '2024-02-29');
    expect(feb29.skills.map((s) => s.score)).toEqual([null, null, null]);
    // Feb: 4.5 alone; year (6 + 4.5 + 10/3) / 3 = 83/18 = 4.6111...
    expect(feb29.total).toEqual({ daily: null, monthly: 4.5, yearly: 5.25 });
    expect(await totalsOf(t, admin, e, '2024-03-01')).toEqual({ daily: 3.33, monthly: 3.33, yearly: 4.61 });

    // January changes: every later yearly average follows, monthly ones of other months do not.
    await save(t, admin, [submission(e, '2024-01-01', { [alpha]: 9, [bravo]: 10 })]);
    // Year (9.5 + 4.5 + 10/3) / 3 = 52/9 = 5.777...
    expect(await totalsOf(t, admin, e, '2024-03-01')).toEqual({ daily: 3.33, monthly: 3.33, yearly: 5.78 });
    expect(await totalsOf(t, admin, e, '2024-02-28')).toEqual({ daily: 4.5, monthly: 4.5, yearly: 7 });
  });

  it('a skill added after scores exist shows empty, changes nothing until scored, then counts', async () => {
    const e = await employee();
    await save(t, admin, [
      submission(e, '2024-05-01', { [alpha]: 4, [bravo]: 6 }),
      submission(e, '2024-05-02', { [alpha]: 8 }),
    ]);
    expect(await totalsOf(t, admin, e, '2024-05-02')).toEqual({ daily: 8, monthly: 6.5, yearly: 6.5 });
    const delta = await makeSkill(t, admin, 'Delta');
    const row = await rowOf(t, admin, e, '2024-05-02');
    expect(row.skills.map((s) => s.title)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect(row.skills[3]).toEqual({ skillCode: delta, title: 'Delta', score: null });
    expect(row.total).toEqual({ daily: 8, monthly: 6.5, yearly: 6.5 });
    await save(t, admin, [submission(e, '2024-05-02', { [delta]: 1 }, row.performanceCode ?? undefined)]);
    // May 2: (8 + 1) / 2 = 4.5, the alpha score kept; month (5 + 4.5) / 2 = 4.75.
    expect(await totalsOf(t, admin, e, '2024-05-02')).toEqual({ daily: 4.5, monthly: 4.75, yearly: 4.75 });
  });

  it('rounds half away from zero, at two decimals', async () => {
    const e = await employee();
    const delta = (await rowOf(t, admin, e, '2024-06-01')).skills.find((s) => s.title === 'Delta')?.skillCode;
    if (!delta) throw new Error('Delta skill missing');
    await save(t, admin, [
      submission(e, '2024-06-01', { [alpha]: 1, [bravo]: 0, [charlie]: 0, [delta]: 0 }),
      submission(e, '2024-06-02', { [alpha]: 0 }),
    ]);
    // Daily 0.25 and 0: the mean is exactly 0.125.
    expect(await totalsOf(t, admin, e, '2024-06-02')).toEqual({ daily: 0, monthly: 0.13, yearly: 0.13 });
  });
});

describe('rebuildPerformanceRollups, for loaders that write scores directly', () => {
  it('derives every rollup from the scores alone, matching what saves maintain', async () => {
    const e = await employee();
    await save(t, admin, [
      submission(e, '2024-01-31', { [alpha]: 4, [bravo]: 9 }),
      submission(e, '2024-02-01', { [alpha]: 7 }),
      submission(e, '2024-02-10', { [alpha]: '', [bravo]: '' }),
      submission(e, '2024-03-03', { [alpha]: 1, [bravo]: 2, [charlie]: 6 }),
    ]);
    const dates = ['2024-01-31', '2024-02-01', '2024-02-10', '2024-02-28', '2024-03-03', '2024-03-31'];
    const saved = await Promise.all(dates.map((d) => totalsOf(t, admin, e, d)));
    // A loader adds a day of scores without any rollup, and everything else is wiped.
    const loaded = newCode('PERF-');
    await t.handle.db
      .insert(performances)
      .values({ performanceCode: loaded, employeeCode: e, date: '2024-02-15' });
    await t.handle.db.insert(performanceScores).values([
      { performanceCode: loaded, skillCode: alpha, points: 10 },
      { performanceCode: loaded, skillCode: bravo, points: null },
    ]);
    await t.handle.db.update(performances).set({ dailyAverage: null, monthSum: '0', monthDays: 0 });
    await t.handle.db.delete(performanceMonths);

    await rebuildPerformanceRollups(t.handle.db);
    const rebuilt = await Promise.all(dates.map((d) => totalsOf(t, admin, e, d)));
    // Only February onwards sees the loaded 10: Feb (7 + 10) / 2, year (6.5 + 7 + 10) / 3 ...
    expect(rebuilt[0]).toEqual(saved[0]);
    expect(rebuilt[1]).toEqual(saved[1]);
    expect(rebuilt[2]).toEqual(saved[2]);
    expect(rebuilt[3]).toEqual({ daily: null, monthly: 8.5, yearly: 7.83 });
    // Mar 3: 3; month 3; year (6.5 + 7 + 10 + 3) / 4 = 6.625.
    expect(rebuilt[4]).toEqual({ daily: 3, monthly: 3, yearly: 6.63 });
    expect(saved[4]).toEqual({ daily: 3, monthly: 3, yearly: 5.5 });
  });
});

/* A reference model in exact rational arithmetic, to compare with at random. */
type Frac = { n: bigint; d: bigint };
const add = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });

function round2(f: Frac | null): number | null {
  if (!f) return null;
  const scaled = f.n * 100n;
  let q = scaled / f.d;
  const r = scaled - q * f.d;
  if (2n * r >= f.d) q += 1n;
  return Number(q) / 100;
}

type History = Map<string, Map<string, number>>;

function dailyOf(h: History, date: string): Frac | null {
  const cells = [...(h.get(date)?.values() ?? [])];
  return cells.length ? { n: BigInt(cells.reduce((a, b) => a + b, 0)), d: BigInt(cells.length) } : null;
}

function meanFrom(h: History, from: string, to: string): Frac | null {
  let sum: Frac = { n: 0n, d: 1n };
  let count = 0n;
  for (const date of h.keys()) {
    const daily = date >= from && date <= to ? dailyOf(h, date) : null;
    if (daily) {
      sum = add(sum, daily);
      count += 1n;
    }
  }
  return count ? { n: sum.n, d: sum.d * count } : null;
}

const expected = (h: History, date: string) => ({
  daily: round2(dailyOf(h, date)),
  monthly: round2(meanFrom(h, `${date.slice(0, 7)}-01`, date)),
  yearly: round2(meanFrom(h, `${date.slice(0, 4)}-01-01`, date)),
});

const DATES = [
  '2023-12-30',
  '2023-12-31',
  '2024-01-01',
  '2024-01-15',
  '2024-01-31',
  '2024-02-01',
  '2024-02-29',
  '2024-03-01',
  '2024-03-02',
  '2024-07-31',
  '2024-12-31',
];

describe('averages against an exact reference model', () => {
  it('agree after any sequence of saves, clears and back-dated edits', async () => {
    const skills = [alpha, bravo, charlie];
    const cell = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant<''>(''));
    const save$ = fc.record({
      date: fc.constantFrom(...DATES),
      cells: fc.array(fc.tuple(fc.constantFrom(...skills), cell), { minLength: 1, maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(save$, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          const e = await employee();
          const h: History = new Map();
          for (const batch of batches) {
            // One row per date in a batch, as the grid sends it.
            const byDate = new Map<string, Cells>();
            for (const s of batch) byDate.set(s.date, Object.fromEntries(s.cells));
            await save(
              t,
              admin,
              [...byDate].map(([date, cells]) => submission(e, date, cells)),
            );
            for (const [date, cells] of byDate) {
              const scores = h.get(date) ?? new Map<string, number>();
              for (const [skill, v] of Object.entries(cells)) {
                if (v === '' || v === null) scores.delete(skill);
                else scores.set(skill, v);
              }
              h.set(date, scores);
            }
          }
          for (const date of DATES) {
            expect(await totalsOf(t, admin, e, date), date).toEqual(expected(h, date));
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
