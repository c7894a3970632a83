import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import type { FieldChange, StaleConflict } from './conflict';

interface Props {
  /** The module's label: 'Gender'. */
  label: string;
  conflict: StaleConflict;
  /** compareFields(base, theirs, mine): the fields either side changed. */
  changes: readonly FieldChange[];
  busy: boolean;
  onTakeTheirs(): void;
  onKeepMine(): void;
  /** Offered when the record was deleted and the user may create one. */
  onCreateAgain?(): void;
  onGoBack(): void;
}

/** A list of fields: the label, then what to say about it; one column on a phone, two from sm up. */
function FieldList({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{
          m: 0,
          mt: 0.5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'minmax(8rem, max-content) 1fr' },
          columnGap: 2,
          rowGap: { xs: 0.25, sm: 0.75 },
          '& dt': { fontWeight: 600, color: 'text.primary', mt: { xs: 1, sm: 0 } },
          '& dd': { m: 0, color: 'text.primary', overflowWrap: 'anywhere' },
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

const Was = ({ value }: { value: string }) => (
  <Box component="span" sx={{ color: 'text.secondary' }}>
    {` (was: ${value})`}
  </Box>
);

/**
 * What happened while the user was editing: who changed (or deleted) the record and when, what
 * they changed field by field (with the value the form was opened with), where the user's own
 * edits differ, and the ways on. What the user typed stays in the form whichever way they choose.
 */
export function ConflictPanel({
  label,
  conflict,
  changes,
  busy,
  onTakeTheirs,
  onKeepMine,
  onCreateAgain,
  onGoBack,
}: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // Shown above the form, possibly far from the Submit just pressed: bring it into view and focus.
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const deleted = conflict.theirs === null;
  const what = label.toLowerCase();
  const theirs = changes.filter((c) => c.theirsChanged);
  const mineOnly = changes.filter((c) => c.mineChanged && !c.theirsChanged);
  const mine = changes.filter((c) => c.mineChanged);

  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      severity="warning"
      aria-labelledby="conflict-title"
      sx={{
        outline: 'none',
        '& .MuiAlert-message': { width: '100%', minWidth: 0 },
        // On a phone the width goes to the text.
        '& .MuiAlert-icon': { display: { xs: 'none', sm: 'flex' } },
      }}
    >
      <AlertTitle id="conflict-title" sx={{ fontWeight: 700 }}>
        {deleted
          ? `Not saved: this ${what} was deleted by someone else`
          : `Not saved: this ${what} was changed by someone else`}
      </AlertTitle>
      <Typography variant="body2">{conflict.message}.</Typography>

      {!deleted && theirs.length > 0 && (
        <FieldList title="Their changes">
          {theirs.map((c) => (
            <Box key={c.name} sx={{ display: 'contents' }} data-field={c.name}>
              <dt>{c.label}</dt>
              <dd>
                {c.theirs}
                <Was value={c.base} />
                {c.clash && (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
                    <Chip size="small" color="warning" label="You changed it too" />
                    <span>{`Yours: ${c.mine}`}</span>
                  </Box>
                )}
                {c.mineChanged && !c.clash && (
                  <Box component="span" sx={{ color: 'text.secondary' }}>
                    {' (same as yours)'}
                  </Box>
                )}
              </dd>
            </Box>
          ))}
        </FieldList>
      )}
      {!deleted && theirs.length === 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          None of the fields on this form differs from when you opened it.
        </Typography>
      )}
      {(deleted ? mine : mineOnly).length > 0 && (
        <FieldList title={deleted ? 'Your changes' : 'Your other changes'}>
          {(deleted ? mine : mineOnly).map((c) => (
            <Box key={c.name} sx={{ display: 'contents' }} data-field={c.name}>
              <dt>{c.label}</dt>
              <dd>
                {c.mine}
                <Was value={c.base} />
              </dd>
            </Box>
          ))}
        </FieldList>
      )}

      <Typography variant="body2" sx={{ mt: 1.5 }}>
        {deleted
          ? `What you typed is still in the form below. You can create the ${what} again with it, or go back.`
          : 'What you typed is still in the form below. Take theirs to load their version in its place, or keep yours to save it over theirs.'}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
        {deleted ? (
          <>
            {onCreateAgain && (
              <Button variant="contained" onClick={onCreateAgain} disabled={busy}>
                Create it again
              </Button>
            )}
            <Button variant="outlined" color="inherit" onClick={onGoBack} disabled={busy}>
              Go back
            </Button>
          </>
        ) : (
          <>
            <Button variant="outlined" color="inherit" onClick={onTakeTheirs} disabled={busy}>
              Take theirs (reload)
            </Button>
            <Button variant="contained" onClick={onKeepMine} disabled={busy}>
              Keep mine (save again)
            </Button>
          </>
        )}
      </Stack>
    </Alert>
  );
}
