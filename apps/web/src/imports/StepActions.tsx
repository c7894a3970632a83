import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * A wizard step's buttons: the way back on the left, the way on at the right; on a phone each is a
 * full-width row, the main one first.
 */
export function StepActions({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        justifyContent: 'space-between',
        flexDirection: { xs: 'column-reverse', sm: 'row' },
        '& .MuiButton-root': { width: { xs: '100%', sm: 'auto' } },
        '& > .MuiBox-root': { flexDirection: { xs: 'column-reverse', sm: 'row' } },
      }}
    >
      {children}
    </Box>
  );
}
