import PersonIcon from '@mui/icons-material/Person';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { type Credentials, useSignIn } from '../auth/useSignIn';
import { BRAND_GREEN } from '../theme';
import { usePasswordVisibility } from '../ui/usePasswordVisibility';

/**
 * What an outlined TextField renders, without TextField itself: that one also imports Select,
 * and with it Menu, Popover and Modal, which nothing on the login screen uses.
 */
function OutlinedField({
  id,
  label,
  ...input
}: Omit<OutlinedInputProps, 'label'> & { id: string; label: string }) {
  return (
    <FormControl variant="outlined" fullWidth>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput {...input} id={id} label={label} fullWidth />
    </FormControl>
  );
}

/** The fields as typed: uncontrolled inputs, read once on submit. */
function readForm(form: HTMLFormElement): Credentials {
  const data = new FormData(form);
  return { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
}

export function LoginPage() {
  const signIn = useSignIn();
  const password = usePasswordVisibility();

  // No client-side validation on login: the server has the only say. A form library would add
  // nothing here but weight to the first page every visitor loads.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signIn.mutate(readForm(event.currentTarget));
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: { md: '60vh' } }}>
      <Card sx={{ width: '100%', maxWidth: 420, boxShadow: '0 12px 40px rgba(23,33,43,0.08)' }}>
        <CardContent sx={{ p: { xs: 3, sm: 5 } }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
            <Avatar sx={{ bgcolor: BRAND_GREEN, width: 56, height: 56, mb: 1.5 }}>
              <PersonIcon fontSize="large" aria-hidden="true" />
            </Avatar>
            <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
              Login
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              Sign in to continue to the console
            </Typography>
          </Box>
          <Box
            component="form"
            noValidate
            onSubmit={onSubmit}
            sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
          >
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
        </CardContent>
      </Card>
    </Box>
  );
}
