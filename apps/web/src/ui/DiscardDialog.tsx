import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

interface Props {
  open: boolean;
  /** What would be lost: 'Some scores have been changed but not saved. Leaving now will lose them.' */
  text: string;
  onStay(): void;
  onDiscard(): void;
}

/** Asked before unsaved changes are dropped, by Cancel or by leaving; staying is the safe default. */
export function DiscardDialog({ open, text, onStay, onDiscard }: Props) {
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby="discard-title" aria-describedby="discard-text">
      <DialogTitle id="discard-title">Discard unsaved changes?</DialogTitle>
      <DialogContent>
        <DialogContentText id="discard-text">{text}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onStay} autoFocus>
          Keep editing
        </Button>
        <Button color="error" onClick={onDiscard}>
          Discard changes
        </Button>
      </DialogActions>
    </Dialog>
  );
}
