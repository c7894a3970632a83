import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import type { MfaEnrollment } from '@wfc/contract';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/auth';
import { useSignOut } from '../auth/useSignOut';
import { softShadow } from '../theme';
import { notify } from '../ui/notify';
import { PageHeading } from '../ui/PageHeading';
import { confirmMfaEnrollment, startMfaEnrollment, useRefreshSessionUser } from './api';
import { recoveryCodesFile } from './describeSession';
import { CodeInput, formError, PasswordInput, serverFieldError } from './fields';

const STEPS = ['Confirm it is you', 'Connect your app', 'Save recovery codes'];

/** The secret in groups of four, as authenticator apps ask for it when typed. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function PasswordStep({ onStarted }: { onStarted: (enrollment: MfaEnrollment) => void }) {
  const start = useMutation({
    mutationFn: startMfaEnrollment,
    onSuccess: (enrollment) => enrollment && onStarted(enrollment),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    start.mutate(String(new FormData(event.currentTarget).get('currentPassword') ?? ''));
  };
  const problem = formError(start.error, ['currentPassword'], 'Two-factor sign-in could not be set up');
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2.5, maxWidth: 420 }}>
      <Typography color="text.secondary">Enter your password to begin.</Typography>
      {problem && <Alert severity="error">{problem}</Alert>}
      <PasswordInput
        name="currentPassword"
        label="Current password"
        autoComplete="current-password"
        autoFocus
        error={Boolean(serverFieldError(start.error, 'currentPassword'))}
        helperText={serverFieldError(start.error, 'currentPassword')}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={start.isPending}>
          Continue
        </Button>
      </Box>
    </Box>
  );
}

function ConnectStep({
  enrollment,
  onConfirmed,
}: {
  enrollment: MfaEnrollment;
  onConfirmed: (codes: string[]) => void;
}) {
  const confirm = useMutation({ mutationFn: confirmMfaEnrollment, onSuccess: onConfirmed });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    confirm.mutate(String(new FormData(event.currentTarget).get('code') ?? ''));
  };
  const problem = formError(confirm.error, ['code'], 'Two-factor sign-in could not be turned on');
  return (
    <Box
      sx={{
        display: 'grid',
        gap: { xs: 3, md: 5 },
        gridTemplateColumns: { xs: '1fr', md: 'auto 1fr' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ justifySelf: { xs: 'center', md: 'start' }, textAlign: 'center' }}>
        <Box
          data-testid="mfa-qr"
          sx={{
            p: 2,
            // A scanner reads dark on light: the code keeps its white tile in the dark scheme too.
            bgcolor: 'common.white',
            border: 1,
            borderColor: 'divider',
            borderRadius: 2,
            display: 'inline-flex',
          }}
        >
          <QRCodeSVG
            value={enrollment.otpauthUrl}
            size={208}
            marginSize={2}
            title="QR code for your authenticator app"
          />
        </Box>
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, minWidth: 0 }}>
        <Typography color="text.secondary">
          Scan the QR code with your authenticator app, or add an account by hand with this key (time-based):
        </Typography>
        <Typography
          data-testid="mfa-secret"
          sx={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: '1.05rem',
            letterSpacing: '0.05em',
            bgcolor: (theme) => theme.alpha(theme.vars.palette.brand.main, 0.06),
            borderRadius: 1,
            px: 1.5,
            py: 1,
            overflowWrap: 'anywhere',
          }}
        >
          {grouped(enrollment.secret)}
        </Typography>
        <Box
          component="form"
          noValidate
          onSubmit={onSubmit}
          sx={{ display: 'grid', gap: 2.5, maxWidth: 360 }}
        >
          {problem && <Alert severity="error">{problem}</Alert>}
          <CodeInput
            name="code"
            label="Then enter the code it shows"
            autoFocus
            error={Boolean(serverFieldError(confirm.error, 'code'))}
            helperText={serverFieldError(confirm.error, 'code')}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={confirm.isPending}>
              Turn on
            </Button>
          </Box>
        </Box>
      </Box>
    </Box>
  );
}

function RecoveryCodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { user } = useAuth();
  const text = recoveryCodesFile(codes, user?.username ?? '', new Date());
  const copy = () =>
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => notify.success('Recovery codes copied'),
      () => notify.error('The codes could not be copied; download them instead'),
    );
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'workforce-console-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2.5 }}>
      <Alert severity="success" icon={<CheckCircleIcon />}>
        Two-factor sign-in is on.
      </Alert>
      <Typography color="text.secondary">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep
        them somewhere safe: they are shown only now.
      </Typography>
      <Box
        component="ol"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        sx={{
          m: 0,
          p: 2,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(5, 1fr)' },
          gap: 1.5,
          bgcolor: (theme) => theme.alpha(theme.vars.palette.brand.main, 0.06),
          borderRadius: 2,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          fontSize: '1rem',
          textAlign: 'center',
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy}>
          Copy
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
          Download
        </Button>
        <Button variant="contained" onClick={onDone} sx={{ ml: { sm: 'auto' } }}>
          I have saved them
        </Button>
      </Box>
    </Box>
  );
}

/**
 * Setting up two-factor sign-in: the password, then the secret as a QR code and as text, then a
 * first code, then the recovery codes. A role that requires it opens this page and nothing else.
 */
export function TwoFactorSetupPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const refresh = useRefreshSessionUser();
  const { signOut } = useSignOut();
  const [enrollment, setEnrollment] = useState<MfaEnrollment>();
  const [codes, setCodes] = useState<string[]>();
  const required = Boolean(user?.role?.requireMfa && !user.mfaEnabled);
  const step = codes ? 2 : enrollment ? 1 : 0;

  const done = async () => {
    await refresh();
    navigate('/account', { replace: true });
  };

  return (
    <Box sx={{ maxWidth: 880, mx: 'auto' }}>
      <PageHeading
        title="Set up two-factor sign-in"
        subtitle="You will sign in with your password and a code from an authenticator app on your phone."
        actions={
          required ? (
            <Button variant="outlined" onClick={() => signOut()}>
              Sign out
            </Button>
          ) : (
            !codes && (
              <Button variant="outlined" onClick={() => navigate('/account')}>
                Cancel
              </Button>
            )
          )
        }
      />
      {required && !codes && (
        <Alert severity="info" sx={{ mb: 3 }}>
          Your role requires two-factor sign-in. Set it up to continue to the console.
        </Alert>
      )}
      <Card sx={{ boxShadow: softShadow('0 8px 28px', 0.06) }}>
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Stepper activeStep={step} alternativeLabel sx={{ mb: 4 }}>
            {STEPS.map((label) => (
              <Step key={label}>
                <StepLabel>{label}</StepLabel>
              </Step>
            ))}
          </Stepper>
          {codes ? (
            <RecoveryCodesStep codes={codes} onDone={done} />
          ) : enrollment ? (
            <ConnectStep enrollment={enrollment} onConfirmed={setCodes} />
          ) : (
            <PasswordStep onStarted={setEnrollment} />
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
