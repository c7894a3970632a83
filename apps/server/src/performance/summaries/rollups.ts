import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { monthStart, yearStart } from '../dates.ts';
import { dayJson, exactRound2, jsonParam } from '../sql.ts';

/*
 * The averages are read from rollups that every save keeps in step (see db/schema/performance.ts):
 *   performances.daily_average               mean of the day's scored skills
 *   performances.month_sum / month_days      running sum and count of daily averages, 1st..date
 *   performance_months.day_sum / day_count   the same over the whole month
 *   performance_months.year_sum / year_days  running over the months, 1 January..end of month
 *   performance_month_days                    the month's daily averages written out as a trend's JSON
 *   performance_skill_days                    per department, date and skill: sum and count of scores
 *   performance_department_skill_months       per department, month and skill: the same
 *   performance_skill_months                  per employee, month and skill: the same
 *   performance_department_days / _months     per department and date (month): sum and count of daily averages
 *   performance_bucket_changes                per employee: the dates their yearly average changes bucket
 *   performance_department_buckets / _bucket_months
 *                                             per department, date (month) and bucket: employees in less out
 * A save touches its rows, the later rows of their months and twelve month rows per employee, its
 * months' days written out, and the bucket changes of the rest of their year, in five set-based
 * statements whatever the number of rows saved; the first and the last answer what they change
 * per department, which goes into the department rollups in four more (days, months, bucket days,
 * bucket months); then the skill days and months of its changed cells, in one more each (two when
 * a count falls to 0). An employee's change of department or deletion moves their department
 * rollups, then skill days and months, through triggers on `employees` (their SQL is in
 * triggers.ts, applied by migrations); the deletion takes their months of days away by cascade (0015).
 */

export interface EmployeeDay {
  employeeCode: string;
  date: string;
}

export interface RollupGroups {
  /** `from`: the earliest changed day; the running sums before it stand. */
  months: { employee_code: string; month: string; from: string }[];
  /** `from`: the earliest changed day of the year; the yearly averages before it stand. */
  years: { employee_code: string; year: string; from: string }[];
}

/** The (employee, month) and (employee, year) groups whose running sums a change of these days moves. */
export function rollupGroups(days: readonly EmployeeDay[]): RollupGroups {
  const months = new Map<string, RollupGroups['months'][number]>();
  const years = new Map<string, RollupGroups['years'][number]>();
  for (const d of days) {
    const month = monthStart(d.date);
    const year = yearStart(d.date);
    const key = `${d.employeeCode}|${month}`;
    const known = months.get(key);
    if (!known || d.date < known.from)
      months.set(key, { employee_code: d.employeeCode, month, from: d.date });
    const yearKey = `${d.employeeCode}|${year}`;
    const knownYear = years.get(yearKey);
    if (!knownYear || d.date < knownYear.from)
      years.set(yearKey, { employee_code: d.employeeCode, year, from: d.date });
  }
  return { months: [...months.values()], years: [...years.values()] };
}

/** A changed row and the sum and number of its scored cells after the change. */
export interface ChangedDay extends EmployeeDay {
  performanceCode: string;
  scoreSum: number;
  scored: number;
  /** The row existed before this save, so its version moves on (a created row stays at 1). */
  bump: boolean;
}

/**
 * `monthGroups` selects employee_code, month and from_date. Only rows from from_date on are
 * re-summed, starting from the running values of the row just before it, so appending a day
 * reads one earlier row instead of the whole month. `days` (code, score_sum, scored, bump), when
 * given, are the rows whose scores changed: their daily average, their `updated_at` and, for rows
 * that existed before the save (`bump`), their version are set in the same pass, so that each
 * row is rewritten once, and the difference each makes to its department's day goes into
 * `performance_department_days` in the same statement (the employees are locked, so their
 * departments stand). A daily average is the mean of the day's scored skills, kept to 30
 * decimals (the column's scale, here as in the rebuild), null when none is scored.
 */
async function refreshMonths(db: Executor, monthGroups: SQL, days?: SQL): Promise<DepartmentDelta[]> {
  const daily = days
    ? sql`case when d.code is null then p.daily_average else d.average end`
    : sql`p.daily_average`;
  const deltas = await rowsOf<DepartmentDelta>(
    db,
    sql`
    with g as (${monthGroups}),
    d as (${
      days
        ? sql`select x.code, x.bump,
                (x.score_sum::numeric(36, 30) / nullif(x.scored, 0))::numeric(36, 30) as average
              from (${days}) x`
        : sql`select null::text as code, null::boolean as bump, null::numeric(36, 30) as average where false`
    }),
    base as (
      select g.employee_code, g.month, g.from_date,
        coalesce(b.month_sum, 0) as month_sum, coalesce(b.month_days, 0) as month_days
      from g left join lateral (
        select p.month_sum, p.month_days from performances p
        where p.employee_code = g.employee_code and p.date >= g.month and p.date < g.from_date
        order by p.date desc limit 1
      ) b on true
    ),
    r as (
      select p.id, p.employee_code, p.date, p.daily_average as old_average, d.code is not null as changed, coalesce(d.bump, false) as bump, ${daily} as daily_average,
        base.month_sum + coalesce(sum(${daily}) over w, 0) as month_sum,
        base.month_days + count(${daily}) over w as month_days
      from base join performances p on p.employee_code = base.employee_code
        and p.date >= base.from_date and p.date < (base.month + interval '1 month')::date
      left join d on d.code = p.performance_code
      window w as (partition by p.employee_code, base.month order by p.date)
    ),
    u as (
      update performances p set daily_average = r.daily_average, month_sum = r.month_sum,
        month_days = r.month_days, updated_at = case when r.changed then now() else p.updated_at end,
        version = case when r.bump then p.version + 1 else p.version end
      from r
      where p.id = r.id and (r.changed or p.month_sum <> r.month_sum or p.month_days <> r.month_days)
    ),
    delta as (
      select e.department_code, r.date, coalesce(r.daily_average, 0) - coalesce(r.old_average, 0) as daily_sum,
        (r.daily_average is not null)::int - (r.old_average is not null)::int as days
      from r join employees e on e.employee_code = r.employee_code
      where r.changed and r.daily_average is distinct from r.old_average
    )
    ${departmentDeltas(DEPARTMENT_DAYS, sql`delta`)}`,
  );
  // A month's totals are the running values of its last row.
  await db.execute(sql`
    with g as (${monthGroups})
    insert into performance_months as m (employee_code, month, day_sum, day_count, year_sum, year_days)
    select g.employee_code, g.month, coalesce(last.month_sum, 0), coalesce(last.month_days, 0), 0, 0
    from g left join lateral (
      select p.month_sum, p.month_days from performances p
      where p.employee_code = g.employee_code
        and p.date >= g.month and p.date < (g.month + interval '1 month')::date
      order by p.date desc limit 1
    ) last on true
    on conflict (employee_code, month) do update
      set day_sum = excluded.day_sum, day_count = excluded.day_count
      where m.day_sum <> excluded.day_sum or m.day_count <> excluded.day_count`);
  // The month's days written out for the trends, from the employee-and-date index alone (it
  // carries the daily averages); a month left without a scored day has no row.
  await db.execute(sql`
    with g as (${monthGroups}),
    w as (
      select g.employee_code, g.month, (
        select string_agg(${dayJson(sql`p.date`, sql`p.daily_average`)}, ',' order by p.date)
        from performances p
        where p.employee_code = g.employee_code and p.daily_average is not null
          and p.date >= g.month and p.date < (g.month + interval '1 month')::date
      ) as days
      from g
    ),
    emptied as (
      delete from performance_month_days s using w
      where s.employee_code = w.employee_code and s.month = w.month and w.days is null
    )
    insert into performance_month_days as s (employee_code, month, days)
    select employee_code, month, days from w where days is not null
    order by employee_code, month
    on conflict (employee_code, month) do update set days = excluded.days
      where s.days <> excluded.days`);
  return deltas;
}

async function refreshYears(db: Executor, yearGroups: SQL) {
  await db.execute(sql`
    with y as (${yearGroups}),
    r as (
      select m.employee_code, m.month,
        sum(m.day_sum) over w as year_sum,
        sum(m.day_count) over w as year_days
      from y join performance_months m on m.employee_code = y.employee_code
        and m.month >= y.year and m.month < (y.year + interval '1 year')::date
      window w as (partition by m.employee_code, y.year order by m.month)
    )
    update performance_months m set year_sum = r.year_sum, year_days = r.year_days
    from r
    where m.employee_code = r.employee_code and m.month = r.month
      and (m.year_sum <> r.year_sum or m.year_days <> r.year_days)`);
}

/** After the scores of these rows changed: their daily averages, then the running sums they feed. */
export async function refreshRollups(db: Executor, changed: readonly ChangedDay[]) {
  if (!changed.length) return;
  const { months, years } = rollupGroups(changed);
  const days = changed.map((c) => ({
    code: c.performanceCode,
    score_sum: c.scoreSum,
    scored: c.scored,
    bump: c.bump,
  }));
  const dayDeltas = await refreshMonths(
    db,
    sql`select x.employee_code, x.month::date as month, x.from::date as from_date
        from jsonb_to_recordset(${jsonParam(months)}) as x(employee_code text, month text, "from" text)`,
    sql`select * from jsonb_to_recordset(${jsonParam(days)}) as x(code text, score_sum int, scored int, bump boolean)`,
  );
  const yearGroups = sql`select x.employee_code, x.year::date as year, x.from::date as from_date
      from jsonb_to_recordset(${jsonParam(years)}) as x(employee_code text, year text, "from" text)`;
  await refreshYears(db, yearGroups);
  const bucketDeltas = await refreshBuckets(db, yearGroups);
  await addDepartmentDeltas(db, DEPARTMENT_DAYS, dayDeltas);
  await addDepartmentDeltas(db, DEPARTMENT_BUCKETS, bucketDeltas);
}

type KeyType = 'text' | 'date' | 'bigint' | 'smallint' | 'int' | 'numeric';

/**
 * A rollup of sums that writers add to: its key columns and summed columns with their types, and
 * the count whose 0 leaves a row that is deleted (none: such rows stay, adding nothing).
 */
interface Rollup {
  table: string;
  keys: readonly (readonly [column: string, type: KeyType])[];
  sums: readonly (readonly [column: string, type: KeyType])[];
  emptiedBy?: string;
}

/**
 * A department rollup kept at two levels, per date and per month, from the same differences:
 * `extra` keys after the period (a bucket), and the summed columns.
 */
interface DepartmentRollup {
  days: Rollup;
  months: Rollup;
}

function departmentRollup(
  days: string,
  months: string,
  extra: Rollup['keys'],
  sums: Rollup['sums'],
): DepartmentRollup {
  return {
    days: { table: days, keys: [['department_code', 'text'], ['date', 'date'], ...extra], sums },
    months: { table: months, keys: [['department_code', 'text'], ['month', 'date'], ...extra], sums },
  };
}

const DEPARTMENT_DAYS = departmentRollup(
  'performance_department_days',
  'performance_department_months',
  [],
  [
    ['daily_sum', 'numeric'],
    ['days', 'int'],
  ],
);
const DEPARTMENT_BUCKETS = departmentRollup(
  'performance_department_buckets',
  'performance_department_bucket_months',
  [['bucket', 'smallint']],
  [['employees', 'int']],
);

/** A difference to a department rollup, as text, at the day level or the month level. */
interface DepartmentDelta {
  level: 'day' | 'month';
  key: string[];
  sums: string[];
}

/**
 * A select of `source`'s differences (department_code, date, the rollup's extra keys and sums)
 * summed per row of the day table and per row of the month table, as `DepartmentDelta`s. Sums stay
 * exact: they go to Node and back as text.
 */
function departmentDeltas(rollup: DepartmentRollup, source: SQL): SQL {
  const extra = rollup.days.keys.slice(2).map(([column]) => `x.${column}`);
  const sums = rollup.days.sums.map(([column]) => `sum(x.${column})`);
  const level = (name: 'day' | 'month', period: string) =>
    sql.raw(`select '${name}' as level,
        array[x.department_code, (${period})::text${extra.map((k) => `, ${k}::text`).join('')}] as key,
        array[${sums.map((v) => `${v}::text`).join(', ')}] as sums
      from x group by x.department_code, ${period}${extra.map((k) => `, ${k}`).join('')}
      having ${sums.map((v) => `${v} <> 0`).join(' or ')}`);
  return sql`, x as (select * from ${source})
    ${level('day', 'x.date')}
    union all
    ${level('month', "date_trunc('month', x.date)::date")}`;
}

/**
 * Rebuilds a department rollup's month table from its day table, from the declaration: each
 * month's sums are its days' (the save adds the same differences to both).
 */
function monthsFromDays(rollup: DepartmentRollup): SQL {
  const extra = rollup.days.keys.slice(2).map(([column]) => column);
  const sums = rollup.days.sums.map(([column, type]) => ({ column, total: `sum(${column})::${type}` }));
  const positions = [1, 2, ...extra.map((_, i) => i + 3)].join(', ');
  const into = [...rollup.months.keys.map(([column]) => column), ...sums.map((v) => v.column)];
  const from = ['department_code', "date_trunc('month', date)::date", ...extra, ...sums.map((v) => v.total)];
  return sql.raw(`insert into ${rollup.months.table} (${into.join(', ')})
    select ${from.join(', ')}
    from ${rollup.days.table}
    group by ${positions}
    having ${sums.map((v) => `${v.total} <> 0`).join(' or ')}
    order by ${positions}`);
}

/**
 * Adds the differences to the rollup's day table, then to its month table, each as one upsert in
 * key order, the order the department moves of triggers.ts take too.
 */
async function addDepartmentDeltas(
  db: Executor,
  rollup: DepartmentRollup,
  deltas: readonly DepartmentDelta[],
) {
  for (const [level, table] of [
    ['day', rollup.days],
    ['month', rollup.months],
  ] as const) {
    const changes = deltas.filter((d) => d.level === level).sort((a, b) => compareKeys(a.key, b.key));
    await addToRollup(db, table, changes);
  }
}

/**
 * The bucket of a yearly average `sum / days` as the overview's distribution counts it (`0-1` ...
 * `9-10`): the average rounded as the grid shows it, then its whole part.
 */
const yearlyBucket = (sum: SQL, days: SQL) =>
  sql`least(floor(${exactRound2(sql`(${sum}) / (${days})`)}), 9)::smallint`;

/**
 * `yearGroups` selects employee_code, year and from_date: the employees' yearly averages moved
 * from from_date to the end of the year (their running sums are already refreshed). Their bucket
 * changes from from_date on are computed again and written over the old ones (kept, changed, added
 * or deleted). Per employee: the year's sums before from_date (the month rollup before its month,
 * the row before it in its month) and the bucket in force then, then the scored days from
 * from_date on with running sums of their daily averages, which the employee-and-date index
 * carries, so that a year of rows is read without visiting them (2.6 s for a save of 1,000
 * employees on 2 January when their month rollups and running sums were joined instead). Answers
 * what that changes per department, date (and month) and bucket, for `addDepartmentDeltas`.
 */
async function refreshBuckets(db: Executor, yearGroups: SQL): Promise<DepartmentDelta[]> {
  return rowsOf<DepartmentDelta>(
    db,
    sql`
    with g as (${yearGroups}),
    old as (
      select c.employee_code, c.date, c.bucket, c.previous
      from g join performance_bucket_changes c on c.employee_code = g.employee_code
        and c.date >= g.from_date and c.date < (g.year + interval '1 year')::date
    ),
    new as (
      select g.employee_code, v.date, v.bucket, v.previous
      from g
      cross join lateral (
        select coalesce(pm.year_sum, 0) + coalesce(pd.month_sum, 0) as sum,
          coalesce(pm.year_days, 0) + coalesce(pd.month_days, 0) as days,
          (select c.bucket from performance_bucket_changes c
            where c.employee_code = g.employee_code and c.date >= g.year and c.date < g.from_date
            order by c.date desc limit 1) as bucket
        from (select) one
        left join lateral (
          select m.year_sum, m.year_days from performance_months m
          where m.employee_code = g.employee_code
            and m.month >= g.year and m.month < date_trunc('month', g.from_date)::date
          order by m.month desc limit 1
        ) pm on true
        left join lateral (
          select p.month_sum, p.month_days from performances p
          where p.employee_code = g.employee_code
            and p.date >= date_trunc('month', g.from_date)::date and p.date < g.from_date
          order by p.date desc limit 1
        ) pd on true
      ) before
      cross join lateral (
        select x.date, x.bucket, coalesce(lag(x.bucket) over (order by x.date), before.bucket) as previous
        from (
          select p.date,
            ${yearlyBucket(sql`before.sum + sum(p.daily_average) over w`, sql`before.days + count(*) over w`)} as bucket
          from performances p
          where p.employee_code = g.employee_code and p.date >= g.from_date
            and p.date < (g.year + interval '1 year')::date and p.daily_average is not null
          window w as (order by p.date)
        ) x
      ) v
      where v.bucket is distinct from v.previous
    ),
    written as (
      insert into performance_bucket_changes as c (employee_code, date, bucket, previous)
      select * from new order by employee_code, date
      on conflict (employee_code, date) do update set bucket = excluded.bucket, previous = excluded.previous
        where c.bucket <> excluded.bucket or c.previous is distinct from excluded.previous
    ),
    gone as (
      delete from performance_bucket_changes c using old o
      where c.employee_code = o.employee_code and c.date = o.date
        and not exists (select from new n where n.employee_code = o.employee_code and n.date = o.date)
    ),
    delta as (
      select e.department_code, x.date, x.bucket, x.n as employees
      from (
        select employee_code, date, bucket, 1 as n from new
        union all select employee_code, date, previous, -1 from new where previous is not null
        union all select employee_code, date, bucket, -1 from old
        union all select employee_code, date, previous, 1 from old where previous is not null
      ) x join employees e on e.employee_code = x.employee_code
    )
    ${departmentDeltas(DEPARTMENT_BUCKETS, sql`delta`)}`,
  );
}

/** One cell's change to its department's, date's and skill's sum and count of scores. */
export interface SkillDelta {
  /** Employee code. */
  e: string;
  /** Date. */
  d: string;
  /** Skill code. */
  s: string;
  /** Points added (negative: taken away). */
  p: number;
  /** Scores added: 1 for a new one, -1 for a cleared one, 0 for a changed one. */
  n: number;
}

/**
 * Pure: what a row's upserted and cleared cells add to the skill days, from the cells as they
 * were (`before`, scored cells only). Unchanged cells add nothing.
 */
export function skillDeltas(
  day: EmployeeDay,
  before: ReadonlyMap<string, number>,
  upserts: readonly { skillCode: string; points: number }[],
  clears: readonly string[],
): SkillDelta[] {
  const deltas: SkillDelta[] = [];
  const at = (skill: string, p: number, n: number) => {
    if (p !== 0 || n !== 0) deltas.push({ e: day.employeeCode, d: day.date, s: skill, p, n });
  };
  for (const u of upserts) {
    const old = before.get(u.skillCode);
    at(u.skillCode, u.points - (old ?? 0), old === undefined ? 1 : 0);
  }
  for (const skill of clears) {
    const old = before.get(skill);
    if (old !== undefined) at(skill, -old, -1);
  }
  return deltas;
}

/** Where a saved cell lies, in every way a skill summary may key it. */
interface CellPlace {
  departmentCode: string;
  employeeId: number;
  date: string;
  month: string;
  skillCode: string;
  skillId: number;
}

/**
 * A key column of a skill summary, declared once: its name and type, its value for a saved cell
 * (what a save adds to), and its expression over the scores joined to their performance `p`,
 * employee `e` and skill `k` (what the rebuild groups by).
 */
interface SkillKey {
  column: string;
  type: KeyType;
  ofCell: (c: CellPlace) => string | number;
  ofScores: string;
}

const DEPARTMENT: SkillKey = {
  column: 'department_code',
  type: 'text',
  ofCell: (c) => c.departmentCode,
  ofScores: 'e.department_code',
};
const DAY: SkillKey = { column: 'date', type: 'date', ofCell: (c) => c.date, ofScores: 'p.date' };
const MONTH: SkillKey = {
  column: 'month',
  type: 'date',
  ofCell: (c) => c.month,
  ofScores: "date_trunc('month', p.date)::date",
};
const SKILL: SkillKey = {
  column: 'skill_code',
  type: 'text',
  ofCell: (c) => c.skillCode,
  ofScores: 'ps.skill_code',
};
const EMPLOYEE_ID: SkillKey = {
  column: 'employee_id',
  type: 'bigint',
  ofCell: (c) => c.employeeId,
  ofScores: 'e.id',
};
const SKILL_ID: SkillKey = { column: 'skill_id', type: 'bigint', ofCell: (c) => c.skillId, ofScores: 'k.id' };

type SkillTable =
  | 'performance_skill_days'
  | 'performance_department_skill_months'
  | 'performance_overall_skill_days'
  | 'performance_overall_skill_months'
  | 'performance_skill_months';

/**
 * A skill summary: the sum and number of scores per key, a row left without scores deleted.
 * Its declaration gives both what a save adds (`skillRollupChanges`) and the rebuild
 * (`rebuildSkillRollups`).
 */
interface SkillSummary extends Rollup {
  table: SkillTable;
  from: readonly SkillKey[];
}

const skillSummary = (table: SkillTable, from: readonly SkillKey[]): SkillSummary => ({
  table,
  from,
  keys: from.map((k) => [k.column, k.type] as const),
  sums: [
    ['points_sum', 'int'],
    ['scored', 'int'],
  ],
  emptiedBy: 'scored',
});

/**
 * Every skill summary, in the order a save writes them, which the department moves and
 * deletions of triggers.ts take too: per department and date, per department and month, the
 * same over every department, then per employee and month.
 */
const SKILL_SUMMARIES: readonly SkillSummary[] = [
  skillSummary('performance_skill_days', [DEPARTMENT, DAY, SKILL]),
  skillSummary('performance_department_skill_months', [DEPARTMENT, MONTH, SKILL]),
  skillSummary('performance_overall_skill_days', [DAY, SKILL]),
  skillSummary('performance_overall_skill_months', [MONTH, SKILL]),
  skillSummary('performance_skill_months', [EMPLOYEE_ID, MONTH, SKILL_ID]),
];

/** One row's change to a rollup: its key values, in the rollup's key order, and what to add. */
export interface RollupChange {
  key: readonly (string | number)[];
  points: number;
  scored: number;
}

/** What the save knows of its (locked) employees and of the skills. */
export interface SkillRollupRefs {
  employees: ReadonlyMap<string, { id: number; departmentCode: string }>;
  skills: ReadonlyMap<string, number>;
}

/**
 * Pure: a save's cell deltas summed per row of each skill rollup, in key order, without the rows
 * they leave unchanged. A batch of 1,000 employees x 20 skills on one date is 240 rows of the
 * department rollups (12 departments) and 20,000 of the employees' months.
 */
export function skillRollupChanges(
  deltas: readonly SkillDelta[],
  refs: SkillRollupRefs,
): Record<SkillTable, RollupChange[]> {
  const sums = new Map<SkillTable, Map<string, RollupChange>>(
    SKILL_SUMMARIES.map((r) => [r.table, new Map()]),
  );
  for (const d of deltas) {
    const employee = refs.employees.get(d.e);
    const skill = refs.skills.get(d.s);
    if (!employee || skill === undefined)
      throw new Error(`A saved cell names an unknown employee or skill: ${d.e} ${d.s}`);
    const place: CellPlace = {
      departmentCode: employee.departmentCode,
      employeeId: employee.id,
      date: d.d,
      month: monthStart(d.d),
      skillCode: d.s,
      skillId: skill,
    };
    for (const summary of SKILL_SUMMARIES) {
      const key = summary.from.map((k) => k.ofCell(place));
      const rows = sums.get(summary.table) as Map<string, RollupChange>;
      const known = rows.get(key.join('|'));
      if (known) {
        known.points += d.p;
        known.scored += d.n;
      } else rows.set(key.join('|'), { key, points: d.p, scored: d.n });
    }
  }
  const ordered = (m: Map<string, RollupChange>) =>
    [...m.values()].filter((c) => c.points !== 0 || c.scored !== 0).sort((a, b) => compareKeys(a.key, b.key));
  return Object.fromEntries([...sums].map(([table, m]) => [table, ordered(m)])) as Record<
    SkillTable,
    RollupChange[]
  >;
}

/** Key order as PostgreSQL sorts these keys: numbers as numbers, codes and ISO dates byte by byte. */
function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** A PostgreSQL array literal of codes, ISO dates or integers, quoted so that any text is one element. */
const arrayLiteral = (values: readonly (string | number)[]) =>
  `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/**
 * Adds the changes (key values and sums, in the rollup's column order) to a rollup in one upsert,
 * written in key order, the order the department moves of triggers.ts write in
 * too, so that no two writers wait for each other in a cycle; a row left empty is deleted by a
 * second statement (the first cannot see its own upserts). The rows go as one array per column:
 * 20,000 of them parse in a few milliseconds.
 */
async function addToRollup(
  db: Executor,
  rollup: Rollup,
  changes: readonly { key: readonly (string | number)[]; sums: readonly (string | number)[] }[],
) {
  if (!changes.length) return;
  const names = rollup.keys.map(([column]) => column);
  const keys = sql.raw(names.join(', '));
  const array = (type: KeyType, values: (string | number)[]) =>
    sql`${arrayLiteral(values)}::${sql.raw(type)}[]`;
  const columns = [
    ...rollup.keys.map(([, type], i) =>
      array(
        type,
        changes.map((c) => c.key[i] as string | number),
      ),
    ),
    ...rollup.sums.map(([, type], i) =>
      array(
        type,
        changes.map((c) => c.sums[i] as string | number),
      ),
    ),
  ];
  const sums = rollup.sums.map(([column]) => column);
  const upsert = sql`
    insert into ${sql.raw(rollup.table)} as k (${keys}, ${sql.raw(sums.join(', '))})
    select * from unnest(${sql.join(columns, sql`, `)})
    on conflict (${keys}) do update
      set ${sql.raw(sums.map((c) => `${c} = k.${c} + excluded.${c}`).join(', '))}`;
  const emptiedBy = rollup.emptiedBy;
  if (!emptiedBy) {
    await db.execute(upsert);
    return;
  }
  const emptied = await rowsOf<Record<string, string>>(
    db,
    sql`
    with up as (${upsert}
      returning ${sql.raw(names.map((k) => `k.${k}::text`).join(', '))}, k.${sql.raw(emptiedBy)} as left_over
    )
    select ${keys} from up where left_over = 0`,
  );
  if (!emptied.length) return;
  const matches = rollup.keys.map(([k, type]) => `k.${k} = x.${k}::${type}`);
  await db.execute(sql`
    delete from ${sql.raw(rollup.table)} k
    using jsonb_to_recordset(${jsonParam(emptied)}) as x(${sql.raw(names.map((k) => `${k} text`).join(', '))})
    where ${sql.raw(matches.join(' and '))} and k.${sql.raw(emptiedBy)} = 0`);
}

/**
 * Adds a save's cell changes to the skill rollups: `performance_skill_days` and
 * `performance_department_skill_months` under each employee's department (the save has locked its
 * employees, so none moves meanwhile), the same over every department
 * (`performance_overall_skill_days` and `_months`), then `performance_skill_months` under the
 * employee: in the order the department moves and deletions of triggers.ts take them.
 */
export async function refreshSkillRollups(
  db: Executor,
  deltas: readonly SkillDelta[],
  refs: SkillRollupRefs,
) {
  const changes = skillRollupChanges(deltas, refs);
  for (const summary of SKILL_SUMMARIES) {
    await addToRollup(
      db,
      summary,
      changes[summary.table].map((c) => ({ key: c.key, sums: [c.points, c.scored] })),
    );
  }
}

/**
 * Every skill rollup recomputed from the scores alone: per department and date, per department and
 * month, per date and per month over every department, per employee and month.
 */
async function rebuildSkillRollups(db: Executor) {
  for (const summary of SKILL_SUMMARIES) {
    const columns = summary.from.map((k) => k.column).join(', ');
    const positions = summary.from.map((_, i) => i + 1).join(', ');
    await db.execute(sql`delete from ${sql.raw(summary.table)}`);
    await db.execute(sql`
      insert into ${sql.raw(summary.table)} (${sql.raw(columns)}, points_sum, scored)
      select ${sql.raw(summary.from.map((k) => k.ofScores).join(', '))}, sum(ps.points)::int, count(ps.points)::int
      from performance_scores ps
      join performances p on p.performance_code = ps.performance_code
      join employees e on e.employee_code = p.employee_code
      join skills k on k.skill_code = ps.skill_code
      where ps.points is not null
      group by ${sql.raw(positions)}
      order by ${sql.raw(positions)}`);
  }
}

/**
 * Recomputes every rollup from the scores alone. For loaders that write scores directly (demo
 * data, benchmark data) rather than through a save: run it once after loading. Rewriting every
 * row scatters them, so `performances` is then put back in date order and `performance_months`
 * in month order, which is how a date's grid reads them (its rows, and every employee's rollup of
 * the month before) and about how saves leave them, since a month's rows are written during that
 * month; that takes an exclusive lock for the duration.
 */
export async function rebuildPerformanceRollups(db: Executor) {
  await db.execute(sql`
    update performances p set daily_average = s.average
    from (
      select p2.performance_code,
        sum(ps.points)::numeric(36, 30) / nullif(count(ps.points), 0) as average
      from performances p2 left join performance_scores ps on ps.performance_code = p2.performance_code
      group by p2.performance_code
    ) s
    where p.performance_code = s.performance_code and p.daily_average is distinct from s.average`);
  await db.execute(sql`delete from performance_months`);
  await db.execute(sql`delete from performance_month_days`);
  await refreshMonths(
    db,
    sql`select distinct employee_code, date_trunc('month', date)::date as month,
        date_trunc('month', date)::date as from_date
        from performances`,
  );
  const everyYear = sql`select distinct employee_code, date_trunc('year', date)::date as year,
      date_trunc('year', date)::date as from_date
      from performances`;
  await refreshYears(db, everyYear);
  for (const table of [
    'performance_department_days',
    'performance_department_months',
    'performance_bucket_changes',
    'performance_department_buckets',
    'performance_department_bucket_months',
  ]) {
    await db.execute(sql`delete from ${sql.raw(table)}`);
  }
  await db.execute(sql`
    insert into performance_department_days (department_code, date, daily_sum, days)
    select e.department_code, p.date, sum(p.daily_average), count(p.daily_average)::int
    from performances p join employees e on e.employee_code = p.employee_code
    where p.daily_average is not null
    group by 1, 2
    order by 1, 2`);
  await db.execute(monthsFromDays(DEPARTMENT_DAYS));
  await addDepartmentDeltas(db, DEPARTMENT_BUCKETS, await refreshBuckets(db, everyYear));
  await rebuildSkillRollups(db);
  await db.execute(sql`cluster performances using performances_date`);
  await db.execute(sql`cluster performance_months using performance_months_month`);
  await db.execute(
    sql`analyze performances, performance_months, performance_month_days, performance_skill_days, performance_department_skill_months,
        performance_skill_months, performance_department_days, performance_department_months,
        performance_bucket_changes, performance_department_buckets, performance_department_bucket_months,
        performance_overall_skill_days, performance_overall_skill_months`,
  );
}
