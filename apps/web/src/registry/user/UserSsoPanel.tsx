import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type SignInOptions,
  SSO_LINKING,
  type SsoIdentityRecord,
  type SsoLinking,
  type UserSso,
} from '@wfc/contract';
import { type FormEvent, useState } from 'react';
import { ApiError, api, errorMessage } from '../../api/client';
import { failureOf } from '../../api/retry';
import { useAuth } from '../../auth/auth';
import { formatDateTime } from '../../ui/dates';
import { notify } from '../../ui/notify';
import { RequestError } from '../../ui/RequestError';
import type { ViewPanelProps } from '../resourceExtension';

const LINKING_LABELS: Record<SsoLinking, string> = {
  role: 'By role (not for access managers)',
  allowed: 'Allowed',
  refused: 'Refused',
};

type Change =
  | { path: 'SetSsoLinking'; body: { linking: SsoLinking } }
  | { path: 'LinkSsoIdentity'; body: { subject: string } }
  | { path: 'UnlinkSsoIdentity'; body: { issuer: string; subject: string } };

/** One linked provider account: the name it last had there, its subject and when it was used. */
function IdentityRow({
  identity,
  busy,
  onRemove,
}: {
  identity: SsoIdentityRecord;
  busy: boolean;
  onRemove: () => void;
}) {
  return (
    <Box
      component="li"
      sx={{ py: 1, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 2, alignItems: 'center' }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2">
          {identity.providerUsername ?? 'Not used yet'} · subject {identity.subject}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {identity.issuer} · linked {formatDateTime(identity.linkedAt)}
          {identity.lastUsedAt && ` · last used ${formatDateTime(identity.lastUsedAt)}`}
        </Typography>
      </Box>
      <Button size="small" color="error" variant="outlined" disabled={busy} onClick={onRemove}>
        Remove
      </Button>
    </Box>
  );
}

/**
 * On a user's view screen, for a user manager, when single sign-on is configured: whether the
 * user's first single sign-on may link a provider account by its name, the accounts linked, and
 * linking one by its subject. One's own links and rule are another manager's to change.
 */
export function UserSsoPanel({ code: userCode }: ViewPanelProps) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const key = ['user-sso', userCode];
  const [subject, setSubject] = useState('');
  const options = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: async () => (await api.get<SignInOptions>('GetSignInOptions')).data,
  });
  const configured = Boolean(options.data?.sso);
  const sso = useQuery({
    queryKey: key,
    queryFn: async () => (await api.post<UserSso>('GetSsoByUserCode', { userCode })).data,
    enabled: configured,
  });
  const change = useMutation({
    mutationFn: ({ path, body }: Change) => api.post(path, { userCode, ...body }),
    onSuccess: (res, { path }) => {
      notify.success(res.message);
      if (path === 'LinkSsoIdentity') setSubject('');
    },
    onError: (err) => notify.error(errorMessage(err, 'The change could not be made')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  if (!configured) return null;
  const self = user?.userCode === userCode;
  const subjectError =
    change.error instanceof ApiError
      ? change.error.errors?.find((e) => e.field === 'subject')?.message
      : undefined;
  const link = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.mutate({ path: 'LinkSsoIdentity', body: { subject } });
  };
  const identities = sso.data?.identities ?? [];
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Single sign-on"
      sx={{ mt: 3, p: { xs: 2, sm: 3 }, maxWidth: 880 }}
    >
      <Typography variant="h2" sx={{ fontSize: '1.15rem', fontWeight: 600 }}>
        Single sign-on
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {sso.data === undefined
          ? 'Loading...'
          : sso.data.linkingAllowedNow
            ? 'A first sign-in through the provider may link an account of the same name.'
            : 'A first sign-in through the provider cannot link an account by its name.'}
        {self && ' Another user manager changes your own links and rule.'}
      </Typography>
      {sso.isError && <RequestError {...failureOf(sso, 'Single sign-on could not be loaded')} />}
      {sso.data && (
        <TextField
          select
          size="small"
          label="Linking by name"
          value={sso.data.linking}
          disabled={self || change.isPending}
          onChange={(e) => {
            const linking = SSO_LINKING.find((v) => v === e.target.value);
            if (linking) change.mutate({ path: 'SetSsoLinking', body: { linking } });
          }}
          sx={{ width: { xs: '100%', sm: 'auto' }, minWidth: { sm: 320 }, mb: 2 }}
        >
          {SSO_LINKING.map((value) => (
            <MenuItem key={value} value={value}>
              {LINKING_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Linked accounts">
        {identities.map((identity) => (
          <IdentityRow
            key={`${identity.issuer} ${identity.subject}`}
            identity={identity}
            busy={change.isPending}
            onRemove={() =>
              change.mutate({
                path: 'UnlinkSsoIdentity',
                body: { issuer: identity.issuer, subject: identity.subject },
              })
            }
          />
        ))}
      </Box>
      {sso.data && identities.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No provider account is linked.
        </Typography>
      )}
      {!self && (
        <Box
          component="form"
          noValidate
          onSubmit={link}
          sx={{ display: 'flex', gap: 2, mt: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
        >
          <TextField
            size="small"
            label="Provider subject (sub)"
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
            error={Boolean(subjectError)}
            helperText={subjectError ?? 'The account identifier the provider gives, which never changes'}
            sx={{ flex: '1 1 260px' }}
          />
          <Button type="submit" variant="outlined" disabled={change.isPending}>
            Link account
          </Button>
        </Box>
      )}
    </Paper>
  );
}
