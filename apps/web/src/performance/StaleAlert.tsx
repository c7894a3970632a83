import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useEffect, useRef } from 'react';
import { mergeSummary } from './merge';

interface Props {
  /** The server's message: whose scores changed, and by whom. */
  message: string;
  conflicts: number;
  dirty: boolean;
  /** Focuses the first highlighted cell, which may be scrolled out of view. */
  onShowConflict(): void;
}

/** Above the grid after a save was refused as stale: what happened and what is left to do. */
export function StaleAlert({ message, conflicts, dirty, onShowConflict }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // A new refusal may come while the user is scrolled down the grid.
  useEffect(() => {
    if (message) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [message]);
  return (
    <Alert ref={ref} severity="warning" sx={{ mb: 2 }}>
      <AlertTitle>{message}</AlertTitle>
      {mergeSummary(conflicts, dirty)}
      {conflicts > 0 && (
        <Button
          size="small"
          variant="outlined"
          color="inherit"
          onClick={onShowConflict}
          sx={{ display: 'flex', mt: 1, bgcolor: 'background.paper' }}
        >
          {conflicts === 1 ? 'Go to the highlighted cell' : 'Go to the first highlighted cell'}
        </Button>
      )}
    </Alert>
  );
}
