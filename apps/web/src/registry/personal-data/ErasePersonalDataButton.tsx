import PersonRemoveIcon from '@mui/icons-material/PersonRemoveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { ERASED, ERASURE_MESSAGES, type ResourceDef } from '@wfc/contract';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api, errorMessage } from '../../api/client';
import { useCan } from '../../auth/auth';
import { FailureAlert } from '../../ui/FailureAlert';
import { notify } from '../../ui/notify';
import { Spinner } from '../../ui/Spinner';
import { usePasswordVisibility } from '../../ui/usePasswordVisibility';
import { recordName } from '../format';
import { useInvalidateRegistry } from '../mutations';
import { listPath } from '../paths';
import type { RegistryRecord } from '../queries';

/** The name typed must be the record's, character for character: a slip names someone else. */
export const nameMatches = (typed: string, name: string) => name !== '' && typed === name;

/** What the user must type: the record's name, else (a record without one) its code. */
const nameToType = (def: ResourceDef, record: RegistryRecord) =>
  recordName(def, record) || String(record[def.code] ?? '');

/**
 * Why an erasure was refused, in the dialog's words: a wrong password is told on its field, whose
 * message the alert repeats (the envelope's own 'Invalid input' says nothing).
 */
function refusalOf(err: unknown): { message: string; password?: string } {
  const password =
    err instanceof ApiError ? err.errors?.find((e) => e.field === 'currentPassword')?.message : undefined;
  return password ? { message: password, password } : { message: errorMessage(err, FAILED) };
}

const FAILED = 'The personal data could not be erased';

function useErasePersonalData(def: ResourceDef, code: string) {
  const navigate = useNavigate();
  const invalidate = useInvalidateRegistry();
  return useMutation({
    mutationFn: (currentPassword: string) =>
      api.post('ErasePersonalData', { [def.code]: code, currentPassword }),
    onSuccess: async (res) => {
      notify.success(res.message || ERASURE_MESSAGES.done);
      // Leave first: the view's record is gone, and refetching it there would show a 404.
      navigate(listPath(def));
      await invalidate();
    },
  });
}

interface DialogProps {
  def: ResourceDef;
  code: string;
  name: string;
  onClose(): void;
}

function EraseDialog({ def, code, name, onClose }: DialogProps) {
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const erase = useErasePersonalData(def, code);
  const visibility = usePasswordVisibility();
  const ready = nameMatches(typed, name) && password !== '';
  const refusal = erase.error ? refusalOf(erase.error) : undefined;
  const busy = erase.isPending;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (ready && !busy) erase.mutate(password);
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="erase-personal-data-title"
      aria-describedby="erase-personal-data-text"
      fullWidth
      maxWidth="sm"
    >
      <Box component="form" noValidate onSubmit={onSubmit}>
        <DialogTitle id="erase-personal-data-title">Erase personal data</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2.5, pt: '4px !important' }}>
          <Box id="erase-personal-data-text" sx={{ color: 'text.secondary' }}>
            <Typography variant="body2">Erasing {name}:</Typography>
            <Typography
              component="ul"
              variant="body2"
              sx={{ mt: 1, mb: 0, pl: 2.5, display: 'grid', gap: 0.5 }}
            >
              <li>their user, profile and picture, sessions and sign-in records are deleted;</li>
              <li>
                their employee record is kept without name or user, for team statistics (or deleted, as the
                company has set);
              </li>
              <li>their values in the audit log are replaced by “{ERASED}”.</li>
            </Typography>
            <Typography variant="body2" sx={{ mt: 1.5, color: 'text.primary', fontWeight: 600 }}>
              This cannot be undone. Backups keep the data until they expire.
            </Typography>
          </Box>
          {refusal && (
            <FailureAlert
              title="The personal data was not erased"
              message={refusal.message}
              outcome="Nothing was erased."
            />
          )}
          <TextField
            label="Name"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            helperText={`Type “${name}” exactly`}
            autoComplete="off"
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          <TextField
            name="currentPassword"
            label="Your current password"
            type={visibility.type}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(refusal?.password)}
            helperText={refusal?.password}
            fullWidth
            slotProps={{ input: { endAdornment: visibility.toggle } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={busy}>
            {refusal ? 'Close' : 'Cancel'}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            disabled={busy || !ready}
            startIcon={busy ? <Spinner label="Erasing" /> : undefined}
          >
            Erase
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * On the view of a record about a person (its definition states `personal`): erases the person,
 * for whoever answers erasure requests. The dialog asks for their name typed and the user's own
 * password, and keeps a refusal until it is closed or tried again.
 */
export function ErasePersonalDataButton({
  def,
  code,
  record,
}: {
  def: ResourceDef;
  code: string;
  record?: RegistryRecord;
}) {
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!def.personal || !record || !can('ERASE_PERSONAL_DATA')) return null;
  return (
    <>
      <Button variant="outlined" color="error" startIcon={<PersonRemoveIcon />} onClick={() => setOpen(true)}>
        Erase personal data
      </Button>
      {open && (
        <EraseDialog def={def} code={code} name={nameToType(def, record)} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
