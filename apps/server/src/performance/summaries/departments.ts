import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { DEPARTMENT_DAYS, type DepartmentRollup } from './declarations.ts';
import { addToRollup, compareKeys } from './upsert.ts';

/** A difference to a department rollup, as text, at the day level or the month level. */
export interface DepartmentDelta {
  level: 'day' | 'month';
  key: string[];
  sums: string[];
}

/**
 * A select of `source`'s differences (department_code, date, the rollup's extra keys and sums)
 * summed per row of the day table and per row of the month table, as `DepartmentDelta`s. Sums stay
 * exact: they go to Node and back as text.
 */
export function departmentDeltas(rollup: DepartmentRollup, source: SQL): SQL {
  const extra = rollup.days.keys.slice(2).map(([column]) => `x.${column}`);
  const sums = rollup.days.measures.map(([column]) => `sum(x.${column})`);
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
  const sums = rollup.days.measures.map(([column, type]) => ({ column, total: `sum(${column})::${type}` }));
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
export async function addDepartmentDeltas(
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
 * The department days recomputed from the daily averages, then their months from them, into
 * tables the rebuild has emptied.
 */
export async function rebuildDepartmentDays(db: Executor) {
  await db.execute(sql`
    insert into performance_department_days (department_code, date, daily_sum, days)
    select e.department_code, p.date, sum(p.daily_average), count(p.daily_average)::int
    from performances p join employees e on e.employee_code = p.employee_code
    where p.daily_average is not null
    group by 1, 2
    order by 1, 2`);
  await db.execute(monthsFromDays(DEPARTMENT_DAYS));
}
