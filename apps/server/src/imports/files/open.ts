import { IMPORT_MESSAGES } from '@wfc/contract';
import { ApiError } from '../../http/envelope.ts';
import { csvRecords } from './csv.ts';
import { SHEET_LIMITS, type SheetLimits, sheetOf } from './limits.ts';
import type { OpenedSheet, SheetFile } from './sheet.ts';
import { openXlsx } from './xlsx.ts';

/** A zip's first bytes: an XLSX file is one. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Pure: whether a file's bytes are a zip (and so, for an import, an XLSX workbook). */
export const isZip = (data: Buffer) => data.subarray(0, 4).equals(ZIP_MAGIC);

/** Pure: the sheet a caller names, as the workbook spells it: exactly, or else whatever the case. */
function findSheet(sheets: readonly string[], wanted: string): string | undefined {
  const w = wanted.trim();
  return sheets.find((s) => s === w) ?? sheets.find((s) => s.trim().toLowerCase() === w.toLowerCase());
}

export interface OpenOptions {
  /** Read the whole file now, to refuse it at once if over a limit and count its rows (by default). */
  scan?: boolean;
}

/**
 * Opens an upload as a sheet, told by its content: a zip is read as XLSX (its first sheet, or the
 * one named), anything else as UTF-8 CSV. By default the file is read once whole here, so that
 * one over the limits is refused now; `rowCount` is then its number of rows below the header. A
 * file already checked may skip that pass (`scan: false`): its `rows()` still refuse what is over
 * a limit as they reach it.
 */
export async function openSheet(
  file: SheetFile,
  sheet?: string,
  limits: SheetLimits = SHEET_LIMITS,
  opts: OpenOptions = {},
): Promise<OpenedSheet & { rowCount: number | null }> {
  const scan = opts.scan ?? true;
  if (!isZip(file.data)) {
    return sheetOf({ format: 'csv', sheets: [], sheet: null }, csvRecords(file.data, limits), limits, scan);
  }
  const book = await openXlsx(file.data, limits);
  const chosen = sheet ? findSheet(book.sheets, sheet) : book.sheets[0];
  if (!chosen) throw new ApiError(400, IMPORT_MESSAGES.sheetNotFound);
  return sheetOf({ format: 'xlsx', sheets: book.sheets, sheet: chosen }, book.records(chosen), limits, scan);
}
