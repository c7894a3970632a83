import { useQuery } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, type PerformanceRow } from '@wfc/contract';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import type { GridQuery } from './query';

/**
 * Every row of the date, department and filter on screen, in the grid's sort, for editing the
 * whole day in one session: the report is the same rows as the pages, unpaged, in one request
 * (the pages stop at 100 rows). Under the grid's key, so a save refreshes it and a stale save's
 * current rows are put into it.
 */
export function useDayRows(query: GridQuery, enabled: boolean) {
  const params = {
    date: query.date,
    keyword: query.keyword || undefined,
    departmentCode: query.departmentCode || undefined,
    sortField: query.sortField,
    sortValue: query.sortValue,
  };
  return useQuery({
    queryKey: [...queryKeys.performance.all, 'day', params] as const,
    queryFn: () => api.get<PerformanceRow[]>(PERFORMANCE_ENDPOINTS.report, params),
    enabled,
    // Another sort keeps the day on screen, drafts and all, until the re-sorted day arrives;
    // another day is not shown in its place, where typing would score the wrong date.
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[2];
      const sameDay =
        before?.date === params.date &&
        before.keyword === params.keyword &&
        before.departmentCode === params.departmentCode;
      return sameDay ? previous : undefined;
    },
  });
}
