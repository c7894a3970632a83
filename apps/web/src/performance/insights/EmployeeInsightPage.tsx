import Box from '@mui/material/Box';
import { PERFORMANCE_INSIGHT_MESSAGES } from '@wfc/contract';
import { useMemo } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { failureOf } from '../../api/retry';
import { OnlyMine } from '../../self-service/OnlyMine';
import { formatDate } from '../../ui/dates';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { PanelsSkeleton } from '../../ui/Skeletons';
import { LoadingOverlay } from '../../ui/TablePager';
import { todayIso } from '../query';
import { useTrend } from './api';
import { RangeControls } from './RangeControls';
import { readRange } from './ranges';
import { TrendCharts } from './TrendCharts';

// Where the tests and older imports have always found it.
export { dailySeries } from './TrendCharts';

/**
 * Pure: where Back goes, and the history state it hands on: the screen that opened this one (an
 * employee's view screen), else the grid.
 */
export function backOf(state: unknown): { to: string; state?: unknown } {
  const { back, backState } = (state ?? {}) as { back?: unknown; backState?: unknown };
  // A path of this app only: '//host' would leave it.
  return typeof back === 'string' && back.startsWith('/') && !back.startsWith('//')
    ? { to: back, state: backState }
    : { to: '/performance-snapshot' };
}

/**
 * One employee's insight; a role that sees only its own scores is refused anyone else's here, in
 * place of the server's 'Employee not found'.
 */
export default function EmployeeInsightPage() {
  const { employeeCode = '' } = useParams();
  return (
    <OnlyMine permission="VIEW_PERFORMANCES" employeeCode={employeeCode}>
      <EmployeeInsight employeeCode={employeeCode} />
    </OnlyMine>
  );
}

/** One employee's scores over time: daily and monthly averages, and each skill's average. */
function EmployeeInsight({ employeeCode }: { employeeCode: string }) {
  const location = useLocation();
  const back = backOf(location.state);
  const today = useMemo(() => todayIso(), []);
  const [params, setParams] = useSearchParams();
  const range = readRange(params, today);
  const trend = useTrend(employeeCode, range);

  if (trend.error || !trend.data?.data) {
    return (
      <Box>
        <ScreenHeader title="Performance insight" back={back.to} backState={back.state} />
        {trend.error ? (
          <RequestError {...failureOf(trend, PERFORMANCE_INSIGHT_MESSAGES.failedTrend)} />
        ) : (
          <PanelsSkeleton label="Loading performance insight" panels={2} />
        )}
      </Box>
    );
  }
  const data = trend.data.data;
  const { employee } = data;
  return (
    <Box>
      <ScreenHeader
        title={employee.name}
        subtitle={`${employee.employeeId} · ${employee.department.name} · ${formatDate(data.from)} to ${formatDate(data.to)}`}
        back={back.to}
        backState={back.state}
      />
      <Box sx={{ mb: 2 }}>
        <RangeControls
          range={range}
          today={today}
          onChange={(next) =>
            // The history state keeps Back pointing where it did.
            setParams(new URLSearchParams({ from: next.from, to: next.to }), { state: location.state })
          }
        />
      </Box>
      <Box sx={{ position: 'relative' }}>
        <TrendCharts trend={data} />
        {trend.isFetching && <LoadingOverlay label="Loading performance insight" zIndex={3} />}
      </Box>
    </Box>
  );
}
