import Box from '@mui/material/Box';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { PerformanceTrend } from '@wfc/contract';
import { useMemo } from 'react';
import { formatDate, formatMonth } from '../../ui/dates';
import { ChartPanel } from './ChartPanel';
import { DataTable } from './DataTable';
import { useSeriesColours } from './palette';

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

/** The trend's charts beside their tables; My performance shows them for the signed-in employee. */
export function TrendCharts({ trend }: { trend: PerformanceTrend }) {
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
                // Ticks at midnight only: a range of a few days would otherwise tick every few
                // hours, each labelled with the same date.
                tickInterval: (d: Date) => d.getUTCHours() === 0,
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
