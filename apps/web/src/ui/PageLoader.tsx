import Box from '@mui/material/Box';
import { Spinner } from './Spinner';

/**
 * The green spinner, centred, where no layout is known yet: a screen whose code is still loading,
 * a session being restored, a table's next page. A screen whose layout is known shows its outline
 * instead (./Skeletons).
 */
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
