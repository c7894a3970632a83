import { useTheme } from '@mui/material/styles';

/**
 * Series colours from the Okabe-Ito palette, which people with any common colour-vision
 * deficiency can tell apart: blue, vermillion and bluish green. Its orange would reach only
 * 2.25:1 on white, under the 3:1 a chart's marks need (test/shell/themeContrast.test.ts).
 */
export const SERIES_COLOURS = { first: '#0072B2', second: '#D55E00', third: '#009E73' } as const;

/**
 * The same palette on the dark scheme, its blue swapped for Okabe-Ito's sky blue: the deep blue
 * reaches only 3.3:1 on the dark surface, the sky blue 7.4:1 (test/shell/themeContrast.test.ts).
 */
export const SERIES_COLOURS_DARK = { first: '#56B4E9', second: '#E69F00', third: '#009E73' } as const;

/** The series colours of the scheme on screen. */
export function useSeriesColours(): { first: string; second: string; third: string } {
  return useTheme().palette.mode === 'dark' ? SERIES_COLOURS_DARK : SERIES_COLOURS;
}
