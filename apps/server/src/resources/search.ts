import { SEARCH_ENDPOINT, type SearchResult, searchAnswerSchema, searchRequestSchema } from '@wfc/contract';
import { and, eq, is, or, sql } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { ScopedCaller } from '../auth/scopes.ts';
import { escapeLike } from '../db/like.ts';
import { rowsOf } from '../db/rows.ts';
import { type ApiRoute, defineRoute, sessionAccess } from '../http/routes.ts';
import { shapeColumn } from './list-query.ts';
import { reach } from './read.ts';
import type { ServerResource } from './server-resource.ts';

/** A module as the search reads it: its name column, then the other identifiers it matches. */
interface Searched {
  res: ServerResource;
  name: PgColumn;
  more: PgColumn[];
}

/** The table's own columns that `searchFields` names; a definition naming anything else fails to load. */
function searched(res: ServerResource): Searched[] {
  const columns = res.searchFields.map((path) => {
    const col = shapeColumn(res.shape, path);
    if (!is(col, PgColumn) || col.table !== res.table) {
      throw new Error(`${res.def.label}: search field ${path} is not a column of its table`);
    }
    return col;
  });
  const [name, ...more] = columns;
  return name ? [{ res, name, more }] : [];
}

/**
 * One module's best matches, as far as the caller's VIEW permission reaches (the condition every
 * list of theirs carries). The code is matched whole, through its unique index; the other columns
 * by pattern, through their trigram indexes. Names starting with the keyword come first.
 */
function moduleMatches(m: Searched, index: number, caller: ScopedCaller, keyword: string, limit: number) {
  const { res } = m;
  const { where } = reach(res, caller, [res.def.permissions.view]);
  const pattern = `%${escapeLike(keyword)}%`;
  const matches = or(
    eq(res.codeColumn, keyword.toUpperCase()),
    ...[m.name, ...m.more].map((col) => sql`${col} ilike ${pattern}`),
  );
  const detail = m.more.length ? sql`concat_ws(' · ', ${sql.join(m.more, sql`, `)})` : sql`null`;
  return sql`(select ${index}::int as m, ${res.def.key}::text as resource, ${res.codeColumn} as code, ${m.name} as name, ${detail}::text as detail
    from ${res.table} where ${and(where, matches)}
    order by ${m.name} not ilike ${`${escapeLike(keyword)}%`}, ${m.name}, ${res.idColumn} limit ${limit})`;
}

interface MatchRow {
  m: number;
  resource: string;
  code: string;
  name: string;
  detail: string | null;
}

/**
 * `POST Search`: records of every module the caller may view whose name, code or other identifier
 * (`searchFields`) matches, a few per module. A module the caller may not view is left out, not
 * refused: the search is everyone's.
 */
export function searchRoute(resources: readonly ServerResource[]): ApiRoute {
  const modules = resources.flatMap(searched);
  return defineRoute({
    method: 'POST',
    path: SEARCH_ENDPOINT,
    summary:
      'Records of every module the caller may view whose name, code or other identifier matches the keyword, a few per module',
    tag: 'Search',
    access: sessionAccess,
    changes: false,
    body: searchRequestSchema,
    response: searchAnswerSchema,
    async handler(ctx) {
      const { keyword, limit } = ctx.body;
      const branches = modules.flatMap((m, i) =>
        ctx.session.permissions.has(m.res.def.permissions.view)
          ? [moduleMatches(m, i, ctx.session, keyword, limit)]
          : [],
      );
      const rows = branches.length
        ? await rowsOf<MatchRow>(ctx.services.db, sql.join(branches, sql` union all `))
        : [];
      // Each module's rows keep their order (a stable sort), whatever order the branches come in.
      const results = rows
        .sort((a, b) => a.m - b.m)
        .map(
          (r): SearchResult => ({
            resource: r.resource,
            code: r.code,
            name: r.name,
            ...(r.detail ? { detail: r.detail } : {}),
          }),
        );
      return { message: 'Search results fetched successfully', data: { results } };
    },
  });
}
