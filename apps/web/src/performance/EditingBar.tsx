import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { FailureAlert } from '../ui/FailureAlert';

interface Props {
  changedCount: number;
  /** Why the last save failed, while the scores it tried to save are unchanged. */
  failure?: string;
  onDismissFailure?(): void;
}

/**
 * Shown while editing: how the grid is edited, how many rows a save would send, and a failed
 * save's reason, which stays until the user edits, saves again or dismisses it.
 */
export function EditingBar({ changedCount, failure, onDismissFailure }: Props) {
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
          cells; a block copied from a spreadsheet can be pasted into any cell.
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }} aria-live="polite">
          {changedCount === 0
            ? 'No changes yet'
            : `${changedCount} row${changedCount === 1 ? '' : 's'} changed`}
        </Typography>
      </Box>
      {failure && (
        <FailureAlert
          title="Scores not saved"
          message={failure}
          outcome="Nothing was saved; your changes are still in the grid. Correct them and Save again."
          onDismiss={onDismissFailure}
          sx={{ borderRadius: 0, borderBottom: 1, borderColor: 'divider' }}
        />
      )}
    </>
  );
}
