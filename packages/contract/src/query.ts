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
 * SPEC.md section 5 normalisation: empty keyword -> '', empty sortField -> '_id', any sortValue
 * other than 'asc' -> 'desc', page < 1 -> 1, limit < 1 -> 10; projection and populate default to
 * true. DECISIONS.md adds the clamp of limit to 100. Never throws: a bad value is normalised, and
 * only an unknown sortField is refused later, against the list's whitelist.
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

export const listQuerySchema = z.object({
  keyword: z.string().optional(),
  sortField: z.string().optional(),
  sortValue: z.string().optional(),
  page: z.coerce.number().optional(),
  limit: z.coerce.number().optional(),
  projection: z.string().optional(),
  populate: z.string().optional(),
});
