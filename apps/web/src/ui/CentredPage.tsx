import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface Props {
  /** Decorative or described by its own alternative text: it stands above the heading. */
  picture: ReactNode;
  title: string;
  maxWidth: number;
  children: ReactNode;
}

/** A page that only says one thing (an error, a refusal): its picture, heading and ways on, centred. */
export function CentredPage({ picture, title, maxWidth, children }: Props) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        maxWidth,
        mx: 'auto',
        py: { xs: 2, md: 4 },
      }}
    >
      {picture}
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
