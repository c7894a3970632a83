import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { FormFieldKind } from '@wfc/contract';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { usePasswordVisibility } from '../../../ui/usePasswordVisibility';
import { dateFieldMessage, dateInputPattern } from './dateFormat';
import { REQUIRED_MARK, useRequired } from './required';

/** The definitions' text kinds, plus the profile's phone and web-address fields. */
export type TextKind = Exclude<FormFieldKind, 'select' | 'multiselect' | 'json' | 'switch'> | 'tel' | 'url';

interface Props<V extends FieldValues> {
  control: Control<V>;
  name: FieldPath<V>;
  id: string;
  label: string;
  kind?: TextKind;
  /** A view shows the value and takes no input. */
  readOnly?: boolean;
  /** Not offered to this user (one's own password): shown greyed, its value left as it is. */
  disabled?: boolean;
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
  readOnly = false,
  disabled = false,
  error,
  help,
  placeholder,
  autoComplete,
}: Props<V>) {
  const password = usePasswordVisibility();
  const required = useRequired(name) && !readOnly && !disabled;
  const isPassword = kind === 'password';
  const type = isPassword ? password.type : kind === 'textarea' ? undefined : kind;
  const helperFor = (message: string | undefined) =>
    message && help ? (
      <>
        {message}
        {/* The guidance stays readable as guidance, not as part of the error. */}
        <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {help}
        </Box>
      </>
    ) : (
      (message ?? help)
    );
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        const value = (field.value as string | undefined) ?? '';
        const message = error && kind === 'date' ? dateFieldMessage(error, value, dateInputPattern()) : error;
        return (
          <TextField
            id={id}
            label={label}
            type={type}
            required={required}
            disabled={disabled}
            value={value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            name={field.name}
            fullWidth
            multiline={kind === 'textarea'}
            minRows={kind === 'textarea' ? 3 : undefined}
            placeholder={placeholder}
            error={Boolean(error)}
            helperText={helperFor(message)}
            autoComplete={autoComplete}
            slotProps={{
              inputLabel: {
                shrink: kind === 'date' || readOnly ? true : undefined,
                // MUI's own asterisk would become part of the label's text: REQUIRED_MARK instead.
                required: false,
                sx: required ? REQUIRED_MARK : undefined,
              },
              input: {
                readOnly,
                endAdornment: isPassword ? password.toggle : undefined,
              },
            }}
          />
        );
      }}
    />
  );
}
