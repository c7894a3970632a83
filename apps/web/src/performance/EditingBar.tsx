import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { FailureAlert } from '../ui/FailureAlert';

interface Props {
  changedCount: number;
  /** How many employees the day being edited has. */
  rowCount: number;
  /** Why the last save failed, while the scores it tried to save are unchanged. */
  failure?: string;
  /** Rows the failed save did save, in the chunks sent before the refused one. */
  savedCount?: number;
  onDismissFailure?(): void;
  /** Moves the focus to the next cell with no score. */
  onNextUnscored(): void;
}

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/**
 * Shown while editing: how the grid is edited, how many rows a save would send, and a failed
 * save's reason, which stays until the user edits, saves again or dismisses it.
 */
export function EditingBar({
  changedCount,
  rowCount,
  failure,
  savedCount = 0,
  onDismissFailure,
  onNextUnscored,
}: Props) {
  return (
    <>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1,
          px: 2,
          py: 1.25,
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'action.hover',
        }}
      >
        <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 24rem' }}>
          Type a whole number from 0 to 10, or leave a cell empty. Arrow keys, Tab and Enter move between
          cells; Tab at the end of a row goes to the next row&apos;s first empty cell, and <kbd>Ctrl</kbd>+
          <kbd>Enter</kbd> to the next unscored cell. A block copied from a spreadsheet can be pasted into any
          cell. Every employee of the day ({rowCount}) is here: scroll to reach them.
        </Typography>
        <Button size="small" variant="outlined" onClick={onNextUnscored} aria-keyshortcuts="Control+Enter">
          Next unscored
        </Button>
        <Typography variant="body2" sx={{ fontWeight: 600 }} aria-live="polite">
          {changedCount === 0 ? 'No changes yet' : `${rows(changedCount)} changed`}
        </Typography>
      </Box>
      {failure && (
        <FailureAlert
          title="Scores not saved"
          message={failure}
          outcome={
            savedCount === 0
              ? 'Nothing was saved; your changes are still in the grid. Correct them and Save again.'
              : `${rows(savedCount)} were saved; the rest were not and are still in the grid. Correct them and Save again.`
          }
          onDismiss={onDismissFailure}
          sx={{ borderRadius: 0, borderBottom: 1, borderColor: 'divider' }}
        />
      )}
    </>
  );
}
