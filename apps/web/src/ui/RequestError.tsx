import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { Spinner } from './Spinner';

interface Props {
  message: string;
  /** Sends the request again; absent where that cannot help (a record not found). */
  onRetry?(): void;
  /** The request is on its way again: Retry spins and waits for it. */
  retrying: boolean;
  sx?: SxProps<Theme>;
}

/** A failed request's message in place of what it was to show, with Retry where that may help. */
export function RequestError({ message, onRetry, retrying, sx }: Props) {
  return (
    <Alert
      severity="error"
      role="alert"
      sx={sx}
      action={
        onRetry && (
          <Button
            color="inherit"
            size="small"
            disabled={retrying}
            startIcon={retrying ? <Spinner label="Retrying" /> : undefined}
            onClick={onRetry}
          >
            Retry
          </Button>
        )
      }
    >
      {message}
    </Alert>
  );
}
