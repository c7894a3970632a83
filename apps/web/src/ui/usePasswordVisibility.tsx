import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { type ReactNode, useState } from 'react';

export interface PasswordVisibility {
  /** The input's type: 'password', or 'text' while the password is shown. */
  type: 'password' | 'text';
  /** The eye button at the input's end that shows and hides the password. */
  toggle: ReactNode;
}

/**
 * A password input that can be shown: its type and its show / hide button, for any MUI input
 * (a TextField's `slotProps.input.endAdornment`, an OutlinedInput's `endAdornment`).
 */
export function usePasswordVisibility(): PasswordVisibility {
  const [shown, setShown] = useState(false);
  return {
    type: shown ? 'text' : 'password',
    toggle: (
      <InputAdornment position="end">
        <IconButton
          aria-label={shown ? 'Hide password' : 'Show password'}
          onClick={() => setShown((v) => !v)}
          edge="end"
        >
          {shown ? <VisibilityOff /> : <Visibility />}
        </IconButton>
      </InputAdornment>
    ),
  };
}
