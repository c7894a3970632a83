import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { BarChart } from '@mui/x-charts/BarChart';
import { PERFORMANCE_INSIGHT_MESSAGES, type PerformanceOverview } from '@wfc/contract';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { failureOf } from '../../api/retry';
import { formatDate } from '../../ui/dates';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { PanelsSkeleton } from '../../ui/Skeletons';
import { LoadingOverlay } from '../../ui/TablePager';
import { DepartmentSelect } from '../DepartmentSelect';
import { isIsoDate, todayIso } from '../query';
import { useOverview } from './api';
import { ChartPanel } from './ChartPanel';
import { DataTable } from './DataTable';
import { useSeriesColours } from './palette';

const SCORE_AXIS = { min: 0, max: 10 } as const;

function OverviewCharts({ overview }: { overview: PerformanceOverview }) {
  const colours = useSeriesColours();
  const skillsScored = overview.skills.some((s) => s.yearly !== null);
  const departmentsScored = overview.departments.some((d) => d.yearly !== null);
  const counted = overview.distribution.reduce((n, b) => n + b.count, 0);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <ChartPanel
        title="Skill averages"
        empty={skillsScored ? undefined : 'No skill was scored this year up to this date'}
        chart={
          <BarChart
            height={Math.max(240, overview.skills.length * 44 + 70)}
            layout="horizontal"
            yAxis={[{ scaleType: 'band', data: overview.skills.map((s) => s.title), width: 110 }]}
            xAxis={[SCORE_AXIS]}
            series={[
              {
                data: overview.skills.map((s) => s.monthly),
                label: 'This month',
                color: colours.first,
              },
              {
                data: overview.skills.map((s) => s.yearly),
                label: 'This year',
                color: colours.second,
              },
            ]}
            grid={{ vertical: true }}
          />
        }
        table={
          <DataTable
            caption="Skill averages"
            head={['Skill', 'This month', 'This year']}
            rows={overview.skills.map((s) => [s.title, s.monthly, s.yearly])}
          />
        }
      />
      <ChartPanel
        title="Departments"
        empty={departmentsScored ? undefined : 'No department has scores this year up to this date'}
        chart={
          <BarChart
            height={300}
            xAxis={[{ scaleType: 'band', data: overview.departments.map((d) => d.name) }]}
            yAxis={[SCORE_AXIS]}
            series={[
              { data: overview.departments.map((d) => d.daily), label: 'Daily', color: colours.first },
              {
                data: overview.departments.map((d) => d.monthly),
                label: 'Monthly',
                color: colours.second,
              },
              {
                data: overview.departments.map((d) => d.yearly),
                label: 'Yearly',
                color: colours.third,
              },
            ]}
            grid={{ horizontal: true }}
          />
        }
        table={
          <DataTable
            caption="Department averages"
            head={['Department', 'Employees', 'Daily', 'Monthly', 'Yearly']}
            rows={overview.departments.map((d) => [d.name, d.employees, d.daily, d.monthly, d.yearly])}
            counts={[1]}
          />
        }
      />
      <ChartPanel
        title="Distribution of yearly averages"
        empty={counted ? undefined : 'No employee has a yearly average on this date'}
        chart={
          <BarChart
            height={280}
            xAxis={[
              {
                scaleType: 'band',
                data: overview.distribution.map((b) => b.bucket),
                label: 'Yearly average',
              },
            ]}
            yAxis={[{ label: 'Employees', tickMinStep: 1 }]}
            series={[
              {
                data: overview.distribution.map((b) => b.count),
                label: 'Employees',
                color: colours.first,
              },
            ]}
            grid={{ horizontal: true }}
            hideLegend
          />
        }
        table={
          <DataTable
            caption="Employees by yearly average"
            head={['Yearly average', 'Employees']}
            rows={overview.distribution.map((b) => [b.bucket, b.count])}
            counts={[1]}
          />
        }
      />
    </Box>
  );
}

/** The Performance Snapshot at a glance for a date: skills, departments and how the year is spread. */
export default function OverviewPage() {
  const today = useMemo(() => todayIso(), []);
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const date = isIsoDate(asked) ? asked : today;
  const departmentCode = params.get('departmentCode') ?? '';
  const overview = useOverview(date, departmentCode);
  const [dateText, setDateText] = useState(date);
  useEffect(() => setDateText(date), [date]);

  const go = (next: { date: string; departmentCode: string }) => {
    const search = new URLSearchParams();
    if (next.date !== today) search.set('date', next.date);
    if (next.departmentCode) search.set('departmentCode', next.departmentCode);
    setParams(search);
  };

  return (
    <Box>
      <ScreenHeader
        title="Performance Overview"
        subtitle={`Averages for ${formatDate(date)}: the month and the year up to this date`}
        back="/performance-snapshot"
        actions={
          <Button component={RouterLink} to="/performance-snapshot" variant="outlined">
            Open the grid
          </Button>
        }
      />
      <Box
        component="form"
        role="search"
        aria-label="Overview filter"
        onSubmit={(e) => {
          e.preventDefault();
          if (isIsoDate(dateText)) go({ date: dateText, departmentCode });
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start', mb: 2 }}
      >
        <TextField
          size="small"
          type="date"
          label="Date"
          value={dateText}
          onChange={(e) => setDateText(e.target.value)}
          error={!isIsoDate(dateText)}
          helperText={isIsoDate(dateText) ? undefined : 'Choose a date'}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: { xs: '1 1 100%', sm: '0 0 12rem' } }}
        />
        <Button type="submit" variant="outlined" disabled={!isIsoDate(dateText)} sx={{ minHeight: 40 }}>
          Show date
        </Button>
        <DepartmentSelect
          value={departmentCode}
          onChange={(code) => go({ date, departmentCode: code })}
          sx={{ flex: { xs: '1 1 100%', sm: '0 0 16rem' } }}
        />
      </Box>
      {overview.error ? (
        <RequestError {...failureOf(overview, PERFORMANCE_INSIGHT_MESSAGES.failedOverview)} />
      ) : overview.data?.data ? (
        <Box sx={{ position: 'relative' }}>
          <OverviewCharts overview={overview.data.data} />
          {overview.isFetching && <LoadingOverlay label="Loading overview" zIndex={3} />}
        </Box>
      ) : (
        <PanelsSkeleton label="Loading overview" panels={3} />
      )}
    </Box>
  );
}
