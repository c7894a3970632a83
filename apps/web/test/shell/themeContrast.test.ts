import { describe, expect, it } from 'vitest';
import { heatColours } from '../../src/performance/grid';
import { SERIES_COLOURS, SERIES_COLOURS_DARK } from '../../src/performance/insights/palette';
import { BRAND_GREEN, DARK, darkOverlayAlpha, LIGHT } from '../../src/theme';

/** WCAG 2 contrast ratio of two #rrggbb colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `fg` laid over `bg` at `alpha`, as the browser paints a translucent colour. */
function over(fg: string, alpha: number, bg: string): string {
  const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [f, b] = [rgb(fg), rgb(bg)];
  return `#${f
    .map((c, i) =>
      Math.round(c * alpha + b[i]! * (1 - alpha))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

const TEXT = 4.5;
const GRAPHIC = 3;

const lightActive = over(BRAND_GREEN, 0.08, LIGHT.paper);
const darkActive = over(BRAND_GREEN, 0.08, DARK.paper);
const darkMenu = over('#ffffff', darkOverlayAlpha(8), DARK.paper);
const darkDialog = over('#ffffff', darkOverlayAlpha(24), DARK.paper);

const PAIRS: [string, string, string, number, number][] = [
  ['light text on the page', LIGHT.text, LIGHT.background, 15.01, TEXT],
  ['light text on paper', LIGHT.text, LIGHT.paper, 16.29, TEXT],
  ['light secondary text on the page', LIGHT.textSecondary, LIGHT.background, 6.96, TEXT],
  ['light secondary text on paper', LIGHT.textSecondary, LIGHT.paper, 7.56, TEXT],
  ['light secondary text on a table head', LIGHT.textSecondary, LIGHT.subtle, 7.24, TEXT],
  ['light text on the frozen averages', LIGHT.text, LIGHT.tint, 15.44, TEXT],
  ['light link on the page', LIGHT.brandText, LIGHT.background, 5.23, TEXT],
  ['light link and text button on paper', LIGHT.brandText, LIGHT.paper, 5.68, TEXT],
  ['light active menu item', LIGHT.brandText, lightActive, 5.16, TEXT],
  ['light contained button', LIGHT.onBrandText, LIGHT.brandText, 5.68, TEXT],
  ['light contained button hovered', LIGHT.onBrandText, LIGHT.brandHover, 7.85, TEXT],
  ['light error text on paper', LIGHT.error, LIGHT.paper, 4.98, TEXT],
  ['light error button', LIGHT.onError, LIGHT.error, 4.98, TEXT],
  ['light brand accent on paper', BRAND_GREEN, LIGHT.paper, 3.81, GRAPHIC],
  ['light brand accent on the page', BRAND_GREEN, LIGHT.background, 3.51, GRAPHIC],
  ['dark text on the page', DARK.text, DARK.background, 15.42, TEXT],
  ['dark text on paper', DARK.text, DARK.paper, 14.19, TEXT],
  ['dark text on a dialog', DARK.text, darkDialog, 11.3, TEXT],
  ['dark secondary text on the page', DARK.textSecondary, DARK.background, 8.7, TEXT],
  ['dark secondary text on paper', DARK.textSecondary, DARK.paper, 8.01, TEXT],
  ['dark secondary text on a table head', DARK.textSecondary, DARK.subtle, 7.41, TEXT],
  ['dark secondary text on a menu', DARK.textSecondary, darkMenu, 6.82, TEXT],
  ['dark secondary text on a dialog', DARK.textSecondary, darkDialog, 6.38, TEXT],
  ['dark text on the frozen averages', DARK.text, DARK.tint, 13.23, TEXT],
  ['dark link on the page', DARK.brandText, DARK.background, 8.4, TEXT],
  ['dark link and text button on paper', DARK.brandText, DARK.paper, 7.73, TEXT],
  ['dark text button on a table head', DARK.brandText, DARK.subtle, 7.15, TEXT],
  ['dark text button on a menu', DARK.brandText, darkMenu, 6.58, TEXT],
  ['dark text button on a dialog', DARK.brandText, darkDialog, 6.15, TEXT],
  ['dark active menu item', DARK.brandText, darkActive, 7.07, TEXT],
  ['dark contained button', DARK.onBrandText, DARK.brandText, 8.34, TEXT],
  ['dark contained button hovered', DARK.onBrandText, DARK.brandHover, 10.08, TEXT],
  ['dark error text on paper', DARK.error, DARK.paper, 6.17, TEXT],
  ['dark error text on a dialog', DARK.error, darkDialog, 4.91, TEXT],
  ['dark error button', DARK.onError, DARK.error, 7.03, TEXT],
  ['dark brand accent on paper', BRAND_GREEN, DARK.paper, 4.49, GRAPHIC],
  ['dark brand accent on the page', BRAND_GREEN, DARK.background, 4.88, GRAPHIC],
  ['dark brand accent on a dialog', BRAND_GREEN, darkDialog, 3.58, GRAPHIC],
  ['light first series on paper', SERIES_COLOURS.first, LIGHT.paper, 5.19, GRAPHIC],
  ['light second series on paper', SERIES_COLOURS.second, LIGHT.paper, 3.87, GRAPHIC],
  ['light third series on paper', SERIES_COLOURS.third, LIGHT.paper, 3.42, GRAPHIC],
  ['light first series on an empty chart', SERIES_COLOURS.first, LIGHT.subtle, 4.97, GRAPHIC],
  ['light second series on an empty chart', SERIES_COLOURS.second, LIGHT.subtle, 3.71, GRAPHIC],
  ['light third series on an empty chart', SERIES_COLOURS.third, LIGHT.subtle, 3.28, GRAPHIC],
  ['dark first series on paper', SERIES_COLOURS_DARK.first, DARK.paper, 7.42, GRAPHIC],
  ['dark second series on paper', SERIES_COLOURS_DARK.second, DARK.paper, 7.6, GRAPHIC],
  ['dark third series on paper', SERIES_COLOURS_DARK.third, DARK.paper, 5, GRAPHIC],
  ['dark first series on an empty chart', SERIES_COLOURS_DARK.first, DARK.subtle, 6.87, GRAPHIC],
  ['dark third series on an empty chart', SERIES_COLOURS_DARK.third, DARK.subtle, 4.63, GRAPHIC],
];

const HEAT: ['light' | 'dark', number, number][] = [
  ['light', 0, 16.74],
  ['light', 1, 14.81],
  ['light', 2, 13.02],
  ['light', 3, 11.24],
  ['light', 4, 9.21],
  ['light', 5, 7.18],
  ['light', 6, 5.44],
  ['light', 7, 4.68],
  ['light', 8, 6.1],
  ['light', 9, 8.77],
  ['light', 10, 12.76],
  ['dark', 0, 12.75],
  ['dark', 1, 10.72],
  ['dark', 2, 8.86],
  ['dark', 3, 7.35],
  ['dark', 4, 6.03],
  ['dark', 5, 4.95],
  ['dark', 6, 5.24],
  ['dark', 7, 6.48],
  ['dark', 8, 7.94],
  ['dark', 9, 9.62],
  ['dark', 10, 11.54],
];

const round = (n: number) => Math.round(n * 100) / 100;

describe('contrast of the theme colours', () => {
  it('computes WCAG ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBe(21);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(round(contrast('#767676', '#ffffff'))).toBe(4.54);
    expect(over('#ffffff', 0.5, '#000000')).toBe('#808080');
  });

  it.each(PAIRS)('%s: %s on %s', (_name, fg, bg, ratio, minimum) => {
    expect(round(contrast(fg, bg))).toBe(ratio);
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(minimum);
  });

  it.each(HEAT)('%s heat map, score %i', (scheme, score, ratio) => {
    const { fg, bg } = heatColours(score, scheme);
    expect(round(contrast(fg, bg))).toBe(ratio);
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(TEXT);
  });

  it('orders each heat-map scale by lightness, so that it reads without colour vision', () => {
    for (const [scheme, direction] of [
      ['light', -1],
      ['dark', 1],
    ] as const) {
      const steps = Array.from({ length: 11 }, (_, score) =>
        contrast(heatColours(score, scheme).bg, '#000000'),
      );
      for (let i = 1; i < steps.length; i += 1) {
        expect(Math.sign(steps[i]! - steps[i - 1]!), `${scheme} ${i}`).toBe(direction);
      }
    }
  });
});
