import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useDepartments } from './insights/api';

interface Props {
  value: string;
  onChange(departmentCode: string): void;
  sx?: object;
}

/** Every department or one: the grid's and the overview's filter ('' is every department). */
export function DepartmentSelect({ value, onChange, sx }: Props) {
  const departments = useDepartments();
  const options = departments.data?.data ?? [];
  // Until the options arrive a chosen code has no name; show it as chosen anyway rather than clear it.
  const known = value === '' || options.some((d) => d.departmentCode === value);
  return (
    <TextField
      select
      size="small"
      label="Department"
      value={known ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      disabled={departments.isPending}
      helperText={departments.error ? 'Departments could not be loaded' : undefined}
      error={Boolean(departments.error)}
      // "All departments" shows as a value, under the label, rather than as an empty field.
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      sx={sx}
    >
      <MenuItem value="">All departments</MenuItem>
      {options.map((d) => (
        <MenuItem key={d.departmentCode} value={d.departmentCode}>
          {d.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
