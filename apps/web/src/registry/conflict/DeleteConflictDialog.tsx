import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { Spinner } from '../../ui/Spinner';
import type { FieldChange } from './conflict';

interface Props {
  /** The record's label, lower-case: 'role'. */
  what: string;
  /** The server's message: who changed or deleted it, and when. */
  message: string;
  /** Their changes field by field; empty when the record is gone. */
  changes: readonly FieldChange[];
  /** The record's name as it now stands; undefined when it is gone. */
  theirName?: string;
  busy: boolean;
  /** Offered only to those who may view the record. */
  onView?(): void;
  onDeleteAnyway(): void;
  onDismiss(): void;
}

/**
 * A delete refused because the record changed since the row was read: who changed what, with a
 * look at the record as it is and a delete at its new version. A record already gone is said so.
 */
export function DeleteConflictDialog({
  what,
  message,
  changes,
  theirName,
  busy,
  onView,
  onDeleteAnyway,
  onDismiss,
}: Props) {
  const changed = theirName !== undefined;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onDismiss}
      aria-labelledby="delete-conflict-title"
      aria-describedby="delete-conflict-text"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="delete-conflict-title">
        {changed ? `This ${what} has changed` : `This ${what} is gone`}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-conflict-text">{`${message}.`}</DialogContentText>
        {changes.length > 0 && (
          <Typography component="ul" variant="body2" sx={{ mt: 1.5, mb: 0, pl: 2.5 }}>
            {changes.map((c) => (
              <li key={c.name}>
                <strong>{c.label}:</strong> {c.theirs}{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  (was: {c.base})
                </Typography>
              </li>
            ))}
          </Typography>
        )}
        {changed && (
          <DialogContentText sx={{ mt: 1.5 }}>
            {`Look at "${theirName}" as it is now, or delete it anyway.`}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions
        sx={{
          px: 3,
          pb: 2,
          gap: 1,
          // On a phone the choices stack, full width, the one that deletes on top.
          flexDirection: { xs: 'column-reverse', sm: 'row' },
          alignItems: { xs: 'stretch', sm: 'center' },
          '& > :not(style) ~ :not(style)': { ml: 0 },
        }}
      >
        <Button onClick={onDismiss} disabled={busy}>
          {changed ? 'Cancel' : 'Close'}
        </Button>
        {changed && onView && (
          <Button variant="outlined" disabled={busy} onClick={onView}>
            View current {what}
          </Button>
        )}
        {changed && (
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <Spinner label="Deleting" /> : undefined}
            onClick={onDeleteAnyway}
          >
            Delete anyway
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
