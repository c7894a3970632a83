import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/** A key as a keyboard shows it ('Ctrl K', 'Esc'), beside what it does; read as decoration. */
export function KeyCap({ children, sx }: { children: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Box
      component="kbd"
      aria-hidden="true"
      sx={[
        {
          px: 0.75,
          border: 1,
          borderColor: 'divider',
          borderRadius: 0.75,
          fontFamily: 'inherit',
          fontSize: 12,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
