import type { ImportFormat } from '@wfc/contract';

/** A row of a sheet as the spreadsheet numbers it (the header is row 1), its cells as text. */
export interface SheetRow {
  row: number;
  cells: string[];
}

/**
 * A spreadsheet opened at one sheet: its headers, and its rows read as a stream each time
 * `rows()` is called. Cells are text: dates of an XLSX date cell as `YYYY-MM-DD`, numbers as
 * written, booleans `TRUE`/`FALSE`, a formula's cached result. Wholly empty rows are skipped.
 */
export interface OpenedSheet {
  format: ImportFormat;
  /** Every sheet of a workbook, in order; empty for CSV. */
  sheets: string[];
  /** The sheet read; null for CSV. */
  sheet: string | null;
  headers: string[];
  rows(): AsyncIterable<SheetRow>;
}

export interface SheetFile {
  data: Buffer;
  fileName: string;
}

/**
 * Opens an uploaded CSV or XLSX file (told apart by its content, not its name), within
 * IMPORT_LIMITS: refuses with an ApiError (400, or 413 for size) a file that is not one, that has
 * no header, too many rows, columns or characters in a cell, or a zip that inflates too far.
 * Implemented in files/open.ts.
 */
export type OpenSheet = (file: SheetFile, sheet?: string) => Promise<OpenedSheet>;
