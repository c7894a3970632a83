import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { HIDDEN_FIELD_HELP, HIDDEN_FIELD_TEXT } from '@wfc/contract';

/**
 * Where a value is personal data the viewer may not see (need-to-know): said as hidden, never
 * as empty, with why on hover and to assistive technology.
 */
export function HiddenValue() {
  return (
    <Tooltip title={HIDDEN_FIELD_HELP}>
      <Box
        component="span"
        aria-label={`${HIDDEN_FIELD_TEXT}: ${HIDDEN_FIELD_HELP}`}
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 0.5,
          color: 'text.secondary',
          fontStyle: 'italic',
          whiteSpace: 'nowrap',
        }}
      >
        <LockOutlined sx={{ fontSize: '1em' }} aria-hidden />
        {HIDDEN_FIELD_TEXT}
      </Box>
    </Tooltip>
  );
}
