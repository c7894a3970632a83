import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { SxProps, Theme } from '@mui/material/styles';
import { useEffect, useRef } from 'react';

interface Props {
  /** What failed, in the user's words: 'The gender was not created'. */
  title?: string;
  /** Why: the server's message, else the call's default. */
  message: string;
  /** What it means for the user's work: 'Nothing was saved; ...'. */
  outcome?: string;
  /** A Dismiss (×) button; without it the alert goes when the user acts again. */
  onDismiss?(): void;
  sx?: SxProps<Theme>;
}

/** 'Invalid input' → 'Invalid input.'; a message already ending a sentence is left as it is. */
export const asSentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/**
 * A failure told where the user acted, which stays until they act again: the toast closes after a
 * second and may be missed, this does not. It is scrolled into view when it appears.
 */
export function FailureAlert({ title, message, outcome, onDismiss, sx }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // A save button may sit far below the top of a long form.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <Alert ref={ref} severity="error" role="alert" onClose={onDismiss} closeText="Dismiss" sx={sx}>
      {title && <AlertTitle>{title}</AlertTitle>}
      {/* One text: the message and what it means are read, and found, together. */}
      {outcome ? `${asSentence(message)} ${outcome}` : message}
    </Alert>
  );
}
