import { alpha, createTheme } from '@mui/material/styles';

export const BRAND_GREEN = '#009746';
/**
 * White text on BRAND_GREEN reaches only 3.8:1; text-bearing surfaces use this shade (5.7:1 on
 * white) so buttons and links meet WCAG AA while the brand colour stays on icons and accents.
 */
export const BRAND_GREEN_TEXT = '#00773a';
const BRAND_GREEN_DEEP = '#005f2e';

const focusRing = {
  outline: `3px solid ${alpha(BRAND_GREEN, 0.55)}`,
  outlineOffset: 2,
};

export const theme = createTheme({
  palette: {
    primary: { main: BRAND_GREEN, dark: BRAND_GREEN_DEEP, contrastText: '#ffffff' },
    secondary: { main: '#1f2a37' },
    background: { default: '#f4f6f5', paper: '#ffffff' },
    text: { primary: '#17212b', secondary: '#4b5563' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    h1: { fontSize: '2rem', fontWeight: 700, letterSpacing: '-0.01em' },
    h2: { fontSize: '1.5rem', fontWeight: 700 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        html: { scrollBehavior: 'auto' },
        // Keyboard users always see where they are, whatever the component's own focus styling.
        ':focus-visible': focusRing,
        a: { color: BRAND_GREEN_TEXT },
        // Set on the toast container rather than :root so they win over the bundled stylesheet's defaults.
        '.Toastify': {
          '--toastify-color-success': BRAND_GREEN,
          '--toastify-color-progress-success': BRAND_GREEN,
          '--toastify-font-family': 'inherit',
          '--toastify-text-color-light': '#374151',
        },
      },
    },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        containedPrimary: {
          backgroundColor: BRAND_GREEN_TEXT,
          '&:hover': { backgroundColor: BRAND_GREEN_DEEP },
        },
        textPrimary: { color: BRAND_GREEN_TEXT },
        outlinedPrimary: { color: BRAND_GREEN_TEXT, borderColor: alpha(BRAND_GREEN_TEXT, 0.5) },
      },
    },
    MuiLink: { styleOverrides: { root: { color: BRAND_GREEN_TEXT } } },
    MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused': { color: BRAND_GREEN_TEXT } } } },
    MuiTab: { styleOverrides: { root: { '&.Mui-selected': { color: BRAND_GREEN_TEXT } } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
  },
});
