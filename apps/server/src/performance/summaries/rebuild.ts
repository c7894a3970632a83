import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshBuckets } from './buckets.ts';
import { DEPARTMENT_BUCKETS, SUMMARY_TABLES } from './declarations.ts';
import { addDepartmentDeltas, rebuildDepartmentDays } from './departments.ts';
import { refreshMonths, refreshYears } from './running-sums.ts';
import { rebuildSkillRollups } from './skills.ts';

/**
 * Recomputes every rollup from the scores alone. For loaders that write scores directly (demo
 * data, benchmark data) rather than through a save: run it once after loading. Every summary
 * table is emptied first, so none can keep a row the scores no longer give. Rewriting every
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
  for (const summary of SUMMARY_TABLES) await db.execute(sql`delete from ${sql.raw(summary.table)}`);
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
  await rebuildDepartmentDays(db);
  await addDepartmentDeltas(db, DEPARTMENT_BUCKETS, await refreshBuckets(db, everyYear));
  await rebuildSkillRollups(db);
  await db.execute(sql`cluster performances using performances_date`);
  await db.execute(sql`cluster performance_months using performance_months_month`);
  const analyzed = ['performances', ...SUMMARY_TABLES.map((s) => s.table)];
  await db.execute(sql`analyze ${sql.raw(analyzed.join(', '))}`);
}
