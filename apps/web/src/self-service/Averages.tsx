import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatAverage } from '@wfc/contract';
import { formatDate, formatMonth } from '../ui/dates';
import { useAveragesOn } from './useMyPerformance';

function Figure({ label, value, note }: { label: string; value: string | null | undefined; note: string }) {
  return (
    <Paper component="section" aria-label={label} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Typography variant="body2" color="text.secondary" component="h2" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Typography sx={{ typography: 'h2', color: 'brand.text', my: 0.5 }} component="p">
        {value === undefined ? <Skeleton width={80} /> : value || '–'}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p">
        {note}
      </Typography>
    </Paper>
  );
}

/** This month's and this year's averages up to today, as the Performance Snapshot computes them. */
export function Averages({ employeeCode, today }: { employeeCode: string; today: string }) {
  const totals = useAveragesOn(employeeCode, today);
  const shown = (v: number | null | undefined) =>
    totals.isPending ? undefined : formatAverage(v ?? null) || null;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <Figure
        label="This month's average"
        value={shown(totals.data?.monthly)}
        note={`${formatMonth(today)}, up to ${formatDate(today)}`}
      />
      <Figure
        label="This year's average"
        value={shown(totals.data?.yearly)}
        note={`${today.slice(0, 4)}, up to ${formatDate(today)}`}
      />
    </Box>
  );
}
