import { z } from 'zod';

export const ROWS_PER_PAGE_OPTIONS = [10, 15, 20, 25, 30] as const;
export const MAX_LIMIT = 100;
export const SELECTOR_PAGE_SIZE = 100;
/** Keeps the row offset, (page - 1) * limit, an exact integer that SQL accepts. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_LIMIT);

export interface ListQuery {
  keyword: string;
  sortField: string;
  sortValue: 'asc' | 'desc';
  page: number;
  limit: number;
  projection: boolean;
  populate: boolean;
}

/** One page of a list as a screen asks for it: the part of the query the user chooses. */
export type PageQuery = Pick<ListQuery, 'keyword' | 'sortField' | 'sortValue' | 'page' | 'limit'>;

type Raw = Record<string, unknown> | null | undefined;

const str = (v: unknown): string => (Array.isArray(v) ? str(v[0]) : typeof v === 'string' ? v : '');

function int(v: unknown): number {
  const n = Number.parseInt(str(v), 10);
  return Number.isFinite(n) ? n : 0;
}

function bool(v: unknown): boolean {
  const s = str(v).trim().toLowerCase();
  return !(s === 'false' || s === '0');
}

/**
 * The lists' normalisation (docs/product.md section 3): empty keyword -> '', empty sortField -> '_id',
 * any sortValue other than 'asc' -> 'desc', page < 1 -> 1, limit < 1 -> 10 and above 100 -> 100;
 * projection and populate default to true. Never throws: a bad value is normalised, and only an
 * unknown sortField is refused later, against the list's whitelist.
 */
export function normaliseListQuery(raw: Raw, defaults: Partial<ListQuery> = {}): ListQuery {
  const q = raw ?? {};
  const keyword = str(q.keyword).trim().slice(0, 200);
  const sortField = str(q.sortField).trim() || defaults.sortField || '_id';
  const rawSort = str(q.sortValue).trim().toLowerCase();
  const sortValue: 'asc' | 'desc' = rawSort
    ? rawSort === 'asc'
      ? 'asc'
      : 'desc'
    : (defaults.sortValue ?? 'desc');
  const page = Math.min(MAX_PAGE, Math.max(1, int(q.page)));
  const askedLimit = int(q.limit);
  const limit = askedLimit < 1 ? (defaults.limit ?? 10) : Math.min(MAX_LIMIT, askedLimit);
  return {
    keyword,
    sortField,
    sortValue,
    page,
    limit,
    projection: q.projection === undefined ? true : bool(q.projection),
    populate: q.populate === undefined ? true : bool(q.populate),
  };
}

/** A query parameter as the server's parser gives it: repeated keys arrive as a list. */
const param = z.union([z.string(), z.array(z.string())]).optional();

/** A list request's query once parsed: the normalised paging, sort and keyword, and the flags it turned on. */
export interface ParsedListQuery extends ListQuery {
  flags: ReadonlySet<string>;
}

/**
 * The list query parameters, parsed once per request into their normalised form. `flags` are the
 * list's own switches (`assignable`), on when given with any value but 'false' or '0', as
 * `populate` is read.
 */
export function listQuerySchema(opts: { defaults?: Partial<ListQuery>; flags?: readonly string[] } = {}) {
  const flags = opts.flags ?? [];
  return z
    .object({
      keyword: param,
      sortField: param,
      sortValue: param,
      page: param,
      limit: param,
      projection: param,
      populate: param,
      ...Object.fromEntries(flags.map((f) => [f, param])),
    })
    .transform((raw): ParsedListQuery => {
      const given = new Map(Object.entries(raw));
      return {
        ...normaliseListQuery(raw, opts.defaults),
        flags: new Set(flags.filter((f) => given.get(f) !== undefined && bool(given.get(f)))),
      };
    });
}
