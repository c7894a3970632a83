import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  PERFORMANCE_INSIGHT_ENDPOINTS,
  type PerformanceDepartment,
  type PerformanceOverview,
  type PerformanceTrend,
  type TrendRange,
} from '@wfc/contract';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** One employee's trend over a range; the previous range stays on screen while the next loads. */
export const useTrend = (employeeCode: string, range: TrendRange) =>
  useQuery({
    queryKey: queryKeys.performance.trend(employeeCode, range.from, range.to),
    queryFn: () =>
      api.post<PerformanceTrend>(PERFORMANCE_INSIGHT_ENDPOINTS.trend, { employeeCode, ...range }),
    placeholderData: keepPreviousData,
  });

/** A date's overview, for every department ('') or one. */
export const useOverview = (date: string, departmentCode: string) =>
  useQuery({
    queryKey: queryKeys.performance.overview(date, departmentCode),
    queryFn: () =>
      api.get<PerformanceOverview>(PERFORMANCE_INSIGHT_ENDPOINTS.overview, {
        date,
        ...(departmentCode ? { departmentCode } : {}),
      }),
    placeholderData: keepPreviousData,
  });

/** The department filters' options. */
export const useDepartments = () =>
  useQuery({
    queryKey: queryKeys.performance.departments,
    queryFn: () => api.get<PerformanceDepartment[]>(PERFORMANCE_INSIGHT_ENDPOINTS.departments),
    staleTime: 60_000,
  });
