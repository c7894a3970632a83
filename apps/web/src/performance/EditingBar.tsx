import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Shown while editing: how the grid is edited, and how many rows a save would send. */
export function EditingBar({ changedCount }: { changedCount: number }) {
  return (
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
        Type a whole number from 0 to 10, or leave a cell empty. Arrow keys, Tab and Enter move between cells;
        a block copied from a spreadsheet can be pasted into any cell.
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600 }} aria-live="polite">
        {changedCount === 0
          ? 'No changes yet'
          : `${changedCount} row${changedCount === 1 ? '' : 's'} changed`}
      </Typography>
    </Box>
  );
}
