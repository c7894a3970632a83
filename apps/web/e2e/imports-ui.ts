import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeViolations, type E2E } from './support/e2e';

/** Browser steps shared by the import wizard's end-to-end files. */

export const IMPORT_SHOTS = process.env.IMPORT_SHOTS_DIR ?? '/tmp/wfc-import-shots';
export const IMPORT_DESKTOP = { width: 1280, height: 800 } as const;
export const IMPORT_PHONE = { width: 390, height: 844 } as const;

export const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).last();

/** Closes the toasts: a headless page has no focus, so they stay over the corner the shots show. */
export async function dismissToasts(page: Page) {
  // Clicked again on each look: a toast that arrives meanwhile is closed too.
  await expect
    .poll(
      async () => {
        await page.locator('.Toastify__toast .Toastify__close-button').evaluateAll((buttons) => {
          for (const b of buttons) (b as HTMLButtonElement).click();
        });
        const left = await page.locator('.Toastify__toast').allTextContents();
        return left.length === 0 ? 0 : left.join(' | ');
      },
      { timeout: 10_000 },
    )
    .toBe(0);
}

/** No transition running: a step photographed while it fades in looks washed out. */
const still = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

async function switchTheme(page: Page, scheme: 'light' | 'dark') {
  const other = scheme === 'dark' ? 'light' : 'dark';
  const toggle = page.getByRole('banner').getByRole('button', { name: `Switch to ${scheme} theme` });
  if ((await toggle.count()) > 0) await toggle.click();
  await page
    .getByRole('banner')
    .getByRole('button', { name: `Switch to ${other} theme` })
    .waitFor();
}

/**
 * Full-page shots of the screen as it is, at a desktop's and a phone's width, light then dark,
 * into IMPORT_SHOTS; the page is left light at the desktop's width.
 */
export async function shoot(page: Page, name: string): Promise<string[]> {
  mkdirSync(IMPORT_SHOTS, { recursive: true });
  await dismissToasts(page);
  const paths: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await switchTheme(page, scheme);
    for (const [label, size] of [
      ['desktop', IMPORT_DESKTOP],
      ['phone', IMPORT_PHONE],
    ] as const) {
      await page.setViewportSize(size);
      // The pointer is left in a corner: a button it was over at another width would show hovered.
      await page.mouse.move(size.width - 2, size.height - 2);
      await page.waitForTimeout(300);
      await still(page);
      const path = join(IMPORT_SHOTS, `${name}-${label}-${scheme}.png`);
      await page.screenshot({ path, fullPage: true });
      paths.push(path);
    }
  }
  await switchTheme(page, 'light');
  await page.setViewportSize(IMPORT_DESKTOP);
  return paths;
}

/** One shot of the page as it is (a menu open hides the theme switch), at its current width and theme. */
export async function shootAsIs(page: Page, name: string): Promise<string> {
  mkdirSync(IMPORT_SHOTS, { recursive: true });
  await still(page);
  const path = join(IMPORT_SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Puts a CSV written by the test into the wizard's file input, as choosing it would. */
export async function chooseCsv(page: Page, name: string, rows: readonly (readonly string[])[]) {
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  const text = rows.map((r) => r.map(quote).join(',')).join('\r\n');
  await page.getByLabel('Spreadsheet file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${text}\r\n`, 'utf8'),
  });
  await page.getByText(name, { exact: true }).waitFor();
}

/**
 * The page's serious accessibility problems, in a line each. The check stops every animation to
 * read colours at rest; that style is taken away again, or a toast would never finish leaving.
 */
export async function accessibilityProblems(e2e: E2E, page: Page): Promise<string> {
  const problems = describeViolations(await e2e.checkA11y(page));
  await page.evaluate(() => {
    for (const style of document.querySelectorAll('style')) {
      if (style.textContent?.includes('animation: none !important')) style.remove();
    }
  });
  return problems;
}
