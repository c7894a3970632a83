import type { ResourceDef } from '@wfc/contract';
import {
  pageParams,
  readPage,
  type SortRule,
  searchParams,
  type TablePage,
  type TableUrl,
  tableDefaults,
  type UrlParam,
} from '../../ui/tableState/tableUrl';

/** A page of a list as the screen asks for it, with the values of the list's own filters. */
export interface TableQuery extends TablePage {
  /** By query parameter; only filters given a value. */
  filters: Readonly<Record<string, string>>;
}

/** What a list's address depends on: the sort fields and filters its definition offers. */
type ListShape = Pick<ResourceDef, 'sortFields' | 'filters'>;

/** Every list opens newest first, by creation order, which is not among a definition's sort fields. */
const sortOf = (def: ListShape): SortRule<string> => ({
  fields: def.sortFields,
  field: '_id',
  value: 'desc',
});

/**
 * A list's address: the page part, then each of the definition's filters by its own parameter.
 * `limit` is the rows per page an address without one shows (this browser's remembered count).
 */
export function listUrl(def: ListShape, limit?: number): TableUrl<TableQuery> {
  const sort = sortOf(def);
  return {
    read: (params) => ({
      ...readPage(params, sort, limit),
      filters: Object.fromEntries(
        def.filters.flatMap((f) => {
          const value = params.get(f.param)?.trim();
          return value ? [[f.param, value]] : [];
        }),
      ),
    }),
    write: (query) =>
      searchParams([
        ...pageParams(query, sort),
        ...Object.entries(query.filters).map(([param, value]): UrlParam => [param, value, '']),
      ]),
  };
}

export const DEFAULT_TABLE_QUERY: TableQuery = tableDefaults(listUrl({ sortFields: [], filters: [] }));

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
