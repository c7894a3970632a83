import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

const JSON_MAX_ROWS = 20;

interface Props<V extends FieldValues> {
  control: Control<V>;
  name: FieldPath<V>;
  id: string;
  label: string;
}

/** A read-only, pretty-printed JSON value (an audit record's before, after and changes). */
export function JsonInput<V extends FieldValues>({ control, name, id, label }: Props<V>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        const json =
          field.value === null || field.value === undefined ? '' : JSON.stringify(field.value, null, 2);
        // Unwrapped JSON scrolls sideways; autosizing would count wrapped lines, so rows are set here.
        const rows = Math.min(Math.max(json.split('\n').length, 2), JSON_MAX_ROWS);
        return (
          <TextField
            id={id}
            label={label}
            value={json}
            placeholder="—"
            multiline
            rows={rows}
            fullWidth
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
              },
              inputLabel: { shrink: true },
              htmlInput: { wrap: 'off', style: { fontSize: '0.85rem', overflow: 'auto' } },
            }}
          />
        );
      }}
    />
  );
}
