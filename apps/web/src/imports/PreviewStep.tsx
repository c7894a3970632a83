import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { IMPORT_LIMITS, type ImportRecord, type ImportRowAction } from '@wfc/contract';
import { useState } from 'react';
import { Spinner } from '../ui/Spinner';
import { StepActions } from './StepActions';

const ACTION_LABELS: Record<ImportRowAction, string> = {
  create: 'Create',
  update: 'Update',
  unchanged: 'Unchanged',
  error: 'Error',
};
const ACTION_COLORS: Record<ImportRowAction, 'success' | 'info' | 'default' | 'error'> = {
  create: 'success',
  update: 'info',
  unchanged: 'default',
  error: 'error',
};

const number = (n: number) => n.toLocaleString();

/** One figure of the preview: how many rows will be created, updated, left alone or refused. */
function Count({ label, value, tone }: { label: string; value: number; tone?: 'error' }) {
  return (
    <Paper
      variant="outlined"
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        flex: '1 1 140px',
        minWidth: 0,
        ...(tone === 'error' && value > 0
          ? {
              borderColor: theme.vars.palette.error.main,
              bgcolor: theme.alpha(theme.vars.palette.error.main, 0.06),
            }
          : {}),
      })}
    >
      <Typography
        variant="h5"
        component="p"
        sx={{ fontWeight: 700, color: tone === 'error' && value > 0 ? 'error.main' : 'text.primary' }}
      >
        {number(value)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Paper>
  );
}

export function ImportCounts({ record, committed }: { record: ImportRecord; committed?: boolean }) {
  const { counts } = record;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }} role="group" aria-label="Rows">
      <Count label={committed ? 'Created' : 'To create'} value={counts.create} />
      <Count label={committed ? 'Updated' : 'To update'} value={counts.update} />
      <Count label="Unchanged" value={counts.unchanged} />
      {committed ? (
        <Count label="Skipped with errors" value={counts.skipped} tone="error" />
      ) : (
        <Count label="With errors" value={counts.errors} tone="error" />
      )}
    </Box>
  );
}

interface Props {
  record: ImportRecord;
  committing: boolean;
  /** The server's refusal of the commit (409: records changed since the preview; 400; ...). */
  refusal?: { message: string; stale: boolean } | null;
  onCommit(skipErrors: boolean): void;
  /** Checks the file again as it is mapped: after a 409, the preview made afresh. */
  onCheckAgain(): void;
  onBack(): void;
  onDownloadErrors(): void;
}

/**
 * Step 3: what the import will do before anything is written: the counts, the errors by row and
 * column, and the first rows as they will be stored, those with errors highlighted. A file with
 * errors commits only when the user chooses to skip those rows.
 */
export function PreviewStep({
  record,
  committing,
  refusal,
  onCommit,
  onCheckAgain,
  onBack,
  onDownloadErrors,
}: Props) {
  const [skip, setSkip] = useState(false);
  const hasErrors = record.counts.errors > 0 || record.errorCount > 0;
  const blocked = hasErrors && !skip;
  const errorRows = new Set(record.errors.map((e) => e.row));
  const labelOf = new Map(record.fields.map((f) => [f.key, f.label]));
  const shownKeys = [...new Set(record.mapping.filter((m): m is string => Boolean(m)))];
  const changes = record.counts.create + record.counts.update;
  const rowsWord = (n: number) => `${number(n)} ${n === 1 ? 'row' : 'rows'}`;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <ImportCounts record={record} />

      {refusal && (
        <Alert
          severity={refusal.stale ? 'warning' : 'error'}
          action={
            refusal.stale ? (
              <Button color="inherit" size="small" onClick={onCheckAgain}>
                Check again
              </Button>
            ) : undefined
          }
        >
          {refusal.message}
        </Alert>
      )}

      {hasErrors && (
        <Box component="section" aria-labelledby="import-errors-heading">
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
            <Typography id="import-errors-heading" variant="h6" component="h2" sx={{ flex: '1 1 auto' }}>
              Errors
            </Typography>
            <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={onDownloadErrors}>
              Download all errors (CSV)
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {rowsWord(record.counts.errors)} with errors
            {record.errorCount > record.errors.length
              ? `; the first ${number(record.errors.length)} of ${number(record.errorCount)} errors are listed here.`
              : '.'}{' '}
            Fix the file and upload it again, or skip these rows.
          </Typography>
          <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 360 }}>
            <Table size="small" stickyHeader aria-label="Errors">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: { xs: 48, sm: 72 } }}>Row</TableCell>
                  <TableCell sx={{ width: { xs: '30%', sm: '28%' } }}>Column</TableCell>
                  <TableCell>Message</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {record.errors.slice(0, IMPORT_LIMITS.listedErrors).map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one row may have several errors in one column
                  <TableRow key={i}>
                    <TableCell>{e.row}</TableCell>
                    <TableCell sx={{ overflowWrap: 'break-word' }}>
                      {e.column ?? (
                        <Typography component="span" variant="body2" color="text.secondary">
                          Whole row
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'break-word' }}>{e.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      )}

      {record.sample.length > 0 && (
        <Box component="section" aria-labelledby="import-sample-heading">
          <Typography id="import-sample-heading" variant="h6" component="h2" sx={{ mb: 0.5 }}>
            First rows as they will be stored
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {record.sample.length < record.counts.rows
              ? `The first ${number(record.sample.length)} of ${rowsWord(record.counts.rows)}.`
              : `All ${rowsWord(record.counts.rows)}.`}
          </Typography>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label="First rows">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 56 }}>Row</TableCell>
                  <TableCell>Action</TableCell>
                  {shownKeys.map((k) => (
                    <TableCell key={k} sx={{ whiteSpace: 'nowrap' }}>
                      {labelOf.get(k) ?? k}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {record.sample.map((s) => {
                  const errored = s.action === 'error' || errorRows.has(s.row);
                  return (
                    <TableRow
                      key={s.row}
                      data-errored={errored || undefined}
                      sx={(theme) =>
                        errored
                          ? {
                              bgcolor: theme.alpha(theme.vars.palette.error.main, 0.08),
                              '& > td:first-of-type': {
                                boxShadow: `inset 3px 0 0 ${theme.vars.palette.error.main}`,
                              },
                            }
                          : {}
                      }
                    >
                      <TableCell>{s.row}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          label={ACTION_LABELS[s.action]}
                          color={ACTION_COLORS[s.action]}
                          variant={s.action === 'unchanged' ? 'outlined' : 'filled'}
                        />
                      </TableCell>
                      {shownKeys.map((k) => (
                        <TableCell key={k} sx={{ overflowWrap: 'break-word', minWidth: 96 }}>
                          {s.values[k] ||
                            (errored ? (
                              <Typography component="span" variant="body2" color="text.secondary">
                                –
                              </Typography>
                            ) : (
                              ''
                            ))}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      )}

      {hasErrors && (
        <FormControlLabel
          control={<Checkbox checked={skip} onChange={(e) => setSkip(e.target.checked)} />}
          label={`Skip the ${rowsWord(record.counts.errors)} with errors and import the others`}
        />
      )}
      <StepActions>
        <Button variant="outlined" color="inherit" onClick={onBack} disabled={committing}>
          Back to mapping
        </Button>
        <Button
          variant="contained"
          disabled={blocked || committing}
          startIcon={committing ? <Spinner label="Importing" /> : undefined}
          onClick={() => onCommit(hasErrors && skip)}
        >
          {committing ? 'Importing...' : changes > 0 ? `Import ${rowsWord(changes)}` : 'Import'}
        </Button>
      </StepActions>
      {blocked && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'right', mt: -1.5 }}>
          Fix the errors, or choose to skip the rows that have them.
        </Typography>
      )}
    </Box>
  );
}
