import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Spinner } from '../../ui/Spinner';

/** The forms' Submit button: hidden in view mode, disabled with a spinner while saving. */
export function SubmitRow({ hidden, submitting }: { hidden: boolean; submitting: boolean }) {
  if (hidden) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={submitting}
        startIcon={submitting ? <Spinner label="Submitting" /> : undefined}
        sx={{ minWidth: 140 }}
      >
        Submit
      </Button>
    </Box>
  );
}
