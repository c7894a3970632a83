import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { usePreview } from '../registry/profile/PictureDropzone';
import { type ReadEntry, ReadList } from '../registry/record/ReadList';

/** A titled card of My profile. */
export function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function ReadPart({ title, entries }: { title: string; entries: readonly ReadEntry[] }) {
  return (
    <Part title={title}>
      <ReadList entries={entries} />
    </Part>
  );
}

/** The saved picture, a placeholder with the initials when there is none, or why it is missing. */
export function Portrait({
  picture,
  error,
  initials,
}: {
  picture: File | null;
  error?: string;
  initials: string;
}) {
  const url = usePreview(picture);
  const round = {
    width: 112,
    height: 112,
    borderRadius: '50%',
    border: 1,
    borderColor: 'divider',
    flexShrink: 0,
  };
  return (
    <Box>
      {url && picture ? (
        <Box
          component="img"
          src={url}
          alt={`Profile Picture: ${picture.name}`}
          sx={{ ...round, objectFit: 'cover' }}
        />
      ) : (
        <Box
          aria-hidden="true"
          sx={(theme) => ({
            ...round,
            display: 'grid',
            placeItems: 'center',
            typography: 'h2',
            bgcolor: theme.alpha(theme.vars.palette.brand.main, 0.12),
            color: theme.vars.palette.brand.text,
          })}
        >
          {initials}
        </Box>
      )}
      {error && (
        <Typography variant="caption" color="error" component="p" sx={{ mt: 0.5 }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}
