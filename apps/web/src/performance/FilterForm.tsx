import ClearIcon from '@mui/icons-material/Clear';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect, useState } from 'react';
import { DepartmentSelect } from './DepartmentSelect';
import { isIsoDate } from './query';

interface Props {
  date: string;
  keyword: string;
  departmentCode: string;
  onApply(date: string, keyword: string): void;
  /** A department is applied as soon as it is chosen, like any selector. */
  onDepartment(departmentCode: string): void;
}

/** The date, department and employee filter the grid shows; date and text change on Apply. */
export function FilterForm({ date, keyword, departmentCode, onApply, onDepartment }: Props) {
  const [dateText, setDateText] = useState(date);
  const [keywordText, setKeywordText] = useState(keyword);
  // Back navigation or a link can change the query under the form.
  useEffect(() => setDateText(date), [date]);
  useEffect(() => setKeywordText(keyword), [keyword]);
  const valid = isIsoDate(dateText);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid) onApply(dateText, keywordText);
  };
  return (
    <Box
      component="form"
      role="search"
      aria-label="Performance filter"
      onSubmit={submit}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5 }}
    >
      <TextField
        size="small"
        type="date"
        label="Date"
        value={dateText}
        onChange={(e) => setDateText(e.target.value)}
        error={!valid}
        helperText={valid ? undefined : 'Choose a date'}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ flex: { xs: '1 1 100%', sm: '0 0 12rem' } }}
      />
      <DepartmentSelect
        value={departmentCode}
        onChange={onDepartment}
        sx={{ flex: { xs: '1 1 100%', sm: '0 0 14rem' } }}
      />
      <TextField
        size="small"
        placeholder="Filter..."
        value={keywordText}
        onChange={(e) => setKeywordText(e.target.value)}
        sx={{ flex: { xs: '1 1 100%', sm: '0 1 20rem' } }}
        slotProps={{
          htmlInput: { 'aria-label': 'Filter employees by name or id' },
          input: {
            endAdornment: keywordText ? (
              <InputAdornment position="end">
                <IconButton
                  aria-label="Clear filter"
                  edge="end"
                  size="small"
                  onClick={() => setKeywordText('')}
                >
                  <ClearIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={!valid}
        sx={{ minHeight: 40, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
      >
        Apply
      </Button>
    </Box>
  );
}
