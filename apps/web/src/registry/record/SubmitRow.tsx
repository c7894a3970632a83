import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { Spinner } from '../../ui/Spinner';

interface Props {
  submitting: boolean;
  /** Offered on create forms: saves, then starts a fresh form instead of going back. */
  onAnother?(): void;
}

/**
 * The forms' Submit button (views, which read rather than edit, have none), and beside it on
 * create forms "Save and add another"; both disabled while saving, the spinner on the one pressed.
 */
export function SubmitRow({ submitting, onAnother }: Props) {
  const [pressed, setPressed] = useState<'submit' | 'another'>('submit');
  const spinner = (which: typeof pressed) =>
    submitting && pressed === which ? <Spinner label="Submitting" /> : undefined;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1.5 }}>
      {onAnother && (
        <Button
          variant="outlined"
          size="large"
          disabled={submitting}
          startIcon={spinner('another')}
          onClick={() => {
            setPressed('another');
            onAnother();
          }}
        >
          Save and add another
        </Button>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={submitting}
        startIcon={spinner('submit')}
        onClick={() => setPressed('submit')}
        sx={{ minWidth: 140 }}
      >
        Submit
      </Button>
    </Box>
  );
}
