import { alpha, createTheme, type Overlays, type Theme } from '@mui/material/styles';

/** The brand accent, the same in both schemes: the logo, avatars, underlines, the spinner. */
export const BRAND_GREEN = '#009746';

/**
 * The colours of each scheme, named by what they do. Every pair that carries text meets WCAG AA
 * (4.5:1) and every accent meets 3:1 against what it stands on: test/shell/themeContrast.test.ts
 * checks them all.
 */
export interface SchemeTokens {
  /** Page background, and surfaces (cards, header, dialogs before their elevation overlay). */
  background: string;
  paper: string;
  /** Opaque table heads and empty chart areas. */
  subtle: string;
  /** Opaque, faintly green: the frozen averages of the performance grid. */
  tint: string;
  text: string;
  textSecondary: string;
  /**
   * Green that carries text: links, text and outlined buttons, selected tabs, focused labels, the
   * active menu item. White text on BRAND_GREEN reaches only 3.8:1, and BRAND_GREEN on a dark
   * surface too little for small text, so each scheme has its own shade.
   */
  brandText: string;
  /** Contained buttons: brandText as the fill, this as its text; brandHover the fill on hover. */
  onBrandText: string;
  brandHover: string;
  /** The colour of soft shadows under cards. */
  shadow: string;
  error: string;
  onError: string;
}

export const LIGHT: SchemeTokens = {
  background: '#f4f6f5',
  paper: '#ffffff',
  subtle: '#fafafa',
  tint: '#f5faf7',
  text: '#17212b',
  textSecondary: '#4b5563',
  brandText: '#00773a',
  onBrandText: '#ffffff',
  brandHover: '#005f2e',
  shadow: '#17212b',
  error: '#d32f2f',
  onError: '#ffffff',
};

export const DARK: SchemeTokens = {
  background: '#0f1412',
  paper: '#171d1a',
  subtle: '#1d2420',
  tint: '#1a241f',
  text: '#e6ebe8',
  textSecondary: '#a9b4ae',
  brandText: '#4cc38a',
  onBrandText: '#06170d',
  brandHover: '#6bd3a1',
  shadow: '#000000',
  error: '#ff6b6b',
  onError: '#1a0706',
};

/**
 * How much white a raised surface (menu, dialog) of the dark scheme mixes in: half of MUI's
 * default, topping out at 8%, so text keeps its contrast on dialogs too.
 */
export const darkOverlayAlpha = (elevation: number) =>
  elevation < 1 ? 0 : Math.min(0.08, (4.5 * Math.log(elevation + 1) + 2) / 200);

const darkOverlays = Array.from({ length: 25 }, (_, elevation) => {
  const a = darkOverlayAlpha(elevation).toFixed(3);
  return elevation === 0 ? 'none' : `linear-gradient(rgba(255 255 255 / ${a}), rgba(255 255 255 / ${a}))`;
}) as unknown as Overlays;

/** Where the scheme is written (`<html data-color-scheme="dark">`) and which storage key remembers it. */
export const COLOR_SCHEME_ATTRIBUTE = 'data-color-scheme';
export const COLOR_MODE_STORAGE_KEY = 'wfc-color-mode';
export const COLOR_SCHEME_STORAGE_KEY = 'wfc-color-scheme';

declare module '@mui/material/styles' {
  interface CssThemeVariables {
    enabled: true;
  }
  interface TypeBackground {
    subtle: string;
    tint: string;
  }
  interface Palette {
    brand: { main: string; text: string; hover: string; contrastText: string; focus: string };
    shadow: { main: string };
  }
  interface PaletteOptions {
    brand?: { main: string; text: string; hover: string; contrastText: string; focus: string };
    shadow?: { main: string };
  }
}

function palette(t: SchemeTokens, mode: 'light' | 'dark') {
  const dark = mode === 'dark';
  return {
    primary: dark
      ? { main: t.brandText, dark: '#37a673', light: t.brandHover, contrastText: t.onBrandText }
      : { main: BRAND_GREEN, dark: t.brandHover, contrastText: t.onBrandText },
    secondary: dark ? { main: '#c9d3ce' } : { main: '#1f2a37' },
    error: { main: t.error, contrastText: t.onError },
    background: { default: t.background, paper: t.paper, subtle: t.subtle, tint: t.tint },
    text: { primary: t.text, secondary: t.textSecondary },
    // MUI's dark icons (action.active) are pure white: a step down keeps them from glaring.
    ...(dark ? { divider: 'rgba(230, 235, 232, 0.14)', action: { active: '#c4cdc8' } } : {}),
    brand: {
      main: BRAND_GREEN,
      text: t.brandText,
      hover: t.brandHover,
      contrastText: t.onBrandText,
      focus: dark ? alpha(t.brandText, 0.8) : alpha(BRAND_GREEN, 0.55),
    },
    shadow: { main: t.shadow },
  };
}

const focusRing = (t: Theme) => ({ outline: `3px solid ${t.vars.palette.brand.focus}`, outlineOffset: 2 });

/** A soft shadow under cards: invisible on the dark scheme's near-black, as shadows are there. */
export const softShadow = (geometry: string, opacity: number) => (theme: Theme) =>
  `${geometry} ${theme.alpha(theme.vars.palette.shadow.main, opacity)}`;

export const theme = createTheme({
  cssVariables: { colorSchemeSelector: COLOR_SCHEME_ATTRIBUTE },
  colorSchemes: {
    light: { palette: palette(LIGHT, 'light') },
    dark: { palette: palette(DARK, 'dark'), overlays: darkOverlays },
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
      styleOverrides: (t) => ({
        html: { scrollBehavior: 'auto' },
        // Keyboard users always see where they are, whatever the component's own focus styling.
        ':focus-visible': focusRing(t),
        a: { color: t.vars.palette.brand.text },
        // Set on the toast container rather than :root so they win over the bundled stylesheet's defaults.
        '.Toastify': {
          '--toastify-color-light': t.vars.palette.background.paper,
          '--toastify-text-color-light': t.vars.palette.text.primary,
          '--toastify-color-success': t.vars.palette.brand.main,
          '--toastify-color-progress-success': t.vars.palette.brand.main,
          '--toastify-color-error': t.vars.palette.error.main,
          '--toastify-color-progress-error': t.vars.palette.error.main,
          '--toastify-font-family': 'inherit',
        },
        // The bundled stylesheet draws the close button black at 30%: lost on a dark toast.
        '.Toastify__close-button--light': { color: t.vars.palette.text.primary, opacity: 0.6 },
        '.Toastify__toast': { border: `1px solid ${t.vars.palette.divider}` },
      }),
    },
    MuiButtonBase: { styleOverrides: { root: ({ theme: t }) => ({ '&.Mui-focusVisible': focusRing(t) }) } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        containedPrimary: ({ theme: t }) => ({
          backgroundColor: t.vars.palette.brand.text,
          color: t.vars.palette.brand.contrastText,
          '&:hover': { backgroundColor: t.vars.palette.brand.hover },
        }),
        textPrimary: ({ theme: t }) => ({ color: t.vars.palette.brand.text }),
        outlinedPrimary: ({ theme: t }) => ({
          color: t.vars.palette.brand.text,
          borderColor: t.alpha(t.vars.palette.brand.text, 0.5),
        }),
      },
    },
    MuiLink: { styleOverrides: { root: ({ theme: t }) => ({ color: t.vars.palette.brand.text }) } },
    MuiFormLabel: {
      styleOverrides: { root: ({ theme: t }) => ({ '&.Mui-focused': { color: t.vars.palette.brand.text } }) },
    },
    MuiTab: {
      styleOverrides: {
        root: ({ theme: t }) => ({ '&.Mui-selected': { color: t.vars.palette.brand.text } }),
      },
    },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
  },
});
