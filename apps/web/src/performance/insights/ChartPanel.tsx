import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

interface Props {
  title: string;
  /** Shown instead of the chart when there is nothing to draw; the table still says so. */
  empty?: string;
  chart: ReactNode;
  /** The chart's numbers, for whoever cannot see it or wants the exact figures. */
  table: ReactNode;
}

/**
 * A chart with its data table, side by side on a wide screen and the table below on a narrow one.
 * The chart is one image to assistive technology; the table carries the numbers.
 */
export function ChartPanel({ title, empty, chart, table }: Props) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography id={id} variant="h2" sx={{ fontSize: '1.125rem', fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(18rem, 2fr)' },
          gap: 2,
          alignItems: 'start',
        }}
      >
        {empty ? (
          <Box
            sx={{
              minHeight: 160,
              display: 'grid',
              placeItems: 'center',
              color: 'text.secondary',
              bgcolor: 'background.subtle',
              borderRadius: 1,
            }}
          >
            <Typography>{empty}</Typography>
          </Box>
        ) : (
          <Box
            role="img"
            aria-label={`${title}: chart. The same figures are in the table.`}
            sx={{ minWidth: 0 }}
          >
            {chart}
          </Box>
        )}
        <Box sx={{ minWidth: 0 }}>{table}</Box>
      </Box>
    </Paper>
  );
}
