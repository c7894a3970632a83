import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, type PerformanceRow } from '@wfc/contract';
import { useMemo } from 'react';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { useLastRealPage, useUrlTableState } from '../ui/tableState/useUrlTableState';
import { gridUrl, todayIso } from './query';

/**
 * The grid's query, kept in the URL so a reload or a shared link shows the same date and page,
 * and that page of the grid from the server. The page on screen stays while the next one loads.
 */
export function usePerformanceQuery() {
  const today = useMemo(() => todayIso(), []);
  const table = useUrlTableState(useMemo(() => gridUrl(today), [today]));
  const { query } = table;
  const grid = useQuery({
    queryKey: queryKeys.performance.grid(query),
    queryFn: () =>
      api.get<PerformanceRow[]>(PERFORMANCE_ENDPOINTS.list, {
        ...query,
        departmentCode: query.departmentCode || undefined,
      }),
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => grid.data?.data ?? [], [grid.data]);
  const total = grid.data?.total ?? rows.length;
  useLastRealPage(table, grid.data && { rows: rows.length, total });

  return {
    query,
    setQuery: table.setQuery,
    queryString: table.queryString,
    grid,
    rows,
    total,
    /** The browser's today: later dates are read-only. */
    today,
  };
}
