import { setImmediate as nextTurn } from 'node:timers/promises';
import { IMPORT_LIMITS, IMPORT_MESSAGES, type ImportFormat } from '@wfc/contract';
import { ApiError } from '../../http/envelope.ts';
import type { OpenedSheet, SheetRow } from './sheet.ts';

/** The bounds a reader holds a file to; tests pass smaller ones. */
export type SheetLimits = Record<
  'maxRows' | 'maxColumns' | 'maxCellChars' | 'maxInflatedBytes' | 'maxInflateRatio',
  number
>;

export const SHEET_LIMITS: SheetLimits = IMPORT_LIMITS;

/** Rows read between two turns of the event loop: a few milliseconds of parsing. */
const ROWS_PER_TURN = 250;

export const unreadable = () => new ApiError(400, IMPORT_MESSAGES.unreadable);
export const tooManyColumns = () => new ApiError(400, IMPORT_MESSAGES.tooManyColumns);
export const cellTooLong = () => new ApiError(400, IMPORT_MESSAGES.cellTooLong);

/** Pure: whether a row holds nothing but blanks. */
export const isEmptyRow = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

/** Pure: the cells without the blanks that trail the last written one. */
function trimEnd(cells: readonly string[]): string[] {
  let end = cells.length;
  while (end > 0 && (cells[end - 1] ?? '').trim() === '') end--;
  return cells.slice(0, end);
}

/** Refuses a row wider than the limit or with a cell too long, as a reader meets it. */
function checkRow(cells: readonly string[], limits: SheetLimits): void {
  if (trimEnd(cells).length > limits.maxColumns) throw tooManyColumns();
  if (cells.some((c) => c.length > limits.maxCellChars)) throw cellTooLong();
}

/**
 * A sheet from a source of its records as the spreadsheet numbers them, empty ones included:
 * the first non-empty record is the header; each later non-empty one a row, padded to the
 * header's width. `records` is called again for each pass. Refuses a file over the limits, one
 * without a header or without rows: with `scan`, a first pass reads it whole, so that a file the
 * console cannot take is refused when it is opened, and counts its rows; without, `rows()` refuses
 * it when it reaches what is over a limit (for a file already checked), and the count is null.
 */
export async function sheetOf(
  source: { format: ImportFormat; sheets: string[]; sheet: string | null },
  records: () => AsyncIterable<SheetRow>,
  limits: SheetLimits,
  scan = true,
): Promise<OpenedSheet & { rowCount: number | null }> {
  let header: SheetRow | undefined;
  for await (const record of records()) {
    if (isEmptyRow(record.cells)) continue;
    checkRow(record.cells, limits);
    header = record;
    break;
  }
  if (!header) throw new ApiError(400, IMPORT_MESSAGES.noHeader);
  const headerRow = header.row;
  const headers = trimEnd(header.cells).map((h) => h.trim());
  const width = headers.length;

  async function* rows(): AsyncIterable<SheetRow> {
    let count = 0;
    for await (const record of records()) {
      if (record.row <= headerRow || isEmptyRow(record.cells)) continue;
      checkRow(record.cells, limits);
      count++;
      if (count > limits.maxRows) throw new ApiError(400, IMPORT_MESSAGES.tooManyRows);
      // A file in memory reads without ever waiting: other requests get a turn now and then.
      if (count % ROWS_PER_TURN === 0) await nextTurn();
      const cells = trimEnd(record.cells);
      while (cells.length < width) cells.push('');
      yield { row: record.row, cells };
    }
  }

  if (!scan) return { ...source, headers, rows, rowCount: null };
  let rowCount = 0;
  for await (const _ of rows()) rowCount++;
  if (rowCount === 0) throw new ApiError(400, IMPORT_MESSAGES.noRows);
  return { ...source, headers, rows, rowCount };
}
