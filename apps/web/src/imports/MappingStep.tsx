import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { IMPORT_MODE_LABELS, type ImportMode, type ImportRecord } from '@wfc/contract';
import { useState } from 'react';
import { Spinner } from '../ui/Spinner';
import { StepActions } from './StepActions';

/** The value of the select that leaves a column out. */
const IGNORE = '';

export interface MappingChoice {
  mapping: (string | null)[];
  mode: ImportMode;
  sheet?: string;
}

interface Props {
  record: ImportRecord;
  /** The modes the user's permissions allow in this module. */
  modes: readonly ImportMode[];
  checking: boolean;
  /** Checks the file again with this mapping, mode and sheet; then the preview shows. */
  onCheck(choice: MappingChoice): void;
  /** Nothing changed: straight to the preview the server already made. */
  onContinue(): void;
  onBack(): void;
}

/** Pure: the required fields no column is mapped to, as the form labels them. */
export function unmappedRequired(record: ImportRecord, mapping: readonly (string | null)[]): string[] {
  const mapped = new Set(mapping.filter((m): m is string => Boolean(m)));
  const required = record.fields.filter((f) => f.required && !mapped.has(f.key));
  // Scores in the wide layout need no Skill and Score columns: a column per skill says both.
  return required.map((f) => f.label);
}

/**
 * Step 2: each of the file's columns with the field it fills, as the server matched them by label
 * or key; the user may pick another field or ignore the column. Required fields no column fills
 * are named, and the file is checked again with the new choice.
 */
export function MappingStep({ record, modes, checking, onCheck, onContinue, onBack }: Props) {
  const [mapping, setMapping] = useState<(string | null)[]>(() =>
    record.columns.map((_, i) => record.mapping[i] ?? null),
  );
  const [mode, setMode] = useState<ImportMode>(record.mode);
  const [sheet, setSheet] = useState<string>(record.sheet ?? record.sheets[0] ?? '');
  const changed =
    mode !== record.mode ||
    (record.sheets.length > 1 && sheet !== (record.sheet ?? '')) ||
    mapping.some((m, i) => m !== (record.mapping[i] ?? null));
  const missing = unmappedRequired(record, mapping);
  const labelOf = new Map(record.fields.map((f) => [f.key, f.label]));
  const taken = (key: string, column: number) => mapping.some((m, i) => m === key && i !== column);
  const choice = (): MappingChoice => ({
    mapping,
    mode,
    ...(record.sheets.length > 1 && sheet ? { sheet } : {}),
  });

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <TextField
          select
          label="Mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as ImportMode)}
          sx={{ minWidth: 260, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
        >
          {modes.map((m) => (
            <MenuItem key={m} value={m}>
              {IMPORT_MODE_LABELS[m]}
            </MenuItem>
          ))}
        </TextField>
        {record.format === 'xlsx' && record.sheets.length > 1 && (
          <TextField
            select
            label="Sheet"
            value={sheet}
            onChange={(e) => setSheet(e.target.value)}
            sx={{ minWidth: 200, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
          >
            {record.sheets.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Box>
      {missing.length > 0 && (
        <Alert severity="warning">
          {missing.length === 1 ? 'A required field has' : 'Required fields have'} no column:{' '}
          <strong>{missing.join(', ')}</strong>. Map a column to {missing.length === 1 ? 'it' : 'each'}, or
          every row will be refused.
        </Alert>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-label="Column mapping"
          // On a phone the columns keep their shares and a long field name ends in an ellipsis.
          sx={{ tableLayout: { xs: 'fixed', sm: 'auto' }, '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}
        >
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: { xs: '42%', sm: '40%' } }}>Column in the file</TableCell>
              <TableCell>Field</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {record.columns.map((column, i) => {
              const value = mapping[i] ?? IGNORE;
              const required = value ? record.fields.find((f) => f.key === value)?.required : false;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a file's columns are its order; two may share a header
                <TableRow key={i}>
                  <TableCell
                    sx={{ fontWeight: 600, overflowWrap: 'break-word', width: { xs: '42%', sm: '40%' } }}
                  >
                    {column || <em>(no header)</em>}
                  </TableCell>
                  <TableCell sx={{ minWidth: { xs: 0, sm: 220 } }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={value}
                      onChange={(e) => {
                        const next = [...mapping];
                        next[i] = e.target.value || null;
                        setMapping(next);
                      }}
                      slotProps={{
                        select: {
                          SelectDisplayProps: { 'aria-label': `Field for ${column || `column ${i + 1}`}` },
                          renderValue: (v) =>
                            v ? (
                              <>
                                {labelOf.get(String(v)) ?? String(v)}
                                {required ? ' *' : ''}
                              </>
                            ) : (
                              <Typography component="span" color="text.secondary">
                                Ignore this column
                              </Typography>
                            ),
                          displayEmpty: true,
                        },
                      }}
                    >
                      <MenuItem value={IGNORE}>
                        <em>Ignore this column</em>
                      </MenuItem>
                      {record.fields.map((f) => (
                        <MenuItem key={f.key} value={f.key} disabled={taken(f.key, i)}>
                          {f.label}
                          {f.required ? ' *' : ''}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      <Typography variant="body2" color="text.secondary">
        * Required field.
      </Typography>
      <StepActions>
        <Button variant="outlined" color="inherit" onClick={onBack} disabled={checking}>
          Upload another file
        </Button>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button
            variant="outlined"
            disabled={!changed || checking}
            startIcon={checking ? <Spinner label="Checking" /> : undefined}
            onClick={() => onCheck(choice())}
          >
            Check again
          </Button>
          <Button
            variant="contained"
            disabled={checking}
            onClick={() => (changed ? onCheck(choice()) : onContinue())}
          >
            Continue to preview
          </Button>
        </Box>
      </StepActions>
    </Box>
  );
}
