import type { ResourceDef } from '@wfc/contract';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { lastPage } from '../ui/paging';
import { readTableQuery, type TableQuery, writeTableQuery } from './listQuery';
import { type SubListContext, useListQuery } from './queries';

/**
 * A list screen's page: the table query read from the URL (so Back, a reload or a shared link
 * shows the same page, sort and filter) and that page of rows from the server.
 */
export function useListPage(def: ResourceDef, subList?: SubListContext, parentCode = '') {
  const [params, setParams] = useSearchParams();
  const query = readTableQuery(params, def.sortFields);
  const setQuery = (next: TableQuery) => setParams(writeTableQuery(next));
  const list = useListQuery(def, query, subList, parentCode);
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? rows.length;

  // After a delete empties the last page (or a stale link names a page past the end), show the last real one.
  const pastEnd = list.data !== undefined && rows.length === 0 && query.page > lastPage(total, query.limit);
  useEffect(() => {
    if (pastEnd)
      setParams(writeTableQuery({ ...query, page: lastPage(total, query.limit) }), { replace: true });
  }, [pastEnd, query, total, setParams]);

  return { query, setQuery, list, rows, total };
}
