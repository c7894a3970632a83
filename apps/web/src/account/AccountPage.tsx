import ComputerIcon from '@mui/icons-material/Computer';
import FolderZipIcon from '@mui/icons-material/FolderZipOutlined';
import KeyIcon from '@mui/icons-material/Key';
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type MySessionRecord, passwordRule } from '@wfc/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../api/client';
import { downloadFile } from '../api/download';
import { failureOf } from '../api/retry';
import { useAuth } from '../auth/auth';
import { softShadow } from '../theme';
import { formatDateTime } from '../ui/dates';
import { notify } from '../ui/notify';
import { PageHeading } from '../ui/PageHeading';
import { RequestError } from '../ui/RequestError';
import { LoadingRegion } from '../ui/Skeletons';
import {
  disableMfa,
  useChangeMyPassword,
  useEndMyOtherSessions,
  useEndMySession,
  useMySessions,
  useRefreshSessionUser,
} from './api';
import { describeUserAgent } from './describeSession';
import { CodeInput, formError, PasswordInput, serverFieldError } from './fields';

function Section({
  icon,
  title,
  subtitle,
  action,
  children,
}: {
  icon: ReactNode;
  title: string;
  subtitle: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title} sx={{ boxShadow: softShadow('0 8px 28px', 0.06) }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, mb: 2.5, flexWrap: 'wrap' }}>
          <Box sx={{ color: 'brand.main', display: 'flex', pt: 0.25 }} aria-hidden="true">
            {icon}
          </Box>
          <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
            <Typography variant="h2" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          </Box>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

const PASSWORD_FIELDS = ['currentPassword', 'newPassword'] as const;

function ChangePassword() {
  const change = useChangeMyPassword();
  const [confirmError, setConfirmError] = useState<string>();
  const [ruleError, setRuleError] = useState<string>();
  const [formKey, setFormKey] = useState(0);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const currentPassword = String(data.get('currentPassword') ?? '');
    const newPassword = String(data.get('newPassword') ?? '');
    // The same rule the server applies, shown before the call; only the server knows the list.
    const rule = passwordRule.safeParse(newPassword);
    setRuleError(rule.success ? undefined : rule.error.issues[0]?.message);
    const mismatch = newPassword !== String(data.get('confirmPassword') ?? '');
    setConfirmError(mismatch ? 'The two new passwords differ' : undefined);
    if (!rule.success || mismatch) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (res) => {
          notify.success(res.message);
          setFormKey((k) => k + 1);
        },
      },
    );
  };

  const problem = formError(change.error, PASSWORD_FIELDS, 'Your password could not be changed');
  return (
    <Box
      key={formKey}
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: 'grid', gap: 2.5, maxWidth: 480 }}
    >
      {problem && <Alert severity="error">{problem}</Alert>}
      <PasswordInput
        name="currentPassword"
        label="Current password"
        autoComplete="current-password"
        error={Boolean(serverFieldError(change.error, 'currentPassword'))}
        helperText={serverFieldError(change.error, 'currentPassword')}
      />
      <PasswordInput
        name="newPassword"
        label="New password"
        autoComplete="new-password"
        error={Boolean(ruleError ?? serverFieldError(change.error, 'newPassword'))}
        helperText={
          ruleError ??
          serverFieldError(change.error, 'newPassword') ??
          'At least 12 characters, with a lowercase letter and a number. Common passwords are refused.'
        }
      />
      <PasswordInput
        name="confirmPassword"
        label="New password again"
        autoComplete="new-password"
        error={Boolean(confirmError)}
        helperText={confirmError}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change password'}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary">
        Changing your password signs you out everywhere else.
      </Typography>
    </Box>
  );
}

function DisableDialog({ onClose }: { onClose: () => void }) {
  const refresh = useRefreshSessionUser();
  const disable = useMutation({
    mutationFn: disableMfa,
    onSuccess: async (res) => {
      notify.success(res.message);
      await refresh();
      onClose();
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    disable.mutate({
      currentPassword: String(data.get('currentPassword') ?? ''),
      code: String(data.get('code') ?? ''),
    });
  };
  const problem = formError(
    disable.error,
    ['currentPassword', 'code'],
    'Two-factor sign-in could not be turned off',
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="disable-mfa-title">
      <Box component="form" noValidate onSubmit={onSubmit}>
        <DialogTitle id="disable-mfa-title">Turn off two-factor sign-in?</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2.5, pt: '8px !important' }}>
          <Typography variant="body2" color="text.secondary">
            Your account will then be protected by your password alone. Your recovery codes stop working.
          </Typography>
          {problem && <Alert severity="error">{problem}</Alert>}
          <PasswordInput
            name="currentPassword"
            label="Current password"
            autoComplete="current-password"
            autoFocus
            error={Boolean(serverFieldError(disable.error, 'currentPassword'))}
            helperText={serverFieldError(disable.error, 'currentPassword')}
          />
          <CodeInput
            name="code"
            error={Boolean(serverFieldError(disable.error, 'code'))}
            helperText={serverFieldError(disable.error, 'code')}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" color="error" disabled={disable.isPending}>
            Turn off
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function TwoFactor() {
  const { user } = useAuth();
  const [disabling, setDisabling] = useState(false);
  const on = Boolean(user?.mfaEnabled);
  const required = Boolean(user?.role?.requireMfa);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Chip
        label={on ? 'On' : 'Off'}
        color={on ? 'success' : 'default'}
        variant={on ? 'filled' : 'outlined'}
        sx={{ fontWeight: 600 }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 240px' }}>
        {on
          ? required
            ? 'Your role requires it, so it cannot be turned off.'
            : 'You sign in with your password and a code from your authenticator app.'
          : 'Add a code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...) to your password.'}
      </Typography>
      {on ? (
        !required && (
          <Button variant="outlined" color="error" onClick={() => setDisabling(true)}>
            Turn off
          </Button>
        )
      ) : (
        <Button variant="contained" component={RouterLink} to="/account/two-factor">
          Set up two-factor sign-in
        </Button>
      )}
      {disabling && <DisableDialog onClose={() => setDisabling(false)} />}
    </Box>
  );
}

function SessionRow({ session }: { session: MySessionRecord }) {
  const end = useEndMySession();
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        py: 1.75,
        flexWrap: 'wrap',
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }}>{describeUserAgent(session.userAgent)}</Typography>
          {session.current && <Chip size="small" color="success" label="This session" />}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {session.ipAddress ?? 'Unknown address'} · signed in {formatDateTime(session.createdAt)} · last
          active {formatDateTime(session.lastSeenAt)}
        </Typography>
      </Box>
      {!session.current && (
        <Button
          variant="outlined"
          size="small"
          disabled={end.isPending}
          aria-label={`End the session of ${describeUserAgent(session.userAgent)} from ${session.ipAddress ?? 'an unknown address'}`}
          onClick={() =>
            end.mutate(session.sessionCode, {
              onSuccess: (res) => notify.success(res.message),
              onError: (err) => notify.error(errorMessage(err, 'The session could not be ended')),
            })
          }
        >
          End
        </Button>
      )}
    </Box>
  );
}

function Sessions() {
  const sessions = useMySessions();
  if (sessions.isPending)
    return (
      <LoadingRegion label="Loading your sessions">
        <Skeleton variant="rounded" height={72} />
      </LoadingRegion>
    );
  if (sessions.isError) return <RequestError {...failureOf(sessions, 'Your sessions could not be loaded')} />;
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Sessions">
      {sessions.data.map((s) => (
        <SessionRow key={s.sessionCode} session={s} />
      ))}
    </Box>
  );
}

function EndOthersButton() {
  const sessions = useMySessions();
  const endOthers = useEndMyOtherSessions();
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <Button
      variant="outlined"
      color="error"
      disabled={others === 0 || endOthers.isPending}
      onClick={() =>
        endOthers.mutate(undefined, {
          onSuccess: (res) => notify.success(res.message),
          onError: (err) => notify.error(errorMessage(err, 'The sessions could not be ended')),
        })
      }
    >
      Sign out everywhere else
    </Button>
  );
}

/**
 * The person's own access request: a ZIP of everything the console holds about them. A failure
 * stays on the card until they try again.
 */
function YourData() {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailed(null);
    const outcome = await downloadFile('ExportMyPersonalData', {}, DOWNLOAD_FALLBACK, {});
    setBusy(false);
    if (!outcome.ok) setFailed(outcome.message);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
      {failed && (
        <Alert severity="error" sx={{ justifySelf: 'stretch' }}>
          {failed}. Nothing was downloaded; try again.
        </Alert>
      )}
      <Button
        variant="outlined"
        startIcon={<FolderZipIcon />}
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? 'Preparing your data...' : 'Download my data'}
      </Button>
    </Box>
  );
}

const DOWNLOAD_FALLBACK = { filename: 'personal-data.zip', failed: 'Your data could not be downloaded' };

/** My account: the signed-in user's password, second factor, sessions and their data. */
export function AccountPage() {
  const { user } = useAuth();
  return (
    <Box sx={{ maxWidth: 880, mx: 'auto' }}>
      <PageHeading
        title="My account"
        subtitle={
          user ? `${user.username} · ${user.email}${user.role ? ` · ${user.role.roleName}` : ''}` : undefined
        }
      />
      <Box sx={{ display: 'grid', gap: 3 }}>
        <Section
          icon={<PhonelinkLockIcon />}
          title="Two-factor sign-in"
          subtitle="A code from your phone as well as your password, so a stolen password is not enough."
        >
          <TwoFactor />
        </Section>
        <Section
          icon={<KeyIcon />}
          title="Password"
          subtitle="Enter your current password to choose a new one."
        >
          <ChangePassword />
        </Section>
        <Section
          icon={<ComputerIcon />}
          title="Where you are signed in"
          subtitle="Every browser signed in to your account. End any you do not recognise."
          action={<EndOthersButton />}
        >
          <Divider sx={{ mb: 0.5 }} />
          <Sessions />
        </Section>
        <Section
          icon={<FolderZipIcon />}
          title="Your data"
          subtitle="Everything the console holds about you, in one ZIP file: your account, profile and picture, employee record, scores, sessions, sign-ins and the audit entries by or about you, as data and as a page to read."
        >
          <YourData />
        </Section>
      </Box>
    </Box>
  );
}
