/*
 * The skill columns' widths and the rows' density: plain values, so that the table, the row
 * virtualiser (which needs a row's height before it is drawn) and the tests agree.
 */

/** docs/product.md section 18 and the SPEC: no skill column is narrower than this. */
export const MIN_SKILL_REM = 10;
/** Wider titles end in an ellipsis (the whole title shows on hover) rather than widen the grid. */
export const MAX_SKILL_REM = 16;
/** About the width of a character of the header's 0.8125rem semibold type, and the cell padding. */
const CHAR_REM = 0.5;
const PADDING_REM = 1.5;

/** A skill column's width: its title on one line, between the minimum and the maximum. */
export function skillColumnWidth(title: string): string {
  const fit = title.length * CHAR_REM + PADDING_REM;
  return `${Math.min(MAX_SKILL_REM, Math.max(MIN_SKILL_REM, Math.ceil(fit * 4) / 4))}rem`;
}

export type Density = 'comfortable' | 'compact';

/** A body row's height in pixels, as drawn: what the virtualiser reserves for rows not drawn yet. */
export const ROW_HEIGHT: Record<Density, { read: number; edit: number }> = {
  comfortable: { read: 45, edit: 49 },
  compact: { read: 33, edit: 37 },
};

/** Vertical padding of a body cell (theme spacing units) per density. */
export const CELL_PADDING_Y: Record<Density, { read: number; edit: number }> = {
  comfortable: { read: 1.5, edit: 0.5 },
  compact: { read: 0.75, edit: 0.125 },
};

export const DENSITY_STORAGE_KEY = 'wfc.performance.density';

/** The stored choice; anything else (nothing stored, an old value) is the comfortable default. */
export const readDensity = (stored: string | null): Density =>
  stored === 'compact' ? 'compact' : 'comfortable';
