import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { IMPORT_STATUS_LABELS, type ImportRecord } from '@wfc/contract';
import { Link as RouterLink } from 'react-router';
import { IMPORTS_PATH, moduleListPath, moduleTitle } from './modules';
import { ImportCounts } from './PreviewStep';

const number = (n: number) => n.toLocaleString();

/** Pure: how far the server is, 0 to 100, or undefined while the total is not yet known. */
export function progressPercent(record: ImportRecord): number | undefined {
  const { progress, counts } = record;
  if (record.status === 'committing') {
    const total = counts.create + counts.update;
    return total > 0 ? Math.min(100, (progress.written / total) * 100) : undefined;
  }
  return counts.rows > 0 ? Math.min(100, (progress.checked / counts.rows) * 100) : undefined;
}

/**
 * While the server checks or writes a large file: how far it is, at what pace, and a way to stop
 * it before the commit ends. The import goes on if the page is closed; the Imports screen finds it.
 */
export function ProgressStep({
  record,
  cancelling,
  onCancel,
}: {
  record: ImportRecord;
  cancelling: boolean;
  onCancel(): void;
}) {
  const percent = progressPercent(record);
  const writing = record.status === 'committing';
  const { checked, written, rowsPerSecond } = record.progress;
  const done = writing ? written : checked;
  const of = writing ? record.counts.create + record.counts.update : record.counts.rows;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h6" component="h2">
        {writing ? 'Writing the records' : 'Checking the rows'}
      </Typography>
      <LinearProgress
        variant={percent === undefined ? 'indeterminate' : 'determinate'}
        value={percent ?? 0}
        aria-label={IMPORT_STATUS_LABELS[record.status]}
        sx={{ height: 8, borderRadius: 4 }}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
        <Typography>
          <strong>{number(done)}</strong>
          {of > 0 ? ` of ${number(of)}` : ''} rows {writing ? 'written' : 'checked'}
        </Typography>
        {writing && checked > 0 && (
          <Typography color="text.secondary">{number(checked)} rows checked</Typography>
        )}
        <Typography color="text.secondary">{number(Math.round(rowsPerSecond))} rows per second</Typography>
      </Box>
      <Typography variant="body2" color="text.secondary">
        The import goes on if you leave this page; find it again under Imports.
      </Typography>
      <Box>
        <Button variant="outlined" color="error" disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling...' : 'Cancel import'}
        </Button>
      </Box>
    </Box>
  );
}

/** Pure: what a committed import did, in a sentence. */
export function committedText(record: ImportRecord, title: string): string {
  const skipped = record.counts.skipped;
  const leftOut =
    skipped > 0 ? `, leaving out ${number(skipped)} ${skipped === 1 ? 'row' : 'rows'} with errors` : '';
  return `${record.fileName} was imported into ${title.toLowerCase()}${leftOut}.`;
}

/** The import has ended: what it did, and where to see it. */
export function ResultStep({ record, onStartAgain }: { record: ImportRecord; onStartAgain(): void }) {
  const title = moduleTitle(record.module);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {record.status === 'committed' && (
        <>
          <Alert severity="success">{committedText(record, title)}</Alert>
          <ImportCounts record={record} committed />
        </>
      )}
      {record.status === 'failed' && (
        <Alert severity="error">{record.message || 'The import failed: nothing was written.'}</Alert>
      )}
      {record.status === 'cancelled' && (
        <Alert severity="info">{record.message || 'The import was cancelled: nothing was written.'}</Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" component={RouterLink} to={moduleListPath(record.module)}>
          {record.module === 'performance' ? 'Open the Performance Snapshot' : `Open ${title}`}
        </Button>
        <Button variant="outlined" component={RouterLink} to={IMPORTS_PATH}>
          All imports
        </Button>
        {record.status !== 'committed' && (
          <Button variant="outlined" color="inherit" onClick={onStartAgain}>
            Upload another file
          </Button>
        )}
      </Box>
    </Box>
  );
}
