import {
  DISTRIBUTION_BUCKETS,
  localIsoDate,
  PERFORMANCE_INSIGHT_ENDPOINTS,
  PERFORMANCE_INSIGHT_MESSAGES,
  PERFORMANCE_MESSAGES,
  type PerformanceDepartment,
  type PerformanceOverview,
  performanceDepartmentData,
  performanceOverviewData,
  performanceOverviewQuerySchema,
  performanceTrendData,
  performanceTrendSchema,
  trendRange,
} from '@wfc/contract';
import { getTableName, sql } from 'drizzle-orm';
import { managedDepartmentCodes, type ScopedCaller } from '../../auth/scopes.ts';
import { textSet } from '../../db/arrays.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  departments,
  employees,
  performanceDepartmentBucketMonths,
  performanceDepartmentBuckets,
  performanceDepartmentDays,
  performanceDepartmentMonths,
  performanceDepartmentSkillMonths,
  performanceMonthDays,
  performanceMonths,
  performanceOverallSkillDays,
  performanceOverallSkillMonths,
  performanceScores,
  performanceSkillDays,
  performanceSkillMonths,
  performances,
  skills,
} from '../../db/schema/index.ts';
import { ApiError, badRequest, notFound } from '../../http/envelope.ts';
import { type ApiRoute, anyOf, defineRoute, JsonText } from '../../http/routes.ts';
import { reachedEmployees, viewReach } from '../reach.ts';
import { type OverviewDocument, overviewDocument, trendText } from './insights-sql.ts';

const TAG = 'Performances';
const canView = anyOf('VIEW_PERFORMANCES');

/**
 * Every table a trend or an overview reads: an answer is kept (`services.cache`) until one of them
 * changes, so a chart opened again, or by several people, costs no SQL until the next save.
 */
const TREND_READS = [
  performances,
  performanceMonths,
  performanceMonthDays,
  performanceScores,
  performanceSkillMonths,
  employees,
  skills,
  departments,
].map((t) => getTableName(t));
const OVERVIEW_READS = [
  performanceDepartmentDays,
  performanceDepartmentMonths,
  performanceDepartmentBuckets,
  performanceDepartmentBucketMonths,
  performanceOverallSkillDays,
  performanceOverallSkillMonths,
  performanceSkillDays,
  performanceDepartmentSkillMonths,
  employees,
  skills,
  departments,
].map((t) => getTableName(t));

/**
 * The departments an overview covers, undefined for everyone's: the one asked, or every managed
 * one for a team's scores. Whoever sees only their own scores sees no overview: it is made of
 * whole departments' averages.
 */
async function overviewDepartments(db: Executor, caller: ScopedCaller, asked: string | undefined) {
  const scope = viewReach(caller).scope;
  if (scope === 'own')
    throw new ApiError(403, 'The overview shows whole departments: you can see only your own scores');
  if (scope === 'all') return asked === undefined ? undefined : [asked];
  const managed = await managedDepartmentCodes(db, caller.userCode);
  if (asked === undefined) return managed;
  // A department beyond reach answers as one without scores would not: refused, naming nothing.
  if (!managed.includes(asked))
    throw new ApiError(403, 'You can see the overview of your own team’s departments only');
  return [asked];
}

/** Pure: the ten buckets in order, empty ones counted as 0. */
export function fillBuckets(buckets: OverviewDocument['buckets']): PerformanceOverview['distribution'] {
  const counts = new Map(buckets);
  return DISTRIBUTION_BUCKETS.map((bucket, i) => ({ bucket, count: counts.get(i) ?? 0 }));
}

export const insightRoutes: ApiRoute[] = [
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_INSIGHT_ENDPOINTS.trend,
    changes: false,
    summary:
      "One employee's daily averages, monthly averages and skill averages over a range of at most 366 days (default: the last 90)",
    tag: TAG,
    access: canView,
    body: performanceTrendSchema,
    response: performanceTrendData,
    answers: { 404: 'No employee has this code' },
    async handler(ctx) {
      const { employeeCode, from, to } = ctx.body;
      const range = trendRange({ from, to }, localIsoDate(new Date()));
      if ('message' in range) throw badRequest('Invalid input', [range]);
      const { cache, db } = ctx.services;
      // Someone beyond reach is not found, in the words of someone who does not exist.
      const reached = await reachedEmployees(db, [employeeCode], viewReach(ctx.session).within);
      if (!reached.has(employeeCode)) throw notFound(PERFORMANCE_MESSAGES.employeeNotFound);
      const trend = await cache.get(['performance-trend', employeeCode, range], TREND_READS, () =>
        trendText(db, employeeCode, range),
      );
      if (!trend.found) throw notFound(PERFORMANCE_MESSAGES.employeeNotFound);
      return { message: PERFORMANCE_INSIGHT_MESSAGES.trend, data: new JsonText(trend.data) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: PERFORMANCE_INSIGHT_ENDPOINTS.overview,
    summary:
      "A date's skill averages (month and year up to the date), department averages and the distribution of the employees' yearly averages",
    tag: TAG,
    access: canView,
    query: performanceOverviewQuerySchema,
    response: performanceOverviewData,
    async handler(ctx) {
      const date = ctx.query.date ?? localIsoDate(new Date());
      const departmentCode = ctx.query.departmentCode ?? null;
      const { cache, db } = ctx.services;
      const covered = await overviewDepartments(db, ctx.session, ctx.query.departmentCode);
      const doc = await cache.get(['performance-overview', date, covered ?? null], OVERVIEW_READS, () =>
        overviewDocument(db, date, covered),
      );
      const data: PerformanceOverview = {
        date,
        departmentCode,
        skills: doc.skills,
        departments: doc.departments,
        distribution: fillBuckets(doc.buckets),
      };
      return { message: PERFORMANCE_INSIGHT_MESSAGES.overview, data };
    },
  }),
  defineRoute({
    method: 'GET',
    path: PERFORMANCE_INSIGHT_ENDPOINTS.departments,
    summary: "Every department's code and name, for the Performance Snapshot's department filters",
    tag: TAG,
    access: canView,
    response: performanceDepartmentData,
    listed: true,
    async handler(ctx) {
      const { cache, db } = ctx.services;
      const scope = viewReach(ctx.session).scope;
      // The departments the caller's scores cover: every one, the managed ones, or none for
      // whoever sees only their own.
      const only =
        scope === 'all'
          ? undefined
          : scope === 'team'
            ? await managedDepartmentCodes(db, ctx.session.userCode)
            : [];
      // Kept until a department changes: every screen of the snapshot asks for them.
      const data = await cache.get(
        ['performance-departments', only ?? null],
        [getTableName(departments)],
        () =>
          rowsOf<PerformanceDepartment>(
            db,
            sql`select department_code as "departmentCode", name from departments
              where ${only ? sql`department_code in (${textSet(only)})` : sql`true`}
              order by lower(name), id`,
          ),
      );
      return { message: PERFORMANCE_INSIGHT_MESSAGES.departments, data, total: data.length };
    },
  }),
];
