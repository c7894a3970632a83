import { sql } from 'drizzle-orm';
import type { Executor } from '../../../src/db/client.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import {
  averagesOf,
  type BaseRow,
  type DateGridQuery,
  dateOrder,
  employeeWhere,
  personOrder,
} from '../../../src/performance/grid/read.ts';

/*
 * The plain computation of a date's rows that the server's reads are checked against: every
 * matching employee's averages in one statement, sorted, then paged, without the server's
 * shortcuts (a sort by an average computing that average alone, one document per page).
 */

/**
 * One row per matching employee for one date, computed from the rollups. Sorting by name or id
 * pages the employees first, so only a page's averages are computed; sorting by an average
 * computes every matching employee's.
 */
export async function gridRows(db: Executor, q: DateGridQuery): Promise<BaseRow[]> {
  const byPerson = q.sortField === 'name' || q.sortField === 'employeeId';
  const paging = q.page ? sql`limit ${q.page.limit} offset ${q.page.offset}` : sql``;
  const emp = sql`
    select e.id, e.employee_code, e.employee_id, e.name, count(*) over () as total
    from employees e
    where ${employeeWhere(q.filter)}
    ${byPerson ? sql`order by ${personOrder(q)} ${paging}` : sql``}`;
  return rowsOf<BaseRow>(
    db,
    sql`select "performanceCode", version, "employeeCode", "employeeId", "employeeName", date, daily, monthly, yearly, total
        from (${averagesOf(q.date, emp)}) r
        order by ${dateOrder(q, sql`r`)} ${byPerson ? sql`` : paging}`,
  );
}
