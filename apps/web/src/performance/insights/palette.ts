/**
 * Series colours from the Okabe-Ito palette, which people with any common colour-vision
 * deficiency can tell apart: blue, orange and bluish green.
 */
export const SERIES_COLOURS = { first: '#0072B2', second: '#E69F00', third: '#009E73' } as const;
