import Box from '@mui/material/Box';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PERFORMANCE_INSIGHT_MESSAGES, type PerformanceTrend } from '@wfc/contract';
import { useMemo } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { failureOf } from '../../api/retry';
import { formatDate, formatMonth } from '../../ui/dates';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { PanelsSkeleton } from '../../ui/Skeletons';
import { LoadingOverlay } from '../../ui/TablePager';
import { todayIso } from '../query';
import { useTrend } from './api';
import { ChartPanel } from './ChartPanel';
import { DataTable } from './DataTable';
import { useSeriesColours } from './palette';
import { RangeControls } from './RangeControls';
import { readRange } from './ranges';

const SCORE_AXIS = { min: 0, max: 10 } as const;

/** Pure: each scored day with its month's average beside it, the step line drawn over the days. */
export function dailySeries(trend: PerformanceTrend) {
  const months = new Map(trend.months.map((m) => [m.month, m.average]));
  return {
    dates: trend.days.map((d) => new Date(`${d.date}T00:00:00Z`)),
    daily: trend.days.map((d) => d.daily),
    monthly: trend.days.map((d) => months.get(d.date.slice(0, 7)) ?? null),
  };
}

function TrendCharts({ trend }: { trend: PerformanceTrend }) {
  const colours = useSeriesColours();
  const series = useMemo(() => dailySeries(trend), [trend]);
  const scored = trend.skills.some((s) => s.scored > 0);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <ChartPanel
        title="Daily and monthly averages"
        empty={trend.days.length ? undefined : 'No scores in this range'}
        chart={
          <LineChart
            height={300}
            // Room for the last date's label, centred on the plot's right edge.
            margin={{ right: 60 }}
            xAxis={[
              {
                scaleType: 'utc',
                data: series.dates,
                valueFormatter: (d: Date) => formatDate(d.toISOString().slice(0, 10)),
              },
            ]}
            yAxis={[SCORE_AXIS]}
            series={[
              {
                data: series.daily,
                label: 'Daily average',
                color: colours.first,
                showMark: trend.days.length < 40,
              },
              {
                data: series.monthly,
                label: 'Monthly average',
                color: colours.second,
                curve: 'stepAfter',
                showMark: false,
              },
            ]}
            grid={{ horizontal: true }}
          />
        }
        table={
          <Box sx={{ display: 'grid', gap: 2 }}>
            <DataTable
              caption="Monthly averages"
              head={['Month', 'Monthly average']}
              rows={trend.months.map((m) => [formatMonth(m.month), m.average])}
            />
            <DataTable
              caption="Daily averages"
              head={['Date', 'Daily average']}
              rows={trend.days.map((d) => [formatDate(d.date), d.daily])}
              maxHeight={260}
            />
          </Box>
        }
      />
      <ChartPanel
        title="Skill averages"
        empty={scored ? undefined : 'No skill was scored in this range'}
        chart={
          <BarChart
            height={Math.max(220, trend.skills.length * 34 + 60)}
            layout="horizontal"
            yAxis={[{ scaleType: 'band', data: trend.skills.map((s) => s.title), width: 110 }]}
            xAxis={[SCORE_AXIS]}
            series={[
              {
                data: trend.skills.map((s) => s.average),
                label: 'Average score',
                color: colours.first,
              },
            ]}
            grid={{ vertical: true }}
            hideLegend
          />
        }
        table={
          <DataTable
            caption="Skill averages"
            head={['Skill', 'Average', 'Scores']}
            rows={trend.skills.map((s) => [s.title, s.average, s.scored])}
            counts={[2]}
          />
        }
      />
    </Box>
  );
}

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

/** One employee's scores over time: daily and monthly averages, and each skill's average. */
export default function EmployeeInsightPage() {
  const { employeeCode = '' } = useParams();
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
