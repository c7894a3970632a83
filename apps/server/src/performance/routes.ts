import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type ListQuery,
  localIsoDate,
  normaliseListQuery,
  PERFORMANCE_CSV_FILENAME,
  PERFORMANCE_ENDPOINTS,
  PERFORMANCE_HISTORY_DEFAULTS,
  PERFORMANCE_HISTORY_SORT_FIELDS,
  PERFORMANCE_LIST_DEFAULTS,
  PERFORMANCE_MESSAGES,
  PERFORMANCE_SORT_FIELDS,
  type PerformanceRowInput,
  performanceBatchSchema,
  performanceByCodeSchema,
  performanceDateQuerySchema,
  performancesByDateAndEmployeesSchema,
  performancesByEmployeeSchema,
  readPerformanceBatch,
} from '@wfc/contract';
import { getTableName, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ScopedCaller } from '../auth/scopes.ts';
import type { Executor } from '../db/client.ts';
import { employees, performanceMonths, performanceScores, performances, skills } from '../db/schema/index.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { type ApiRoute, allOf, anyOf, defineRoute } from '../http/routes.ts';
import { csvStream } from './grid/csv.ts';
import { datePage, employeesDay } from './grid/page.ts';
import { type BaseRow, type DateGridQuery, findPerformance, historyRows, withSkills } from './grid/read.ts';
import { insightRoutes } from './insights/insights.ts';
import { assertSaveWithinReach, REACH_READS, reachedEmployees, saveReach, viewReach } from './reach.ts';
import { SAVE_BODY_LIMIT } from './save/batch.ts';
import { savePerformances } from './save/save.ts';

const TAG = 'Performances';
const canView = anyOf('VIEW_PERFORMANCES');
// Saving both creates rows and changes them, so it needs both (docs/product.md section 6).
const canSave = allOf('CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE');

type Raw = Record<string, unknown>;

/** A whitelisted sort field, or a 400 like every other list's. */
function sortFieldOf<T extends string>(query: ListQuery, allowed: readonly T[]): T {
  const field = allowed.find((f) => f === query.sortField);
  if (!field) {
    throw badRequest('Invalid input', [
      { field: 'sortField', message: `Cannot sort by '${query.sortField.slice(0, 50)}'` },
    ]);
  }
  return field;
}

const dateOr = (date: string | undefined) => date ?? localIsoDate(new Date());

/** The grid's, the report's and the CSV's query, its date and department checked. */
type DateQuery = z.output<typeof performanceDateQuerySchema>;

function gridQuery(raw: DateQuery, paged: boolean, within: SQL | undefined): DateGridQuery {
  const query = normaliseListQuery(raw, PERFORMANCE_LIST_DEFAULTS);
  return {
    date: dateOr(raw.date),
    filter: { kind: 'keyword', keyword: query.keyword, departmentCode: raw.departmentCode, within },
    sortField: sortFieldOf(query, PERFORMANCE_SORT_FIELDS),
    sortValue: query.sortValue,
    ...(paged ? { page: { limit: query.limit, offset: (query.page - 1) * query.limit } } : {}),
  };
}

/** Every matching row the caller reaches, unpaged: the report and its CSV. */
const reportOf = (db: Executor, raw: DateQuery, caller: ScopedCaller) =>
  datePage(db, gridQuery(raw, false, viewReach(caller).within));

async function reportHandler(db: Executor, raw: DateQuery, caller: ScopedCaller) {
  const { rows } = await reportOf(db, raw, caller);
  return { message: PERFORMANCE_MESSAGES.report, data: rows, total: rows.length };
}

const totalOf = (rows: readonly BaseRow[]) => rows[0]?.total ?? 0;

/** The rows of a bulk save, or a 400 with everything that makes it invalid. */
async function readRows(values: readonly unknown[]): Promise<PerformanceRowInput[]> {
  const { rows, errors } = await readPerformanceBatch(values, nextTurn);
  if (errors.length) throw badRequest('Invalid input', errors);
  return rows;
}

/**
 * Every table a page of a date's grid reads, whichever way it is sorted: a page is kept
 * (`services.cache`) until one of them changes. Reports are not kept: they are large and rare.
 */
const PAGE_READS = [
  ...[performances, performanceMonths, performanceScores, employees, skills].map((t) => getTableName(t)),
  ...REACH_READS,
];

export const performanceRoutes: ApiRoute[] = [
  defineRoute({
    method: 'GET',
    path: PERFORMANCE_ENDPOINTS.list,
    summary: 'The grid for one date: a page of employees with their scores and averages',
    tag: TAG,
    access: canView,
    query: performanceDateQuerySchema,
    async handler(ctx) {
      const { cache, db } = ctx.services;
      const reach = viewReach(ctx.session);
      const q = gridQuery(ctx.query, true, reach.within);
      // The key names the reach and the query without its condition, which is no plain value.
      const key = { ...q, filter: { ...q.filter, within: null } };
      const { rows, total } = await cache.get(['performances', reach.key, key], PAGE_READS, () =>
        datePage(db, q),
      );
      return { message: PERFORMANCE_MESSAGES.listed, data: rows, total };
    },
  }),
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_ENDPOINTS.save,
    summary: 'Creates and updates many rows at once: all are saved or none',
    tag: TAG,
    access: canSave,
    bodyLimit: SAVE_BODY_LIMIT,
    body: performanceBatchSchema,
    async handler(ctx) {
      const rows = await readRows(ctx.body.performances);
      const reach = saveReach(ctx.session);
      const saved = await ctx.services.db.transaction(async (tx) => {
        await assertSaveWithinReach(
          tx,
          rows.map((r) => r.employeeCode),
          reach,
        );
        return savePerformances(tx, rows, ctx.actor);
      });
      return { message: PERFORMANCE_MESSAGES.saved, data: saved, total: saved.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_ENDPOINTS.byCode,
    changes: false,
    summary: 'One saved row with its averages as of its date',
    tag: TAG,
    access: canView,
    body: performanceByCodeSchema,
    async handler(ctx) {
      const db = ctx.services.db;
      const found = await findPerformance(db, ctx.body.performanceCode);
      // A row beyond reach is not found, in the words of one that does not exist.
      const reached =
        found && (await reachedEmployees(db, [found.employeeCode], viewReach(ctx.session).within));
      if (!found || !reached?.has(found.employeeCode)) throw notFound(PERFORMANCE_MESSAGES.notFound);
      const [row] = await employeesDay(db, found.date, [found.employeeCode]);
      return { message: PERFORMANCE_MESSAGES.fetched, data: row };
    },
  }),
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_ENDPOINTS.byDateAndEmployees,
    changes: false,
    summary: 'The rows of some employees for one date',
    tag: TAG,
    access: canView,
    body: performancesByDateAndEmployeesSchema,
    async handler(ctx) {
      const db = ctx.services.db;
      const codes = ctx.body.employeeCodes;
      // An employee beyond reach is unknown, in the words of one that does not exist.
      const known = await reachedEmployees(db, codes, viewReach(ctx.session).within);
      const errors = codes.flatMap((code, i) =>
        known.has(code)
          ? []
          : [{ field: `employeeCodes.${i}`, message: PERFORMANCE_MESSAGES.employeeNotFound }],
      );
      if (errors.length) throw badRequest('Invalid input', errors);
      const rows = await employeesDay(db, dateOr(ctx.body.date), codes);
      return { message: PERFORMANCE_MESSAGES.listed, data: rows, total: rows.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_ENDPOINTS.byEmployee,
    changes: false,
    summary: "One employee's saved dates (paged, sorted by date or an average, keyword over the date)",
    tag: TAG,
    access: canView,
    body: performancesByEmployeeSchema,
    async handler(ctx) {
      const db = ctx.services.db;
      const employeeCode = ctx.body.employeeCode;
      const reached = await reachedEmployees(db, [employeeCode], viewReach(ctx.session).within);
      if (!reached.has(employeeCode)) throw notFound(PERFORMANCE_MESSAGES.employeeNotFound);
      const query = normaliseListQuery(ctx.req.query as Raw, PERFORMANCE_HISTORY_DEFAULTS);
      const sortField = sortFieldOf(query, PERFORMANCE_HISTORY_SORT_FIELDS);
      const first = { employeeCode, keyword: query.keyword, sortField, sortValue: query.sortValue };
      const offset = (query.page - 1) * query.limit;
      const base = await historyRows(db, { ...first, limit: query.limit, offset });
      // Past the last page the window count has no row to ride on; ask for it alone.
      const total =
        base.length || offset === 0
          ? totalOf(base)
          : totalOf(await historyRows(db, { ...first, limit: 1, offset: 0 }));
      return { message: PERFORMANCE_MESSAGES.listed, data: await withSkills(db, base), total };
    },
  }),
  defineRoute({
    method: 'GET',
    path: PERFORMANCE_ENDPOINTS.report,
    summary: 'Every matching row for one date, unpaged',
    tag: TAG,
    access: canView,
    query: performanceDateQuerySchema,
    handler: (ctx) => reportHandler(ctx.services.db, ctx.query, ctx.session),
  }),
  defineRoute({
    method: 'POST',
    path: PERFORMANCE_ENDPOINTS.report,
    // Only reads: nothing for the answer to wait for.
    changes: false,
    summary: 'Every matching row for one date, unpaged',
    tag: TAG,
    access: canView,
    body: performanceDateQuerySchema,
    handler: (ctx) => reportHandler(ctx.services.db, ctx.body, ctx.session),
  }),
  defineRoute({
    method: 'GET',
    path: PERFORMANCE_ENDPOINTS.exportCsv,
    summary: `${PERFORMANCE_CSV_FILENAME}: every matching row for one date, in the grid's columns`,
    tag: TAG,
    access: canView,
    query: performanceDateQuerySchema,
    produces: 'text/csv',
    async handler(ctx) {
      // The header and the rows come with one skill list, so their columns cannot disagree.
      const { skills: columns, rows } = await reportOf(ctx.services.db, ctx.query, ctx.session);
      await ctx.reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${PERFORMANCE_CSV_FILENAME}"`)
        .header('Cache-Control', 'no-store')
        .send(csvStream(columns, rows));
      return undefined;
    },
  }),
  ...insightRoutes,
];
