/**
 * The previous formulation of the list SQL (before issue 32), kept for the benchmark and the
 * equivalence test only: a keyword over a referenced record's name was written as
 * `ref = any(array(select code from referenced where name ilike p))` inside the keyword's OR, and
 * the total counted the listed table under the same condition. The planner cannot estimate the
 * init-plan's array, so it scanned the whole listed table for a selective keyword.
 *
 * It runs the same steps as the engine's list function did (the few values' skip scans, the
 * page, `attach`, the total only for a full or empty page), so its statements are what the
 * server sent for the same request.
 */
import type { ListQuery, ParsedListQuery } from '@wfc/contract';
import { and, asc, count, desc, getTableColumns, inArray, is, type SQL, sql } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../src/db/client.ts';
import { escapeLike } from '../../src/db/like.ts';
import { ApiError } from '../../src/http/envelope.ts';
import {
  filterCondition,
  isNested,
  lookupShape,
  shapeColumn,
  unpopulated,
} from '../../src/resources/list-query.ts';
import { fetchRecords, matchingValues } from '../../src/resources/read.ts';
import type { ServerResource } from '../../src/resources/server-resource.ts';

const isCodeKey = (key: string) => key.endsWith('Code');

function keywordThroughReference(res: ServerResource, path: string, pattern: string): SQL | undefined {
  const [head = '', tail] = path.split('.', 2);
  const group = res.shape[head];
  if (tail === undefined || !group || !isNested(group)) return undefined;
  const searched = group[tail];
  const own = getTableColumns(res.table);
  const key = Object.keys(group).find((k) => isCodeKey(k) && own[k]);
  const code = key ? group[key] : undefined;
  if (!key || !is(searched, PgColumn) || !is(code, PgColumn)) return undefined;
  if (searched.table !== code.table || code.table === res.table) return undefined;
  return sql`${own[key]} = any(array(select ${code} from ${code.table} where ${searched} ilike ${pattern}))`;
}

interface PreviousOptions {
  matching?: ReadonlyMap<string, readonly string[]>;
  lookup?: boolean;
}

function previousPrepare(res: ServerResource, query: ListQuery, opts: PreviousOptions) {
  const sortFields = opts.lookup ? [res.def.nameField] : res.def.sortFields;
  const searchPaths = opts.lookup ? [res.def.nameField] : res.search;
  const dir = query.sortValue === 'asc' ? asc : desc;
  let orderBy: SQL[];
  if (query.sortField === '_id') {
    orderBy = [dir(res.idColumn)];
  } else {
    const col = sortFields.includes(query.sortField) ? shapeColumn(res.shape, query.sortField) : undefined;
    if (!col) throw new ApiError(400, 'Invalid input', [{ field: 'sortField', message: 'unknown' }]);
    orderBy = [dir(col as PgColumn), dir(res.idColumn)];
  }
  let keyword: SQL | undefined;
  let keywordOnTable = true;
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword)}%`;
    const parts = searchPaths.flatMap((p) => {
      const col = shapeColumn(res.shape, p);
      if (!col) throw new Error(`Unknown search path ${p}`);
      const values = opts.matching?.get(p);
      if (values) return values.length ? [inArray(col as PgColumn, [...values])] : [];
      if (is(col, PgColumn) && col.table === res.table) return sql`${col} ilike ${pattern}`;
      const through = keywordThroughReference(res, p, pattern);
      if (through) return through;
      keywordOnTable = false;
      return sql`${col} ilike ${pattern}`;
    });
    keyword = parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
  }
  return { orderBy, keyword, keywordOnTable };
}

async function previousCount(db: Executor, res: ServerResource, where: SQL | undefined, withJoins: boolean) {
  let q = db.select({ n: count() }).from(res.table).$dynamic();
  if (withJoins) {
    for (const j of res.joins) q = j.optional ? q.leftJoin(j.table, j.on) : q.innerJoin(j.table, j.on);
  }
  if (where) q = q.where(where);
  const [r] = await q;
  return Number(r?.n ?? 0);
}

export interface PreviousListRequest {
  query: ParsedListQuery;
  /** The selector view (codes and names), as a caller without the list's VIEW permission gets it. */
  lookup?: boolean;
  /** A sub-list's condition on its parent. */
  parent?: SQL;
}

/** A page and its total as the previous formulation computed them (no query cache). */
export async function previousList(db: Executor, res: ServerResource, req: PreviousListRequest) {
  const { query, lookup = false } = req;
  const matching = query.keyword && !lookup ? await matchingValues(db, res, query.keyword) : undefined;
  const { orderBy, keyword, keywordOnTable } = previousPrepare(res, query, { lookup, matching });
  const shape = lookup ? lookupShape(res) : query.populate ? res.shape : unpopulated(res.shape);
  const filtered = lookup ? undefined : filterCondition(res, res.def.filters, query.filters);
  const where = and(req.parent, keyword, filtered);
  const offset = (query.page - 1) * query.limit;
  const { records } = await fetchRecords(db, res, {
    shape,
    where,
    orderBy,
    limit: query.limit,
    offset,
    present: !lookup,
  });
  if (!lookup && res.attach) await res.attach(db, records, { populate: query.populate });
  const total =
    records.length > 0 && records.length < query.limit
      ? offset + records.length
      : records.length === 0 && offset === 0
        ? 0
        : await previousCount(db, res, where, !keywordOnTable);
  return { records, total };
}
