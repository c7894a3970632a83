import type { ResourceDef } from '@wfc/contract';
import { startTransition, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { lastPage } from '../../ui/paging';
import { type SubListContext, useListQuery } from '../queries';
import { DEFAULT_TABLE_QUERY, readTableQuery, type TableQuery, writeTableQuery } from './listQuery';
import { rememberedRowsPerPage, rememberRowsPerPage } from './rowsPerPage';

/**
 * A list screen's page: the table query read from the URL (so Back, a reload or a shared link
 * shows the same page, sort and filter) and that page of rows from the server.
 */
export function useListPage(def: ResourceDef, subList?: SubListContext, parentCode = '') {
  const [params, setParams] = useSearchParams();
  const listName = subList ? subList.sub.endpoint : def.endpoints.list;
  const [defaultLimit, setDefaultLimit] = useState(
    () => rememberedRowsPerPage(listName) ?? DEFAULT_TABLE_QUERY.limit,
  );
  const query = readTableQuery(params, def.sortFields, def.filters, defaultLimit);
  // One transition for both: the router commits the address as a transition, and a default
  // applied ahead of it would render the old page's rows under the new rows-per-page's range.
  const setQuery = (next: TableQuery) =>
    startTransition(() => {
      if (next.limit !== query.limit) {
        rememberRowsPerPage(listName, next.limit);
        setDefaultLimit(next.limit);
      }
      setParams(writeTableQuery(next));
    });
  const list = useListQuery(def, query, subList, parentCode);
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? rows.length;

  // After a delete empties the last page (or a stale link names a page past the end), show the last real one.
  const pastEnd = list.data !== undefined && rows.length === 0 && query.page > lastPage(total, query.limit);
  useEffect(() => {
    if (pastEnd)
      setParams(writeTableQuery({ ...query, page: lastPage(total, query.limit) }), {
        replace: true,
      });
  }, [pastEnd, query, total, setParams]);

  return { query, setQuery, list, rows, total };
}
