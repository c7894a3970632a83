import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { FormFieldKind } from '@wfc/contract';
import { useState } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

/** The definitions' text kinds, plus the profile's phone and web-address fields. */
export type TextKind = Exclude<FormFieldKind, 'select' | 'multiselect' | 'json'> | 'tel' | 'url';

interface Props<V extends FieldValues> {
  control: Control<V>;
  name: FieldPath<V>;
  id: string;
  label: string;
  kind?: TextKind;
  readOnly: boolean;
  error?: string;
  /** Guidance under the field, still shown (as guidance) under an error. */
  help?: string;
  placeholder?: string;
  autoComplete?: string;
}

/** A form's text input: plain, multi-line, date, e-mail, or a password that can be shown. */
export function TextInput<V extends FieldValues>({
  control,
  name,
  id,
  label,
  kind = 'text',
  readOnly,
  error,
  help,
  placeholder,
  autoComplete,
}: Props<V>) {
  const [showPassword, setShowPassword] = useState(false);
  const isPassword = kind === 'password';
  const type = isPassword ? (showPassword ? 'text' : 'password') : kind === 'textarea' ? undefined : kind;
  const helper =
    error && help ? (
      <>
        {error}
        {/* The guidance stays readable as guidance, not as part of the error. */}
        <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {help}
        </Box>
      </>
    ) : (
      (error ?? help)
    );
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          id={id}
          label={label}
          type={type}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          name={field.name}
          fullWidth
          multiline={kind === 'textarea'}
          minRows={kind === 'textarea' ? 3 : undefined}
          placeholder={placeholder}
          error={Boolean(error)}
          helperText={helper}
          autoComplete={autoComplete}
          slotProps={{
            inputLabel: kind === 'date' || readOnly ? { shrink: true } : undefined,
            input: {
              readOnly,
              endAdornment: isPassword ? (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={showPassword ? 'Hide password' : 'Show password'}
                    onClick={() => setShowPassword((s) => !s)}
                    edge="end"
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      )}
    />
  );
}
