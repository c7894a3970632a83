import AccessTimeIcon from '@mui/icons-material/AccessTime';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import type { SessionUser } from '@wfc/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { api, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { Spinner } from '../ui/Spinner';
import { usePasswordVisibility } from '../ui/usePasswordVisibility';
import { useAuth, useSessionControl } from './auth';
import { formatRemaining } from './sessionClock';
import { LOGIN_FAILURE, MfaRequired, requestSignIn, requestVerifyMfa } from './useSignIn';
import { useSignOut } from './useSignOut';

export const SIGN_IN_TITLE = 'Sign in to continue';
export const IDLE_TITLE = 'Are you still there?';
export const FINAL_TITLE = 'Your session is ending';
export const STAY_FAILURE = 'Could not keep the session open';

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function DialogHeading({ id, icon, children }: { id: string; icon: ReactNode; children: ReactNode }) {
  return (
    <DialogTitle id={id} component="div" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, pb: 1 }}>
      <Avatar sx={{ bgcolor: 'brand.main', color: 'common.white', width: 40, height: 40 }} aria-hidden="true">
        {icon}
      </Avatar>
      <Typography component="h2" variant="h3">
        {children}
      </Typography>
    </DialogTitle>
  );
}

interface SignInDialogProps {
  /** Whoever was signed in when the session ended. */
  user: SessionUser;
  /** Sign out instead: the drafts are dropped and the login screen shows. */
  onSignedOut(): void;
  /** Someone else signed in: the drafts are dropped and the app goes home as them. */
  onOtherUser(user: SessionUser, sentAt: number, message: string): void;
}

/**
 * The dialog's sign-in: the same user's resumes the held calls, another user's is handed on;
 * after the password, an account with two-factor sign-in is asked for its code here too.
 */
function useSignInAgain(user: SessionUser, onOtherUser: SignInDialogProps['onOtherUser']) {
  const { gate, signedIn } = useSessionControl();
  const [error, setError] = useState<string | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const signIn = useMutation({
    mutationFn: (input: { username: string; password: string; code: string }) =>
      needsCode
        ? requestVerifyMfa({ code: input.code })
        : requestSignIn({ username: input.username, password: input.password }),
    onSuccess: ({ user: who, sentAt, message }) => {
      if (who.userCode === user.userCode) {
        signedIn(who, sentAt);
        gate.resume();
        return;
      }
      gate.noteSignIn(false);
      onOtherUser(who, sentAt, message);
    },
    onError: (err) => {
      if (err instanceof MfaRequired) {
        setNeedsCode(true);
        setError(null);
        return;
      }
      setError(errorMessage(err, LOGIN_FAILURE));
    },
  });
  return { signIn, needsCode, error, setError };
}

/**
 * The session has ended while the screen held unsaved input. Signing in again as the same user
 * sends the waiting calls again, and the screen carries on as it was; another user's sign-in
 * discards the drafts. The user name is filled in but may be changed: the note under it says
 * what signing in as someone else does. Nothing closes the dialog but signing in or out.
 */
export function SignInDialog({ user, onSignedOut, onOtherUser }: SignInDialogProps) {
  const [username, setUsername] = useState(user.username);
  const password = usePasswordVisibility();
  const { signIn, needsCode, error, setError } = useSignInAgain(user, onOtherUser);
  const otherName = !sameName(username, user.username);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const data = new FormData(event.currentTarget);
    signIn.mutate({
      username,
      password: String(data.get('password') ?? ''),
      code: String(data.get('code') ?? ''),
    });
  };

  return (
    <Dialog
      open
      fullWidth
      maxWidth="xs"
      aria-labelledby="session-sign-in-title"
      aria-describedby="session-sign-in-text"
    >
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogHeading id="session-sign-in-title" icon={<LockOutlinedIcon />}>
          {SIGN_IN_TITLE}
        </DialogHeading>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          <Typography id="session-sign-in-text" variant="body2" color="text.secondary">
            Your session has ended. Sign in again to carry on where you left off: your unsaved changes are
            kept.
          </Typography>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            name="username"
            label="Username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            fullWidth
            helperText={
              otherName
                ? 'Signing in as another user discards your unsaved changes and opens Home.'
                : undefined
            }
            slotProps={{ formHelperText: { sx: { color: 'warning.dark' } } }}
          />
          <TextField
            name="password"
            label="Password"
            type={password.type}
            autoComplete="current-password"
            autoFocus
            fullWidth
            slotProps={{ input: { endAdornment: password.toggle } }}
          />
          {needsCode && (
            <TextField
              name="code"
              label="Code from your authenticator app"
              autoComplete="one-time-code"
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
            />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap-reverse' }}>
          <Button onClick={onSignedOut} disabled={signIn.isPending}>
            Sign out
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={signIn.isPending}
            startIcon={signIn.isPending ? <Spinner label="Signing in" /> : undefined}
          >
            {signIn.isPending ? 'Signing in...' : 'Sign in'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** Re-renders every quarter second while mounted, with the time left until `deadline`. */
function useRemaining(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return deadline - now;
}

interface IdleWarningDialogProps {
  /** When the session ends, on this browser's clock. */
  deadline: number;
  /** The session reaches its absolute lifetime: staying is not possible, only a fresh sign-in. */
  final: boolean;
  onDismiss(): void;
}

/**
 * Shown shortly before the idle expiry. "Stay signed in" makes a call that touches the session
 * (GetSession), whose answer moves the deadline on; any other call does the same by itself.
 */
export function IdleWarningDialog({ deadline, final, onDismiss }: IdleWarningDialogProps) {
  const { user, setUser } = useAuth();
  const { signOut, signingOut } = useSignOut();
  const remaining = useRemaining(deadline);
  const stay = useMutation({
    mutationFn: async () => {
      const sentAt = Date.now();
      return { res: await api.get<SessionUser>('GetSession'), sentAt };
    },
    onSuccess: ({ res, sentAt }) => {
      if (res.data && res.data.userCode === user?.userCode) setUser(res.data, sentAt);
    },
    onError: (err) => notify.error(errorMessage(err, STAY_FAILURE)),
  });
  const busy = stay.isPending || signingOut;

  return (
    <Dialog
      open
      fullWidth
      maxWidth="xs"
      onClose={() => (final ? onDismiss() : busy || stay.mutate())}
      aria-labelledby="session-idle-title"
      aria-describedby="session-idle-text"
      slotProps={{ paper: { role: 'alertdialog' } }}
    >
      <DialogHeading id="session-idle-title" icon={<AccessTimeIcon />}>
        {final ? FINAL_TITLE : IDLE_TITLE}
      </DialogHeading>
      <DialogContent>
        <Box id="session-idle-text">
          <Typography sx={{ fontWeight: 600 }}>
            You will be signed out in{' '}
            <Box component="span" data-testid="session-countdown" sx={{ whiteSpace: 'nowrap' }}>
              {formatRemaining(remaining)}
            </Box>
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {final
              ? 'Sessions last a limited time, however active. Save your work; you will then be asked to sign in again.'
              : 'For your security, sessions end after a period without activity.'}
          </Typography>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap-reverse' }}>
        <Button onClick={() => signOut()} disabled={busy}>
          {signingOut ? 'Signing out' : 'Sign out'}
        </Button>
        {final ? (
          <Button variant="contained" onClick={onDismiss} autoFocus disableFocusRipple>
            OK
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={() => stay.mutate()}
            disabled={busy}
            autoFocus
            disableFocusRipple
            startIcon={stay.isPending ? <Spinner label="Keeping the session open" /> : undefined}
          >
            Stay signed in
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
