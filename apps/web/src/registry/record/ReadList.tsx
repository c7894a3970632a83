import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { type ReactNode, useId } from 'react';
import { EMPTY_CELL } from '../format';

/** One label and value of a record as a view reads it. */
export interface ReadEntry {
  label: string;
  value: ReactNode;
  /** Spans both columns: long text, lists, a picture. */
  wide?: boolean;
}

/**
 * A record as its view reads it: label and value pairs on a two-column grid from md up, each value
 * named by its label for assistive technology (and for tests: `getByRole('definition', { name })`).
 */
export function ReadList({ entries }: { entries: readonly ReadEntry[] }) {
  const id = useId();
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
        columnGap: 4,
        rowGap: 2.5,
      }}
    >
      {entries.map((entry, i) => (
        <Box key={entry.label} sx={{ gridColumn: entry.wide ? '1 / -1' : undefined, minWidth: 0 }}>
          <Box
            component="dt"
            id={`${id}-${i}`}
            sx={{ typography: 'body2', color: 'text.secondary', fontWeight: 500, mb: 0.5 }}
          >
            {entry.label}
          </Box>
          <Box
            component="dd"
            aria-labelledby={`${id}-${i}`}
            sx={{ m: 0, typography: 'body1', overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
          >
            {entry.value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** A value as text, a dash when there is none. */
export const readText = (value: unknown): string =>
  value === null || value === undefined || value === '' ? EMPTY_CELL : String(value);

export const yesNo = (value: unknown): string => (value === true ? 'Yes' : 'No');

/** An address elsewhere on the web, opened in a new tab that cannot reach back into the console. */
export function ExternalLink({ href }: { href: string | null | undefined }) {
  if (!href) return <>{EMPTY_CELL}</>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      {href}
    </Link>
  );
}
