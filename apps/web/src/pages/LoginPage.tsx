import PersonIcon from '@mui/icons-material/Person';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import type { SignInOptions } from '@wfc/contract';
import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { API_BASE_URL, ApiError, api, errorMessage } from '../api/client';
import { loginPath, RETURN_PARAM, returnTargetFrom } from '../auth/returnTarget';
import {
  type Credentials,
  LOGIN_FAILURE,
  MfaRequired,
  useCompleteSingleSignOn,
  useSignIn,
  useVerifyMfa,
} from '../auth/useSignIn';
import { softShadow } from '../theme';
import { FailureAlert } from '../ui/FailureAlert';
import { usePasswordVisibility } from '../ui/usePasswordVisibility';

/**
 * What an outlined TextField renders, without TextField itself: that one also imports Select,
 * and with it Menu, Popover and Modal, which nothing on the login screen uses.
 */
function OutlinedField({
  id,
  label,
  error,
  ...input
}: Omit<OutlinedInputProps, 'label' | 'error'> & { id: string; label: string; error?: string }) {
  return (
    <FormControl variant="outlined" fullWidth error={Boolean(error)}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        label={label}
        fullWidth
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <FormHelperText id={`${id}-error`}>{error}</FormHelperText>}
    </FormControl>
  );
}

/** Why a single sign-on came back to this page (`?sso=`), in the user's words. */
const SSO_FAILURES: Record<string, string> = {
  'unknown-user':
    'Your company account is not a user of this console. Ask your system administrator to add you.',
  'not-linked':
    'Your company account is not linked to a user of this console. Ask your system administrator to link it.',
  disabled: 'Your user of this console is disabled. Ask your system administrator to enable it.',
  expired: 'The single sign-on took too long or was started in another browser. Please try again.',
  failed: 'Single sign-on failed. Try again, or sign in with your username and password.',
};

/** The field error the server gave for `field`, if the call failed on it. */
const fieldError = (err: unknown, field: string) =>
  err instanceof ApiError ? err.errors?.find((e) => e.field === field)?.message : undefined;

/**
 * The second step for an account with two-factor sign-in: a 6-digit code from the app, or one of
 * the recovery codes.
 */
function SecondFactorStep({ onBack }: { onBack: () => void }) {
  const verify = useVerifyMfa();
  const [recovery, setRecovery] = useState(false);
  const field = recovery ? 'recoveryCode' : 'code';
  const error = fieldError(verify.error, field) ?? fieldError(verify.error, 'code');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(field) ?? '');
    verify.mutate(recovery ? { recoveryCode: value } : { code: value });
  };
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
    >
      <Typography variant="body2" color="text.secondary">
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code your authenticator app shows for Workforce Console.'}
      </Typography>
      <OutlinedField
        key={field}
        name={field}
        id={`login-${field}`}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        placeholder={recovery ? 'XXXXX-XXXXX' : '123456'}
        autoComplete="one-time-code"
        inputProps={recovery ? { maxLength: 20 } : { inputMode: 'numeric', maxLength: 7 }}
        autoFocus
        error={error}
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={verify.isPending}
        sx={{ py: 1.25 }}
      >
        {verify.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Button variant="text" size="small" onClick={() => setRecovery((r) => !r)}>
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </Button>
        <Button variant="text" size="small" onClick={onBack}>
          Start again
        </Button>
      </Box>
    </Box>
  );
}

/**
 * What the sign-in page offers besides the password. Read here rather than through the query cache,
 * which the shell empties whenever nobody is signed in.
 */
function useSignInOptions(): SignInOptions | undefined {
  const [options, setOptions] = useState<SignInOptions>();
  useEffect(() => {
    let current = true;
    api.get<SignInOptions>('GetSignInOptions').then(
      (res) => current && setOptions(res.data),
      // Without the options the password form is all there is, as before single sign-on existed.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return options;
}

/** "Sign in with {label}" when the console is configured for single sign-on. */
function SingleSignOn() {
  const { search } = useLocation();
  const sso = useSignInOptions()?.sso;
  if (!sso) return null;
  const next = returnTargetFrom(search);
  const href = `${API_BASE_URL}${sso.loginUrl}?${new URLSearchParams({ [RETURN_PARAM]: next })}`;
  return (
    <>
      {/* A rule with "or" on it: two lines of the card's border colour either side of the word. */}
      <Box
        aria-hidden="true"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          my: 3,
          color: 'text.secondary',
          typography: 'body2',
          '&::before, &::after': { content: '""', flex: 1, borderTop: 1, borderColor: 'divider' },
        }}
      >
        or
      </Box>
      <Button component="a" href={href} variant="outlined" size="large" fullWidth sx={{ py: 1.25 }}>
        Sign in with {sso.label}
      </Button>
    </>
  );
}

/** What the error toast of a failed sign-in said (useSignIn), kept on the card. */
const signInFailure = (err: unknown) =>
  err instanceof ApiError ? err.message || LOGIN_FAILURE : errorMessage(err, DEFAULT_UNEXPECTED_MESSAGE);

/** The fields as typed: uncontrolled inputs, read once on submit. */
function readForm(form: HTMLFormElement): Credentials {
  const data = new FormData(form);
  return { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
}

export function LoginPage() {
  const signIn = useSignIn();
  const password = usePasswordVisibility();
  const { search } = useLocation();
  const navigate = useNavigate();
  const sso = new URLSearchParams(search).get('sso') ?? '';
  const ssoFailure = SSO_FAILURES[sso];
  useCompleteSingleSignOn(sso === 'signed-in');
  // Back from the provider, which did not check a second factor: the console asks for its own.
  const ssoSecondStep = sso === 'mfa-required';
  const secondStep = signIn.error instanceof MfaRequired || ssoSecondStep;
  const startAgain = () => {
    signIn.reset();
    // The page asked for stays; the provider's word that a code is awaited goes.
    if (ssoSecondStep) navigate(loginPath(returnTargetFrom(search)));
  };

  // No client-side validation on login: the server has the only say. A form library would add
  // nothing here but weight to the first page every visitor loads.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signIn.mutate(readForm(event.currentTarget));
  };
  // A refused sign-in stays said on the card (the toast closes after a second) until the user
  // types again or submits again.
  const refusal = signIn.isError && !secondStep ? signInFailure(signIn.error) : undefined;
  const onInput = () => {
    if (signIn.isError && !secondStep) signIn.reset();
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: { md: '60vh' } }}>
      <Card sx={{ width: '100%', maxWidth: 420, boxShadow: softShadow('0 12px 40px', 0.08) }}>
        <CardContent sx={{ p: { xs: 3, sm: 5 } }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
            <Avatar sx={{ bgcolor: 'brand.main', color: 'common.white', width: 56, height: 56, mb: 1.5 }}>
              <PersonIcon fontSize="large" aria-hidden="true" />
            </Avatar>
            <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
              Login
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {secondStep ? 'Two-factor sign-in' : 'Sign in to continue to the console'}
            </Typography>
          </Box>
          {ssoFailure && !secondStep && (
            <Alert severity="error" sx={{ mb: 2.5 }}>
              {ssoFailure}
            </Alert>
          )}
          {secondStep ? (
            <SecondFactorStep onBack={startAgain} />
          ) : (
            <Box
              component="form"
              noValidate
              aria-label="Login"
              onSubmit={onSubmit}
              onInput={onInput}
              sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
            >
              {refusal && <FailureAlert title="Not signed in" message={refusal} />}
              <OutlinedField
                name="username"
                id="login-username"
                label="Username"
                placeholder="Enter username"
                autoComplete="username"
                autoFocus
              />
              <OutlinedField
                name="password"
                id="login-password"
                label="Password"
                placeholder="Password"
                type={password.type}
                autoComplete="current-password"
                endAdornment={password.toggle}
              />
              <Button
                type="submit"
                variant="contained"
                size="large"
                fullWidth
                disabled={signIn.isPending}
                sx={{ py: 1.25 }}
              >
                {signIn.isPending ? 'Logging in...' : 'Login'}
              </Button>
            </Box>
          )}
          {!secondStep && <SingleSignOn />}
        </CardContent>
      </Card>
    </Box>
  );
}
