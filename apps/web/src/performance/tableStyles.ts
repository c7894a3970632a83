import type { Theme } from '@mui/material/styles';
import { heatColours } from './grid';

/*
 * Column widths: the frozen columns' are fixed, so that their offsets are exact; skill columns
 * are sized to their titles (columns.ts) and every header stays on one line.
 */
export const ID_WIDTH = '6rem';
export const NAME_WIDTH = '10rem';
export const NAME_WIDTH_PHONE = '8.5rem';
export const AVERAGE_WIDTH = '6.25rem';

/** Width, min and max alike: a table cell otherwise grows to its content. */
export const fixedWidth = (width: string | { xs: string; sm: string }) =>
  ({ width, minWidth: width, maxWidth: width }) as const;

/*
 * Frozen panes: the name stays in view while the skills scroll past it (narrower on a phone, so
 * a score still fits beside it), and from lg the three averages stay in view on the right.
 * The scroll box keeps the same room free when it scrolls a focused cell into view
 * (scroll-padding), so the cell is never scrolled under the frozen name.
 */
export const stickyName = {
  position: 'sticky',
  left: 0,
  ...fixedWidth({ xs: NAME_WIDTH_PHONE, sm: NAME_WIDTH }),
  boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.vars.palette.divider}`,
} as const;
const AVERAGE_OFFSETS = [`calc(2 * ${AVERAGE_WIDTH})`, AVERAGE_WIDTH, 0] as const;
export const stickyAverage = (i: number) =>
  ({
    position: { lg: 'sticky' },
    right: { lg: AVERAGE_OFFSETS[i] },
    ...fixedWidth(AVERAGE_WIDTH),
    px: 1,
    ...(i === 0 ? { boxShadow: { lg: 'inset 1px 0 0 var(--mui-palette-divider)' } } : {}),
  }) as const;
/** Above frozen body cells, and frozen header cells above both. */
export const Z_FROZEN_BODY = 1;
export const Z_FROZEN_HEAD = 3;

export const headSx = {
  fontWeight: 600,
  fontSize: '0.8125rem',
  // Nothing in a header may stick out of its column: the scroll width would grow past the last
  // column and leave an empty strip after it when scrolled fully right.
  overflow: 'hidden',
  lineHeight: 1.3,
  verticalAlign: 'bottom',
  bgcolor: 'background.subtle',
  borderBottom: 1,
  borderColor: 'divider',
} as const;

/** A skill's title on one line: longer than its column, it ends in an ellipsis and shows whole on hover. */
export const skillHeadSx = { px: 1, whiteSpace: 'nowrap', textOverflow: 'ellipsis' } as const;

export const bodySx = {
  bgcolor: 'background.paper',
  overflowWrap: 'anywhere',
} as const;

/** One line per name: a long one ends in an ellipsis and shows whole on hover and on its page. */
export const nameSx = {
  fontWeight: 600,
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
} as const;

export const scoreSx = { px: 1, fontVariantNumeric: 'tabular-nums' } as const;

/** A scored cell on the heat map, in the blues of the scheme on screen. */
export const heatSx = (score: number) => (theme: Theme) => {
  const light = heatColours(score, 'light');
  const dark = heatColours(score, 'dark');
  return {
    bgcolor: light.bg,
    color: light.fg,
    ...theme.applyStyles('dark', { bgcolor: dark.bg, color: dark.fg }),
  };
};

/** A cell both users changed: tinted and edged so it stands out in a page of inputs. */
export const conflictSx = {
  bgcolor: (theme: Theme) => theme.alpha(theme.vars.palette.warning.main, 0.16),
} as const;

export const averageSx = {
  fontVariantNumeric: 'tabular-nums',
  fontWeight: 600,
  // Opaque, so the skills scrolling underneath the frozen averages do not show through.
  bgcolor: 'background.tint',
} as const;

/**
 * The score inputs: styled once on the table, with their states as attributes, rather than each
 * input computing its own styles. A scroll step draws a few rows of twenty inputs each; styling
 * each one separately was most of the script that step ran.
 */
export const SCORE_INPUT_CLASS = 'wfc-score-input';

const brandTint = (theme: Theme, opacity: number) => theme.alpha(theme.vars.palette.brand.main, opacity);

export const scoreInputsSx = (theme: Theme) => {
  const p = theme.vars.palette;
  return {
    [`& .${SCORE_INPUT_CLASS}`]: {
      width: '100%',
      minWidth: 0,
      boxSizing: 'border-box',
      padding: theme.spacing(0.75, 1.25),
      font: 'inherit',
      textAlign: 'center',
      color: p.text.primary,
      backgroundColor: p.background.paper,
      border: `1px solid ${p.divider}`,
      borderRadius: theme.shape.borderRadius,
      transition: 'border-color 120ms, box-shadow 120ms',
      '&[data-dense]': { paddingTop: theme.spacing(0.25), paddingBottom: theme.spacing(0.25) },
      '&[data-changed]': { backgroundColor: brandTint(theme, 0.1), borderColor: brandTint(theme, 0.6) },
      '&:hover:not(:disabled)': { borderColor: p.text.secondary },
      // The app-wide focus ring marks the cell; the border only keeps its colour meaning.
      '&:focus': { borderColor: p.brand.main },
      '&[data-conflict]': { backgroundColor: p.background.paper, borderWidth: 2 },
      '&[data-conflict], &[data-conflict]:hover:not(:disabled), &[data-conflict]:focus': {
        borderColor: p.warning.dark,
      },
      '&[aria-invalid], &[aria-invalid]:hover:not(:disabled), &[aria-invalid]:focus': {
        borderColor: p.error.main,
      },
      '&:disabled': { color: p.text.disabled, backgroundColor: p.action.hover },
    },
  } as const;
};
