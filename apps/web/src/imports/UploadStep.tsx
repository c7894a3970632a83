import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  IMPORT_FORMATS,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  IMPORT_MODE_LABELS,
  type ImportFormat,
  type ImportMode,
  type ImportModule,
  SCORE_LAYOUTS,
  type ScoreLayout,
} from '@wfc/contract';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useCan } from '../auth/auth';
import { notify } from '../ui/notify';
import { Spinner } from '../ui/Spinner';
import { downloadImportTemplate } from './api';
import { modesAllowed, moduleTitle } from './modules';

/** Pure: why a file cannot be sent, checked as the server will, or null when it may be. */
export function fileProblem(file: File): string | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return IMPORT_MESSAGES.fileType;
  if (file.size > IMPORT_LIMITS.maxBytes) return IMPORT_MESSAGES.tooLarge;
  return null;
}

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const FORMAT_NAMES: Record<ImportFormat, string> = { csv: 'CSV', xlsx: 'XLSX' };
const LAYOUT_NAMES: Record<ScoreLayout, string> = { wide: 'one column per skill', long: 'one row per skill' };

function Templates({ module }: { module: ImportModule }) {
  const [busy, setBusy] = useState<string | null>(null);
  const get = async (format: ImportFormat, layout?: ScoreLayout) => {
    setBusy(`${format}-${layout ?? ''}`);
    const outcome = await downloadImportTemplate(module, format, layout);
    setBusy(null);
    if (!outcome.ok) notify.error(outcome.message);
  };
  const layouts: (ScoreLayout | undefined)[] = module === 'performance' ? [...SCORE_LAYOUTS] : [undefined];
  return (
    <Box>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        Templates: the columns as the form names them, with an example row
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {layouts.map((layout) => (
          <Box key={layout ?? 'one'} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            {layout && (
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ flex: { xs: '1 1 100%', sm: '0 0 190px' } }}
              >
                {layout === 'wide' ? 'Wide' : 'Long'}: {LAYOUT_NAMES[layout]}
              </Typography>
            )}
            {IMPORT_FORMATS.map((format) => (
              <Button
                key={format}
                size="small"
                variant="outlined"
                startIcon={<DownloadIcon />}
                disabled={busy === `${format}-${layout ?? ''}`}
                onClick={() => void get(format, layout)}
                aria-label={`Download the ${layout ? `${layout} ` : ''}${FORMAT_NAMES[format]} template`}
              >
                {FORMAT_NAMES[format]} template
              </Button>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

export interface UploadChoice {
  module: ImportModule;
  file: File;
  mode: ImportMode;
}

interface Props {
  modules: readonly ImportModule[];
  initialModule?: ImportModule;
  starting: boolean;
  /** The server's refusal of the last upload. */
  error?: string | null;
  onStart(choice: UploadChoice): void;
}

/** Step 1: the module (fixed when opened from its list), the file, dropped or chosen, and the mode. */
export function UploadStep({ modules, initialModule, starting, error, onStart }: Props) {
  const can = useCan();
  const [module, setModule] = useState<ImportModule | ''>(
    initialModule ?? (modules.length === 1 ? (modules[0] ?? '') : ''),
  );
  const modes = module ? modesAllowed(module, can) : [];
  const [mode, setMode] = useState<ImportMode>('upsert');
  const shownMode = modes.includes(mode) ? mode : (modes.at(-1) ?? 'create');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const pick = (f: File | undefined) => {
    if (!f) return;
    const why = fileProblem(f);
    setProblem(why);
    setFile(why ? null : f);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    pick(e.dataTransfer.files[0]);
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (module && file) onStart({ module, file, mode: shownMode });
      }}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <TextField
          select
          required
          label="Import into"
          value={module}
          disabled={starting}
          onChange={(e) => setModule(e.target.value as ImportModule)}
          sx={{ minWidth: 240, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
        >
          {modules.map((m) => (
            <MenuItem key={m} value={m}>
              {moduleTitle(m)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Mode"
          value={module ? shownMode : ''}
          disabled={!module || starting}
          onChange={(e) => setMode(e.target.value as ImportMode)}
          sx={{ minWidth: 260, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
        >
          {modes.map((m) => (
            <MenuItem key={m} value={m}>
              {IMPORT_MODE_LABELS[m]}
            </MenuItem>
          ))}
        </TextField>
      </Box>

      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        sx={(theme) => ({
          border: 2,
          borderStyle: 'dashed',
          borderColor: over ? theme.vars.palette.brand.main : theme.vars.palette.divider,
          bgcolor: over ? theme.alpha(theme.vars.palette.brand.main, 0.06) : 'transparent',
          borderRadius: 2,
          p: { xs: 2.5, sm: 4 },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 1.5,
          textAlign: 'center',
        })}
      >
        {file ? (
          <>
            <InsertDriveFileOutlinedIcon sx={{ fontSize: 40, color: 'brand.main' }} />
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{file.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {sizeText(file.size)}
            </Typography>
          </>
        ) : (
          <>
            <UploadFileIcon sx={{ fontSize: 40, color: 'text.secondary' }} />
            <Typography sx={{ fontWeight: 600 }}>Drop a CSV or XLSX file here</Typography>
          </>
        )}
        <Typography id={hintId} variant="body2" color="text.secondary">
          CSV (comma or semicolon, UTF-8) or XLSX, up to {IMPORT_LIMITS.maxBytes / 1024 / 1024} MB and{' '}
          {IMPORT_LIMITS.maxRows.toLocaleString()} rows.
        </Typography>
        <Button
          variant="outlined"
          disabled={starting}
          onClick={() => input.current?.click()}
          aria-describedby={hintId}
        >
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          aria-label="Spreadsheet file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => {
            pick(e.target.files?.[0]);
            // The same file chosen again after fixing it is a new choice.
            e.target.value = '';
          }}
        />
      </Box>
      {(problem || error) && <Alert severity="error">{problem ?? error}</Alert>}

      {module && <Templates module={module} />}

      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={!module || !file || starting || modes.length === 0}
          startIcon={starting ? <Spinner label="Checking" /> : <UploadFileIcon />}
        >
          {starting ? 'Checking the file...' : 'Upload and check'}
        </Button>
      </Box>
    </Box>
  );
}
