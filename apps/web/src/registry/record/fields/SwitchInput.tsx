import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

interface Props<V extends FieldValues> {
  control: Control<V>;
  name: FieldPath<V>;
  id: string;
  label: string;
  disabled?: boolean;
  error?: string;
  help?: string;
}

/** An on / off field (a role's "Require two-factor sign-in"). */
export function SwitchInput<V extends FieldValues>({
  control,
  name,
  id,
  label,
  disabled,
  error,
  help,
}: Props<V>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControl error={Boolean(error)} sx={{ gridColumn: '1 / -1' }}>
          <FormControlLabel
            label={label}
            disabled={disabled}
            control={
              <Switch
                id={id}
                name={field.name}
                checked={field.value === true}
                disabled={disabled}
                onChange={(_e, checked) => field.onChange(checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { 'aria-describedby': help || error ? `${id}-help` : undefined } }}
              />
            }
          />
          {(error ?? help) && <FormHelperText id={`${id}-help`}>{error ?? help}</FormHelperText>}
        </FormControl>
      )}
    />
  );
}
