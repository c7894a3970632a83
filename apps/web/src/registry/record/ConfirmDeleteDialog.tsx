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
  /** 'Delete gender?', 'Delete 3 employees?' */
  title: string;
  /** 'Are you sure you want to delete "Male"? It goes to the recycle bin, ...' */
  question: string;
  /** What a refusal's alert is titled: 'The gender was not deleted'. */
  refusalTitle: string;
  /** Said under a refusal whose message does not say it already. */
  outcome?: string;
  /** The confirming button's text. */
  confirmLabel?: string;
  /** A delete is confirmed in red; a write that can be taken back (a restore) is not. */
  confirmColor?: 'error' | 'primary';
  /** What the confirming button's spinner says while the write runs. */
  busyLabel?: string;
  /** False while what the write needs is not there yet (the record it is based on). */
  ready?: boolean;
  /** Prefix of the title's and text's ids, which name the dialog. */
  id?: string;
  busy: boolean;
  /** Why the last try was refused ('... it is still used by 25 employees'); kept until closed or tried again. */
  refusal?: string | null;
  onCancel(): void;
  onConfirm(): void;
}

/**
 * The one confirmation of a delete, of one record or several, and of a restored version; a
 * refusal stays in it until closed.
 */
export function ConfirmDeleteDialog({
  open,
  title,
  question,
  refusalTitle,
  outcome,
  confirmLabel = 'Delete',
  confirmColor = 'error',
  busyLabel = 'Deleting',
  ready = true,
  id = 'confirm-delete',
  busy,
  refusal,
  onCancel,
  onConfirm,
}: Props) {
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{question}</DialogContentText>
        {refusal && <FailureAlert title={refusalTitle} message={refusal} outcome={outcome} sx={{ mt: 2 }} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {refusal ? 'Close' : 'Cancel'}
        </Button>
        <Button
          onClick={onConfirm}
          color={confirmColor}
          variant="contained"
          disabled={busy || !ready}
          startIcon={busy ? <Spinner label={busyLabel} /> : undefined}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
