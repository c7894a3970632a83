import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS, type CreatedApiToken } from '@wfc/contract';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { useApiTokenRoles, useCreateApiToken } from './api';

const DAY_MS = 86_400_000;

/** A calendar day `days` from today, as a date input holds it (the browser's own day). */
function dayFromToday(days: number): string {
  const d = new Date(Date.now() + days * DAY_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The server's message for a field (or an item of a list field), if it refused it. */
function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.errors?.find((e) => e.field === field || e.field.startsWith(`${field}.`))?.message;
}

const FIELDS = ['name', 'roleCode', 'expiresAt', 'allowedAddresses'];

/** One address or range a line, or separated by commas or spaces. */
const addressesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The secret, shown this once, with a copy button and what it means. */
function SecretStep({ created, onClose }: { created: CreatedApiToken; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
      notify.success('Token copied');
    } catch {
      notify.error('The token could not be copied: select it and copy it by hand');
    }
  };
  return (
    <>
      <DialogTitle id="create-token-title">Copy the token for {created.name}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2.5, alignContent: 'start' }}>
        <Alert severity="warning">
          <AlertTitle>This is the only time the token is shown</AlertTitle>
          Store it in the integration's secret store now. The console keeps only a fingerprint of it: if it is
          lost, revoke it and create another.
        </Alert>
        <TextField
          label="API token"
          value={created.token}
          fullWidth
          multiline
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              'aria-describedby': 'token-use',
              style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
            },
          }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Box>
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy token'}
          </Button>
        </Box>
        <Typography id="token-use" variant="body2" color="text.secondary">
          Send it with every call as <code>Authorization: Bearer {created.tokenPrefix}...</code>
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} variant={copied ? 'contained' : 'text'}>
          Done
        </Button>
      </DialogActions>
    </>
  );
}

/** New API token: name, role, expiry and addresses; then its secret, once. */
export function CreateApiTokenDialog({ onClose }: { onClose: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const roles = useApiTokenRoles(true);
  const create = useCreateApiToken();
  const [noExpiry, setNoExpiry] = useState(false);
  const [roleCode, setRoleCode] = useState('');
  const [created, setCreated] = useState<CreatedApiToken>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const day = String(data.get('expiresAt') ?? '');
    create.mutate(
      {
        name: String(data.get('name') ?? ''),
        roleCode,
        noExpiry,
        expiresAt: day || undefined,
        allowedAddresses: addressesOf(String(data.get('allowedAddresses') ?? '')),
      },
      {
        onSuccess: (res) => {
          if (res.data) setCreated(res.data);
          notify.success(`API token for ${res.data?.name ?? 'the integration'} created`);
        },
      },
    );
  };

  const err = create.error;
  const unplaced =
    err && !(err instanceof ApiError && err.errors?.some((e) => FIELDS.some((f) => e.field.startsWith(f))));
  return (
    <Dialog
      open
      onClose={created ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="create-token-title"
    >
      {created ? (
        <SecretStep created={created} onClose={onClose} />
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit}>
          <DialogTitle id="create-token-title">New API token</DialogTitle>
          <DialogContent sx={{ display: 'grid', gap: 2.5, pt: '8px !important' }}>
            {unplaced && (
              <Alert severity="error">{errorMessage(err, 'The API token could not be created')}</Alert>
            )}
            <TextField
              name="name"
              label="Integration name"
              required
              autoFocus
              slotProps={{ htmlInput: { maxLength: 100 } }}
              error={Boolean(fieldError(err, 'name'))}
              helperText={
                fieldError(err, 'name') ?? 'What calls with it, e.g. Payroll export: the audit names it'
              }
            />
            <TextField
              select
              name="roleCode"
              label="Role"
              required
              value={roleCode}
              onChange={(e) => setRoleCode(e.target.value)}
              disabled={roles.isPending}
              error={Boolean(fieldError(err, 'roleCode') ?? roles.isError)}
              helperText={
                fieldError(err, 'roleCode') ??
                (roles.isError
                  ? errorMessage(roles.error, 'The roles could not be loaded')
                  : 'Only roles whose every permission you hold yourself')
              }
            >
              {(roles.data ?? []).map((r) => (
                <MenuItem key={r.roleCode} value={r.roleCode}>
                  {r.roleName}
                </MenuItem>
              ))}
            </TextField>
            <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
              <TextField
                type="date"
                name="expiresAt"
                label="Expires"
                defaultValue={dayFromToday(API_TOKEN_DEFAULT_DAYS)}
                disabled={noExpiry}
                sx={{ flex: '1 1 200px' }}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { min: dayFromToday(1), max: dayFromToday(API_TOKEN_MAX_DAYS) },
                }}
                error={Boolean(fieldError(err, 'expiresAt'))}
                helperText={
                  fieldError(err, 'expiresAt') ??
                  (noExpiry ? 'Never expires' : `At the end of that day (UTC); at most a year away`)
                }
              />
              <FormControlLabel
                sx={{ mt: 1 }}
                control={<Switch checked={noExpiry} onChange={(e) => setNoExpiry(e.target.checked)} />}
                label="No expiry"
              />
            </Box>
            {noExpiry && (
              <Alert severity="info">
                A token without expiry works until someone revokes it. Prefer a date, and a new token before
                it.
              </Alert>
            )}
            <TextField
              name="allowedAddresses"
              label="Allowed addresses (optional)"
              multiline
              minRows={2}
              placeholder={'203.0.113.7\n10.0.0.0/8'}
              error={Boolean(fieldError(err, 'allowedAddresses'))}
              helperText={
                fieldError(err, 'allowedAddresses') ??
                'IP addresses or CIDR ranges the integration calls from, one a line. Empty: from anywhere.'
              }
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={create.isPending || !roleCode}>
              {create.isPending ? 'Creating...' : 'Create token'}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
