import Box from '@mui/material/Box';
import { Spinner } from './Spinner';

/** Shown in place of a screen while its data or code loads. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: '40vh',
        width: '100%',
      }}
    >
      <Spinner label={label} />
    </Box>
  );
}
