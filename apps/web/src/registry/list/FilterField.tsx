import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect, useState } from 'react';

interface Props {
  keyword: string;
  label: string;
  onSubmit(keyword: string): void;
}

/** The list's keyword filter: applied on Enter or the search button, not on every keystroke. */
export function FilterField({ keyword, label, onSubmit }: Props) {
  const [text, setText] = useState(keyword);
  // Back navigation or a link can change the keyword under the field.
  useEffect(() => setText(keyword), [keyword]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(text);
  };
  return (
    <Box component="form" role="search" onSubmit={submit} sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}>
      <TextField
        size="small"
        fullWidth
        placeholder="Filter..."
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': label },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                {text && (
                  <IconButton
                    aria-label="Clear filter"
                    edge="end"
                    size="small"
                    onClick={() => {
                      setText('');
                      if (keyword) onSubmit('');
                    }}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                )}
                <IconButton aria-label="Apply filter" type="submit" edge="end" size="small">
                  <SearchIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
