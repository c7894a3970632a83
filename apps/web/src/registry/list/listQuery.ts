import { type ListFilterDef, type PageQuery, ROWS_PER_PAGE_OPTIONS } from '@wfc/contract';

/** A page of a list as the screen asks for it, with the values of the list's own filters. */
export interface TableQuery extends PageQuery {
  /** By query parameter; only filters given a value. */
  filters: Readonly<Record<string, string>>;
}

export const DEFAULT_TABLE_QUERY: TableQuery = {
  keyword: '',
  sortField: '_id',
  sortValue: 'desc',
  page: 1,
  limit: ROWS_PER_PAGE_OPTIONS[0],
  filters: {},
};

const isRowsPerPage = (n: number) => (ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(n);

/**
 * The table query lives in the URL so that Back from a record, a reload or a shared link shows the
 * same page, sort and filter. Anything unknown falls back to the default.
 */
export function readTableQuery(
  params: URLSearchParams,
  sortFields: readonly string[],
  filterDefs: readonly ListFilterDef[] = [],
  defaultLimit: number = DEFAULT_TABLE_QUERY.limit,
): TableQuery {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const limit = Number.parseInt(params.get('limit') ?? '', 10);
  const sortField = params.get('sortField') ?? '';
  return {
    keyword: params.get('keyword') ?? '',
    sortField: sortFields.includes(sortField) ? sortField : DEFAULT_TABLE_QUERY.sortField,
    sortValue: params.get('sortValue') === 'asc' ? 'asc' : 'desc',
    page: Number.isFinite(page) && page >= 1 ? page : DEFAULT_TABLE_QUERY.page,
    limit: isRowsPerPage(limit) ? limit : defaultLimit,
    filters: Object.fromEntries(
      filterDefs.flatMap((f) => {
        const value = params.get(f.param)?.trim();
        return value ? [[f.param, value]] : [];
      }),
    ),
  };
}

/** Only values that differ from the default are written, so a fresh list keeps a clean URL. */
export function writeTableQuery(query: TableQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['keyword', 'sortField', 'sortValue', 'page', 'limit'] as const) {
    if (query[key] !== DEFAULT_TABLE_QUERY[key]) params.set(key, String(query[key]));
  }
  for (const [param, value] of Object.entries(query.filters)) if (value) params.set(param, value);
  return params;
}

/** The list call's query parameters: the page, and each filter as a parameter of its own. */
export const listParams = ({ filters, ...page }: TableQuery): Record<string, string | number> => ({
  ...page,
  ...filters,
});

/** A filter changed: the list starts again from its first page. */
export const withFilters = (query: TableQuery, filters: Record<string, string>): TableQuery => ({
  ...query,
  filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== '')),
  page: 1,
});

/** The current sort header toggles its direction; another header starts ascending. */
export function nextSort(query: TableQuery, sortField: string): TableQuery {
  const sortValue = query.sortField === sortField && query.sortValue === 'asc' ? 'desc' : 'asc';
  return { ...query, sortField, sortValue, page: 1 };
}

export const withKeyword = (query: TableQuery, keyword: string): TableQuery => ({
  ...query,
  keyword: keyword.trim(),
  page: 1,
});
