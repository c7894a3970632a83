import Box from '@mui/material/Box';
import { PERFORMANCE_INSIGHT_MESSAGES, type TrendRange } from '@wfc/contract';
import { failureOf } from '../api/retry';
import { useTrend } from '../performance/insights/api';
import { RangeControls } from '../performance/insights/RangeControls';
import { TrendCharts } from '../performance/insights/TrendCharts';
import { RequestError } from '../ui/RequestError';
import { PanelsSkeleton } from '../ui/Skeletons';
import { LoadingOverlay } from '../ui/TablePager';

interface Props {
  employeeCode: string;
  range: TrendRange;
  today: string;
  onRange(range: TrendRange): void;
}

/** The employee insight's range, charts and tables, for the signed-in employee. */
export function MyTrend({ employeeCode, range, today, onRange }: Props) {
  const trend = useTrend(employeeCode, range);
  const data = trend.data?.data;
  return (
    <>
      <Box sx={{ mb: 2 }}>
        <RangeControls range={range} today={today} onChange={onRange} />
      </Box>
      {trend.error ? (
        <RequestError {...failureOf(trend, PERFORMANCE_INSIGHT_MESSAGES.failedTrend)} />
      ) : !data ? (
        <PanelsSkeleton label="Loading your trend" panels={2} />
      ) : (
        <Box sx={{ position: 'relative' }}>
          <TrendCharts trend={data} />
          {trend.isFetching && <LoadingOverlay label="Loading your trend" zIndex={3} />}
        </Box>
      )}
    </>
  );
}
