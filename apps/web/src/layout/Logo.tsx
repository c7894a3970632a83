import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { APP_NAME } from '../env';
import { BRAND_GREEN } from '../theme';

function LogoMark({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="10" fill={BRAND_GREEN} />
      <path
        d="M9 13l4.2 14h.2L17.6 16h.2l4.2 11h.2L26.4 13"
        fill="none"
        stroke="#fff"
        strokeWidth="3.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="31" cy="13" r="2.6" fill="#c8f2d9" />
    </svg>
  );
}

/** The header logo: always a way home. */
export function Logo({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Box
      component={RouterLink}
      to="/"
      onClick={onNavigate}
      aria-label={`${APP_NAME} home`}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1.25,
        textDecoration: 'none',
        color: 'text.primary',
        borderRadius: 1,
        flexShrink: 0,
      }}
    >
      <LogoMark />
      <Typography component="span" sx={{ fontWeight: 800, fontSize: '1.1rem', letterSpacing: '-0.01em' }}>
        Workforce{' '}
        <Box component="span" sx={{ fontWeight: 500, color: 'text.secondary' }}>
          Console
        </Box>
      </Typography>
    </Box>
  );
}
