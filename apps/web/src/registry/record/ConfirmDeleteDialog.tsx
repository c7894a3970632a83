import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { Spinner } from '../../ui/Spinner';

interface Props {
  open: boolean;
  label: string;
  name: string;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function ConfirmDeleteDialog({ open, label, name, busy, onCancel, onConfirm }: Props) {
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
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
