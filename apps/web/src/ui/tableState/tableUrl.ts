import { type PageQuery, ROWS_PER_PAGE_OPTIONS } from '@wfc/contract';

/*
 * A table's state lives in the URL's search params, so Back from a record, a reload or a shared
 * link shows the same page, sort and filter. Every table has the page part below; a screen adds its
 * own parameters around it and declares its sort. Anything unknown in an address falls back to the
 * screen's default.
 */

type SortValue = PageQuery['sortValue'];

/** The keyword, sort and page of a table, its sort field one the screen accepts. */
export interface TablePage<S extends string = string> extends PageQuery {
  sortField: S;
}

/** A screen's sort: the fields it accepts, and the order an address without a sort shows. */
export interface SortRule<S extends string> {
  fields: readonly S[];
  field: NoInfer<S>;
  value: SortValue;
}

/** How a screen's table state and its URL search params turn into each other. */
export interface TableUrl<Q> {
  read(params: URLSearchParams): Q;
  write(query: Q): URLSearchParams;
}

/** One URL parameter as a table writes it: name, value, and the value a bare address stands for. */
export type UrlParam = readonly [name: string, value: string | number, omitted: string | number];

const FEWEST_ROWS = ROWS_PER_PAGE_OPTIONS[0];

/**
 * The page part of an address. Without a valid `limit` it shows `limit` rows: a list passes the count
 * this browser remembers for it.
 */
export function readPage<S extends string>(
  params: URLSearchParams,
  sort: SortRule<S>,
  limit: number = FEWEST_ROWS,
): TablePage<S> {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const askedLimit = Number.parseInt(params.get('limit') ?? '', 10);
  const sortValue = params.get('sortValue');
  return {
    keyword: params.get('keyword') ?? '',
    sortField: sort.fields.find((f) => f === params.get('sortField')) ?? sort.field,
    sortValue: sortValue === 'asc' || sortValue === 'desc' ? sortValue : sort.value,
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    limit: ROWS_PER_PAGE_OPTIONS.find((n) => n === askedLimit) ?? limit,
  };
}

/**
 * The page part's parameters, in the order addresses have always had them. A remembered rows per
 * page is still written: the link then shows the same rows to someone whose browser remembers another.
 */
export const pageParams = <S extends string>(query: TablePage<S>, sort: SortRule<S>): UrlParam[] => [
  ['keyword', query.keyword, ''],
  ['sortField', query.sortField, sort.field],
  ['sortValue', query.sortValue, sort.value],
  ['page', query.page, 1],
  ['limit', query.limit, FEWEST_ROWS],
];

/** Only what differs from a bare address is written, so a fresh table keeps a clean URL. */
export function searchParams(params: readonly UrlParam[]): URLSearchParams {
  const written = new URLSearchParams();
  for (const [name, value, omitted] of params) if (value !== omitted) written.set(name, String(value));
  return written;
}

/** A table's defaults are what a bare address reads as. */
export const tableDefaults = <Q>(url: TableUrl<Q>): Q => url.read(new URLSearchParams());

/** The current sort header toggles its direction; another header starts ascending. */
export function nextSort<Q extends TablePage>(query: Q, sortField: Q['sortField']): Q {
  const sortValue = query.sortField === sortField && query.sortValue === 'asc' ? 'desc' : 'asc';
  return { ...query, sortField, sortValue, page: 1 };
}

/** Another keyword starts again from the first page: the current one may be past the new end. */
export const withKeyword = <Q extends PageQuery>(query: Q, keyword: string): Q => ({
  ...query,
  keyword: keyword.trim(),
  page: 1,
});
