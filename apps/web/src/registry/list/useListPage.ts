import type { ResourceDef } from '@wfc/contract';
import { startTransition, useMemo, useState } from 'react';
import { useLastRealPage, useUrlTableState } from '../../ui/tableState/useUrlTableState';
import { type SubListContext, useListQuery } from '../queries';
import { DEFAULT_TABLE_QUERY, listUrl, type TableQuery } from './listQuery';
import { rememberedRowsPerPage, rememberRowsPerPage } from './rowsPerPage';

/**
 * A list screen's page: the table query read from the URL (so Back, a reload or a shared link
 * shows the same page, sort and filter) and that page of rows from the server.
 */
export function useListPage(def: ResourceDef, subList?: SubListContext, parentCode = '') {
  const listName = subList ? subList.sub.endpoint : def.endpoints.list;
  const [defaultLimit, setDefaultLimit] = useState(
    () => rememberedRowsPerPage(listName) ?? DEFAULT_TABLE_QUERY.limit,
  );
  const table = useUrlTableState(useMemo(() => listUrl(def, defaultLimit), [def, defaultLimit]));
  const { query } = table;
  // One transition for both: the router commits the address as a transition, and a default
  // applied ahead of it would render the old page's rows under the new rows-per-page's range.
  const setQuery = (next: TableQuery) =>
    startTransition(() => {
      if (next.limit !== query.limit) {
        rememberRowsPerPage(listName, next.limit);
        setDefaultLimit(next.limit);
      }
      table.setQuery(next);
    });
  const list = useListQuery(def, query, subList, parentCode);
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? rows.length;
  useLastRealPage(table, list.data && { rows: rows.length, total });

  return { query, setQuery, list, rows, total };
}
