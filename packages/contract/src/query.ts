import { z } from 'zod';
import { isoDate } from './fields.ts';
import type { ResourceKey } from './permissions.ts';

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

/**
 * A filter a list offers besides the keyword, as a query parameter of its list call: a record
 * field that `contains` or `equals` the value, or a timestamp on or after (`from`) or on or
 * before (`to`) a date (whole days in UTC).
 */
export interface ListFilterDef<P extends string = string> {
  param: string;
  label: string;
  /** The record field compared: a column path, as in `columns` ('user.username'). */
  path: P;
  match: 'contains' | 'equals' | 'from' | 'to';
  /** Values a screen offers to pick from; any value is accepted (an unknown one matches nothing). */
  choices?: readonly string[];
  /**
   * A reference filter (`equals` on a code): the screen offers the records of this module by
   * name, as its form's selector does.
   */
  source?: ResourceKey;
}

export const FILTER_MAX_LENGTH = 100;

/** A list request's query once parsed: the normalised paging, sort and keyword, the flags it turned on and its filters. */
export interface ParsedListQuery extends ListQuery {
  flags: ReadonlySet<string>;
  /** The filters given a value, by parameter; trimmed. */
  filters: Readonly<Record<string, string>>;
}

const isDateMatch = (f: ListFilterDef) => f.match === 'from' || f.match === 'to';

/**
 * A filter's value, checked: text of at most FILTER_MAX_LENGTH characters, or a real date for
 * `from` and `to`. An empty value is no filter.
 */
function filterValueSchema(f: ListFilterDef) {
  const value = isDateMatch(f)
    ? isoDate(f.label)
    : z.string().trim().max(FILTER_MAX_LENGTH, `${f.label} must be at most ${FILTER_MAX_LENGTH} characters`);
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  return z.preprocess((v) => {
    const given = first(v);
    return typeof given === 'string' && given.trim() === '' ? undefined : given;
  }, value.optional());
}

/** Pure: a `from` after a `to` on the same field can match nothing; said on the `to` filter. */
export function filterRangeErrors(
  filters: readonly ListFilterDef[],
  values: Readonly<Record<string, string | undefined>>,
): { field: string; message: string }[] {
  return filters.flatMap((to) => {
    if (to.match !== 'to') return [];
    const from = filters.find((f) => f.match === 'from' && f.path === to.path);
    const [start, end] = [from && values[from.param], values[to.param]];
    return from && start && end && start > end
      ? [{ field: to.param, message: `${to.label} must not be before ${from.label}` }]
      : [];
  });
}

/**
 * The list query parameters, parsed once per request into their normalised form. `flags` are the
 * list's own switches (`assignable`), on when given with any value but 'false' or '0', as
 * `populate` is read.
 */
export function listQuerySchema(
  opts: { defaults?: Partial<ListQuery>; flags?: readonly string[]; filters?: readonly ListFilterDef[] } = {},
) {
  const flags = opts.flags ?? [];
  const filters = opts.filters ?? [];
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
      ...Object.fromEntries(filters.map((f) => [f.param, filterValueSchema(f)])),
    })
    .superRefine((raw, ctx) => {
      const values = new Map(Object.entries(raw));
      const given = Object.fromEntries(filters.map((f) => [f.param, String(values.get(f.param) ?? '')]));
      for (const issue of filterRangeErrors(filters, given)) {
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
      }
    })
    .transform((raw): ParsedListQuery => {
      const given = new Map(Object.entries(raw));
      return {
        ...normaliseListQuery(raw, opts.defaults),
        flags: new Set(flags.filter((f) => given.get(f) !== undefined && bool(given.get(f)))),
        filters: Object.fromEntries(
          filters.flatMap((f) => {
            const value = given.get(f.param);
            return typeof value === 'string' && value !== '' ? [[f.param, value]] : [];
          }),
        ),
      };
    });
}
