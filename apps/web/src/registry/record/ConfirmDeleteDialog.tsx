import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { FailureAlert } from '../../ui/FailureAlert';
import { Spinner } from '../../ui/Spinner';

interface Props {
  open: boolean;
  label: string;
  name: string;
  busy: boolean;
  /** Why the last try was refused ('... it is still used by 25 employees'); kept until closed or tried again. */
  refusal?: string | null;
  onCancel(): void;
  onConfirm(): void;
}

export function ConfirmDeleteDialog({ open, label, name, busy, refusal, onCancel, onConfirm }: Props) {
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby="confirm-delete-title"
      aria-describedby="confirm-delete-text"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="confirm-delete-title">Delete {label.toLowerCase()}?</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-delete-text">
          {`Are you sure you want to delete "${name}"? This cannot be undone.`}
        </DialogContentText>
        {refusal && (
          <FailureAlert
            title={`The ${label.toLowerCase()} was not deleted`}
            message={refusal}
            outcome="Nothing was deleted."
            sx={{ mt: 2 }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {refusal ? 'Close' : 'Cancel'}
        </Button>
        <Button
          onClick={onConfirm}
          color="error"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <Spinner label="Deleting" /> : undefined}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
