import type { ApiEnvelope } from '@wfc/contract';
import type { Locator, Page } from 'playwright-core';
import { expect, vi } from 'vitest';

/** Browser steps shared by the registry end-to-end files. */

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** The newest toast with this text: an earlier one (a save a few seconds before) may still show. */
export const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).last();

export const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

/** Body rows of the list table (the header row excluded). */
export const bodyRows = (page: Page) => page.getByRole('table').locator('tbody tr');

/** Matches an element's whole text, nothing more. */
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

export const rangeLabel = (page: Page, text: string) =>
  page.locator('.MuiTablePagination-displayedRows', { hasText: exactly(text) });

/**
 * The text of one column (1-based among the data columns) on the current page. The cells before
 * the data hold a row's check box (when bulk actions are offered) and radio; a selected row's
 * actions row, one cell across, is no record.
 */
export async function columnTexts(page: Page, column: number): Promise<string[]> {
  return bodyRows(page).evaluateAll(
    (rows, n) =>
      rows.flatMap((row) => {
        const cells = [...row.querySelectorAll(':scope > td')];
        if (cells.length === 1 && cells[0]?.hasAttribute('colspan')) return [];
        const data = cells.filter((c) => !c.classList.contains('MuiTableCell-paddingCheckbox'));
        const cell = data[n - 1];
        return cell instanceof HTMLElement ? [cell.innerText] : [];
      }),
    column,
  );
}

/** A call through the page's signed-in session: seeding through the real API. */
export async function apiPost<T = Record<string, unknown>>(
  page: Page,
  path: string,
  form: Record<string, string>,
): Promise<T> {
  const res = await page.request.post(`/api/${path}`, { form });
  const env = (await res.json()) as ApiEnvelope<T>;
  if (env.statusCode !== 200) throw new Error(`${path}: ${env.statusCode} ${env.message}`);
  return env.data as T;
}

export async function filterBy(page: Page, keyword: string) {
  const field = page.getByPlaceholder('Filter...');
  await field.fill(keyword);
  await field.press('Enter');
  await page.waitForURL((url) => (url.searchParams.get('keyword') ?? '') === keyword.trim());
}

/** Waits until the list shows this range label and no load is running. */
export async function waitForRange(page: Page, text: string) {
  await rangeLabel(page, text).waitFor();
  await waitForNoLoad(page);
}

/** Waits until no load is running on the screen. */
export async function waitForNoLoad(page: Page) {
  // Counted in the DOM, not the accessibility tree: while a menu closes it hides the page from
  // assistive technology, and a load running then would not count.
  await expect.poll(() => page.locator('[role="status"]').count()).toBe(0);
}

export async function selectRow(page: Page, name: string) {
  await page.getByRole('radio', { name: `Select ${name}`, exact: true }).check();
}

/** The form field around the react-select labelled `label`. */
const selectField = (page: Page, label: string) =>
  page.locator('.MuiFormControl-root', { has: page.getByLabel(label, { exact: true }) });

/**
 * Picks `option` in the react-select labelled `label`, searching for it on the server, and waits
 * until the field shows it. A search still answering can redraw the options just as the click
 * arrives, and the click is then lost (seen on a loaded machine: the country stayed empty and its
 * states never came), so the pick is made again until the field holds the option.
 */
export async function pick(page: Page, label: string, option: string) {
  const input = page.getByLabel(label, { exact: true });
  const chosen = selectField(page, label).locator('[class*="singleValue"], [class*="multiValue"]', {
    hasText: exactly(option),
  });
  await vi.waitFor(
    async () => {
      if ((await chosen.count()) > 0) return;
      await input.click();
      await input.fill(option);
      await page.getByRole('option', { name: option, exact: true }).click({ timeout: 15_000 });
      await chosen.first().waitFor({ timeout: 3000 });
    },
    { timeout: 60_000, interval: 200 },
  );
}

/** The single value a react-select shows, or '' when empty. */
export async function selectedText(page: Page, label: string): Promise<string> {
  const value = selectField(page, label).locator('[class*="singleValue"]');
  return (await value.count()) > 0 ? ((await value.textContent()) ?? '') : '';
}

export const fieldValue = (page: Page, label: string) => page.getByLabel(label, { exact: true }).inputValue();

/** A view's value for `label`: the `<dd>` its `<dt>` names (Playwright gives a definition no name). */
export const viewEntry = (scope: Page | Locator, label: string) =>
  scope.locator(`xpath=//dt[normalize-space(.)=${JSON.stringify(label)}]/following-sibling::dd[1]`);

/** What a view says for `label`. */
export const readValue = async (page: Page, label: string) =>
  (await viewEntry(page, label).textContent()) ?? '';

export async function submitForm(page: Page) {
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
}

export async function expectButtons(scope: Locator, names: string[]) {
  await scope.first().waitFor();
  expect(await scope.allInnerTexts()).toEqual(names);
}
