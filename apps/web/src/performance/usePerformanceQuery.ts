import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, type PerformanceRow } from '@wfc/contract';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { lastPage } from '../ui/paging';
import { type GridQuery, readGridQuery, todayIso, writeGridQuery } from './query';

/**
 * The grid's query, kept in the URL so a reload or a shared link shows the same date and page,
 * and that page of the grid from the server. The page on screen stays while the next one loads.
 */
export function usePerformanceQuery() {
  const today = useMemo(() => todayIso(), []);
  const [params, setParams] = useSearchParams();
  const query = readGridQuery(params, today);
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

  // A link past the last page (or a filter that shrank the list) shows the last real page.
  const pastEnd = grid.data !== undefined && rows.length === 0 && query.page > lastPage(total, query.limit);
  useEffect(() => {
    if (pastEnd)
      setParams(writeGridQuery({ ...query, page: lastPage(total, query.limit) }, today), { replace: true });
  }, [pastEnd, query, total, setParams, today]);

  return {
    query,
    setQuery: (next: GridQuery) => setParams(writeGridQuery(next, today)),
    /** Names the rows on screen: it changes exactly when they may be other rows. */
    queryString: params.toString(),
    grid,
    rows,
    total,
    /** The browser's today: later dates are read-only. */
    today,
  };
}
