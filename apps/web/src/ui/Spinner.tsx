import CircularProgress from '@mui/material/CircularProgress';

/** The product's small green spinner: #009746, 15 px. */
export const SPINNER_COLOR = '#009746';
export const SPINNER_SIZE = 15;

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <CircularProgress size={SPINNER_SIZE} sx={{ color: SPINNER_COLOR }} aria-label={label} />;
}
