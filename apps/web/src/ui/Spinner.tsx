import CircularProgress from '@mui/material/CircularProgress';

/** The product's small green spinner: the brand green (#009746 in both schemes), 15 px. */
export const SPINNER_COLOR = 'brand.main';
export const SPINNER_SIZE = 15;

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <CircularProgress size={SPINNER_SIZE} sx={{ color: SPINNER_COLOR }} aria-label={label} />;
}
