import Chip from '@mui/material/Chip';
import { IMPORT_STATUS_LABELS, type ImportStatus } from '@wfc/contract';

const COLORS: Record<ImportStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  checking: 'info',
  ready: 'warning',
  committing: 'info',
  committed: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** An import's status in a word, coloured as the console colours outcomes. */
export function ImportStatusChip({ status }: { status: ImportStatus }) {
  const ended = status === 'committed' || status === 'failed';
  return (
    <Chip
      size="small"
      label={IMPORT_STATUS_LABELS[status]}
      color={COLORS[status]}
      variant={ended ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}
