import type { PerformanceOverview, TrendRange } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import { textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { preparedRowsOf } from '../../db/rows.ts';
import { type DateSpan, type MonthCover, monthCover, monthSplit, monthStart, yearStart } from '../dates.ts';
import { dayJson, meanOf } from '../sql.ts';

/** A trend as the database writes it: its answer's data as JSON text, and whether the employee exists. */
export interface TrendText {
  found: boolean;
  data: string;
}

/**
 * Each skill's sum and count of scores over a range (`skill, points_sum, scored` rows to add up,
 * `skill` being whichever key of the skill the rollups hold): the range's whole months from a
 * monthly rollup, `months(first, last)`, corrected by the days of its part months, `days(span)`,
 * added or taken away as `monthCover` says.
 */
function coveredScores(
  cover: MonthCover,
  months: (first: string, last: string) => SQL,
  days: (span: DateSpan) => SQL,
): SQL {
  const signed = (span: DateSpan, sign: string) =>
    sql`select d.skill, ${sql.raw(sign)}d.points_sum as points_sum, ${sql.raw(sign)}d.scored as scored
        from (${days(span)}) d`;
  const parts = [
    ...(cover.months ? [months(...cover.months)] : []),
    ...cover.add.map((span) => signed(span, '')),
    ...cover.subtract.map((span) => signed(span, '-')),
  ];
  // A range has at least one day, so its cover at least one part.
  return sql.join(parts, sql` union all `);
}

/**
 * One employee's days, months and skills over a range, in one statement that writes the answer's
 * JSON itself, so that the server sends it on as it is. The answer's outer object is joined as
 * text: built as JSON it made PostgreSQL check the 15 KB of a year's days once more (joined as
 * text, the statement ran 1-21 % more times a second under pgbench, 8 % on average). The range's
 * whole months (`monthSplit`) are read from the employee's month rollups: their days already written out
 * (`performance_month_days`), their averages from their totals (`performance_months`); the days
 * of its part months, at most two, from the employee-and-date index, which carries their daily
 * averages. A year is then 12 month rows and about 30 days instead of 365 days made into JSON one
 * by one. A skill's sum and count come from the employee's skill months
 * (`performance_skill_months`) for the months the range covers whole, corrected day by day from
 * the scores at its ends (`monthCover`: at most about a month of days), instead of a year of
 * scores (7,000 rows found through 366 index searches). Every average is exact to two decimals;
 * every month of the range is listed, one without a scored day with a null average.
 */
export async function trendText(db: Executor, employeeCode: string, range: TrendRange): Promise<TrendText> {
  const split = monthSplit(range.from, range.to);
  const inParts = split.parts.length
    ? sql.join(
        split.parts.map(([from, to]) => sql`p.date between ${from}::date and ${to}::date`),
        sql` or `,
      )
    : sql`false`;
  const inWhole = split.months
    ? sql`m.month between ${split.months[0]}::date and ${split.months[1]}::date`
    : sql`false`;
  // Skills by the skill months' own numeric key: a year's 240 rows are summed without a join to
  // the skills each (under pgbench the statement ran 5-15 % more times a second; a request, 1-3 %).
  const scores = coveredScores(
    monthCover(range.from, range.to),
    (first, last) =>
      sql`select m.skill_id as skill, m.points_sum, m.scored
          from performance_skill_months m
          where m.employee_id = (select e.id from employees e where e.employee_code = ${employeeCode})
            and m.month between ${first}::date and ${last}::date`,
    ([from, to]) =>
      sql`select k.id as skill, ps.points as points_sum, 1 as scored
          from performances p join performance_scores ps on ps.performance_code = p.performance_code
          join skills k on k.skill_code = ps.skill_code
          where p.employee_code = ${employeeCode} and p.date between ${from}::date and ${to}::date
            and ps.points is not null`,
  );
  const [row] = await preparedRowsOf<TrendText>(
    db,
    sql`
    with e as (
      select e.employee_code, e.employee_id, e.name, d.department_code, d.name as department_name
      from employees e join departments d on d.department_code = e.department_code
      where e.employee_code = ${employeeCode}
    ),
    part as (
      select p.date, p.daily_average from performances p
      where p.employee_code = ${employeeCode} and p.daily_average is not null and (${inParts})
    ),
    whole as (
      select m.month, m.day_sum, m.day_count, s.days
      from performance_months m
      left join performance_month_days s on s.employee_code = m.employee_code and s.month = m.month
      where m.employee_code = ${employeeCode} and ${inWhole}
    )
    select exists (select 1 from e) as found,
      '{"from":' || to_json(${range.from}::text)::text || ',"to":' || to_json(${range.to}::text)::text
      || ',"employee":' || coalesce((
        select json_build_object('employeeCode', e.employee_code, 'employeeId', e.employee_id, 'name', e.name,
          'department', json_build_object('departmentCode', e.department_code, 'name', e.department_name))::text
        from e), 'null')
      || ',"days":[' || coalesce((
        select string_agg(x.days, ',' order by x.at)
        from (
          select p.date as at, ${dayJson(sql`p.date`, sql`p.daily_average`)} as days from part p
          union all
          select w.month, w.days from whole w where w.days is not null
        ) x), '')
      || '],"months":' || coalesce((
        select json_agg(json_build_object('month', to_char(g.month, 'YYYY-MM'), 'average', a.average) order by g.month)
        from generate_series(${monthStart(range.from)}::date, ${monthStart(range.to)}::date, interval '1 month') g(month)
        left join (
          select w.month, ${meanOf(sql`w.day_sum`, sql`w.day_count`)} as average from whole w
          union all
          select date_trunc('month', p.date)::date, ${meanOf(sql`sum(p.daily_average)`, sql`count(*)`)}
          from part p group by 1
        ) a on a.month = g.month::date)::text, '[]')
      || ',"skills":' || coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title,
            'average', ${meanOf(sql`s.points_sum`, sql`s.scored`)}, 'scored', coalesce(s.scored, 0))
          order by lower(k.title), k.id)
        from skills k left join (
          select x.skill, sum(x.points_sum)::numeric as points_sum, sum(x.scored)::int as scored
          from (${scores}) x
          group by x.skill
        ) s on s.skill = k.id)::text, '[]')
      || '}' as data`,
  );
  if (!row) throw new Error('The trend query returned no row');
  return row;
}

/** `column` is one of `codes`: an equality for one, as the single-department overview always had. */
const oneOf = (column: SQL, codes: readonly string[]) =>
  codes.length === 1 ? sql`${column} = ${codes[0]}` : sql`${column} in (${textSet(codes)})`;

/** An overview as the database writes it: only the buckets that have employees. */
export type OverviewDocument = Omit<PerformanceOverview, 'date' | 'departmentCode' | 'distribution'> & {
  /** Bucket index 0..9 and its number of employees. */
  buckets: [number, number][];
};

/**
 * A date's overview, for every employee or some departments' (one asked, or a manager's), in one statement, from rollups only:
 * nothing here grows with the number of employees but their count per department.
 * - Departments: the sums and counts of their employees' daily averages per date
 *   (`performance_department_days`) and month (`performance_department_months`), over the date,
 *   the month and the year up to it, so that a department's monthly average is the mean of all its
 *   employees' daily averages of the month so far (as an employee's is of theirs).
 * - Distribution: per department, date (month) and bucket, the employees whose yearly average
 *   entered the bucket less those that left it (`performance_department_buckets`,
 *   `performance_department_bucket_months`), summed from 1 January up to the date.
 * Both read the months before the date's whole and its month by day: at most 11 + 31 rows (times
 * ten buckets) per department.
 * - Skills: the mean of the skill's scores from the 1st of the month (1 January) up to the date:
 *   the whole months from their rollup per department, month and skill
 *   (`performance_department_skill_months`, at most 12 x skills rows per department), the days of
 *   a part month from the one per department, date and skill (`performance_skill_days`), where the
 *   scores themselves are that times the department's employees; for everyone, from the same sums
 *   over every department (`performance_overall_skill_months` and `_days`).
 */
export async function overviewDocument(
  db: Executor,
  date: string,
  departments: readonly string[] | undefined,
) {
  const inDepartment = (column: SQL) => (departments ? oneOf(column, departments) : sql`true`);
  // A department rollup's rows for the year so far: the months before the date's from its month
  // table (their date null), the date's month from its day table.
  const monthsAndDays = (columns: SQL, months: string, days: string) =>
    sql`select department_code, null::date as date, ${columns} from ${sql.raw(months)}
        where ${inDepartment(sql`department_code`)}
          and month >= ${yearStart(date)}::date and month < ${monthStart(date)}::date
        union all
        select department_code, date, ${columns} from ${sql.raw(days)}
        where ${inDepartment(sql`department_code`)}
          and date between ${monthStart(date)}::date and ${date}::date`;
  // The mean of a department's daily averages over the days of the year so far that `days` keeps.
  const pooled = (days: SQL) =>
    meanOf(sql`sum(x.daily_sum) filter (where ${days})`, sql`sum(x.days) filter (where ${days})`);
  // The month so far and the year so far, each as whole months of the department months and days.
  // One department's skill sums, or everyone's from the rollups over every department.
  const [skillMonths, skillDays] = departments
    ? [
        sql`performance_department_skill_months m where ${oneOf(sql`m.department_code`, departments)} and`,
        sql`performance_skill_days k where ${oneOf(sql`k.department_code`, departments)} and`,
      ]
    : [sql`performance_overall_skill_months m where`, sql`performance_overall_skill_days k where`];
  const upTo = (from: string) =>
    coveredScores(
      monthCover(from, date),
      (first, last) =>
        sql`select m.skill_code as skill, m.points_sum, m.scored from ${skillMonths} m.month between ${first}::date and ${last}::date`,
      ([a, b]) =>
        sql`select k.skill_code as skill, k.points_sum, k.scored from ${skillDays} k.date between ${a}::date and ${b}::date`,
    );
  const [row] = await preparedRowsOf<{ doc: OverviewDocument }>(
    db,
    sql`
    with staff as (
      select e.department_code, count(*)::int as employees from employees e
      where ${inDepartment(sql`e.department_code`)}
      group by 1
    ),
    dept as (
      select x.department_code,
        ${pooled(sql`x.date = ${date}::date`)} as daily,
        ${pooled(sql`x.date >= ${monthStart(date)}::date`)} as monthly,
        ${pooled(sql`true`)} as yearly
      from (${monthsAndDays(sql`daily_sum, days`, 'performance_department_months', 'performance_department_days')}) x
      group by 1
    ),
    scores as (
      select x.skill,
        sum(x.points_sum) filter (where x.part = 'month')::numeric as month_sum,
        sum(x.scored) filter (where x.part = 'month') as month_scored,
        sum(x.points_sum) filter (where x.part = 'year')::numeric as year_sum,
        sum(x.scored) filter (where x.part = 'year') as year_scored
      from (
        select 'month' as part, m.* from (${upTo(monthStart(date))}) m
        union all
        select 'year' as part, y.* from (${upTo(yearStart(date))}) y
      ) x
      group by x.skill
    )
    select json_build_object(
      'skills', coalesce((
        select json_agg(json_build_object('skillCode', k.skill_code, 'title', k.title,
            'monthly', ${meanOf(sql`s.month_sum`, sql`s.month_scored`)},
            'yearly', ${meanOf(sql`s.year_sum`, sql`s.year_scored`)})
          order by lower(k.title), k.id)
        from skills k left join scores s on s.skill = k.skill_code), '[]'),
      'departments', coalesce((
        select json_agg(json_build_object('departmentCode', d.department_code, 'name', d.name,
            'employees', coalesce(n.employees, 0), 'daily', x.daily, 'monthly', x.monthly, 'yearly', x.yearly)
          order by lower(d.name), d.id)
        from departments d
        left join staff n on n.department_code = d.department_code
        left join dept x on x.department_code = d.department_code
        where ${inDepartment(sql`d.department_code`)}), '[]'),
      'buckets', coalesce((
        select json_agg(json_build_array(b.bucket, b.count))
        from (
          select b.bucket::int as bucket, sum(b.employees)::int as count
          from (${monthsAndDays(sql`bucket, employees`, 'performance_department_bucket_months', 'performance_department_buckets')}) b
          group by 1 having sum(b.employees) <> 0
        ) b), '[]')
    ) as doc`,
  );
  if (!row) throw new Error('The overview query returned no row');
  return row.doc;
}
