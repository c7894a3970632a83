import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { ApiError } from '../api/client';
import { usePasswordVisibility } from '../ui/usePasswordVisibility';

/** A password input with its show / hide button. */
export function PasswordInput(props: TextFieldProps) {
  const visibility = usePasswordVisibility();
  return (
    <TextField
      {...props}
      type={visibility.type}
      fullWidth
      slotProps={{ input: { endAdornment: visibility.toggle } }}
    />
  );
}

/** A 6-digit code from an authenticator app. */
export function CodeInput(props: TextFieldProps) {
  return (
    <TextField
      label="Code from your authenticator app"
      placeholder="123456"
      autoComplete="one-time-code"
      fullWidth
      {...props}
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
    />
  );
}

/** The server's message for one field of a refused call. */
export const serverFieldError = (err: unknown, field: string) =>
  err instanceof ApiError ? err.errors?.find((e) => e.field === field)?.message : undefined;

/** A refusal that no field explains (429, 409, a network failure): shown above the form. */
export function formError(err: unknown, fields: readonly string[], fallback: string): string | undefined {
  if (!err) return undefined;
  if (err instanceof ApiError) {
    if (err.errors?.some((e) => fields.includes(e.field))) return undefined;
    return err.message || fallback;
  }
  return fallback;
}
