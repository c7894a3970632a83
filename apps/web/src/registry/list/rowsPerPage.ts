import { ROWS_PER_PAGE_OPTIONS } from '@wfc/contract';

/**
 * Rows per page, remembered per list in this browser: a list opened without `limit` in its address
 * shows as many rows as it did last time. Storage may be full or switched off; then nothing is
 * remembered and nothing fails.
 */
const keyOf = (list: string) => `wfc.rowsPerPage.${list}`;

export function rememberedRowsPerPage(list: string): number | undefined {
  try {
    const n = Number(window.localStorage.getItem(keyOf(list)));
    return (ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

export function rememberRowsPerPage(list: string, limit: number) {
  try {
    window.localStorage.setItem(keyOf(list), String(limit));
  } catch {
    // Not remembered; the address still holds it.
  }
}
