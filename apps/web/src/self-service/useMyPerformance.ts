import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PERFORMANCE_ENDPOINTS, type PerformanceRow } from '@wfc/contract';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';

export interface HistoryPage {
  page: number;
  limit: number;
}

// Under the performance prefix, so that a save of scores refreshes them like the grid and insights.
const mine = (employeeCode: string, ...rest: (string | number)[]) =>
  [...queryKeys.performance.all, 'mine', employeeCode, ...rest] as const;

/** A page of the employee's saved dates, newest first (the history call's default order). */
export function fetchHistory(employeeCode: string, { page, limit }: HistoryPage) {
  return api.post<PerformanceRow[]>(
    PERFORMANCE_ENDPOINTS.byEmployee,
    { employeeCode },
    { page, limit, sortField: 'date', sortValue: 'desc' },
  );
}

/** One page of the history; the page before stays on screen while the next loads. */
export const useHistory = (employeeCode: string, paging: HistoryPage) =>
  useQuery({
    queryKey: mine(employeeCode, 'history', paging.page, paging.limit),
    queryFn: () => fetchHistory(employeeCode, paging),
    placeholderData: keepPreviousData,
  });

/**
 * The employee's row for `date`: its monthly and yearly averages are the month's and year's up to
 * that day, computed by the server as the grid shows them.
 */
export const useAveragesOn = (employeeCode: string, date: string) =>
  useQuery({
    queryKey: mine(employeeCode, 'day', date),
    queryFn: () =>
      api.post<PerformanceRow[]>(PERFORMANCE_ENDPOINTS.byDateAndEmployees, {
        date,
        employeeCodes: [employeeCode],
      }),
    select: (res) => res.data?.[0]?.total ?? null,
  });
