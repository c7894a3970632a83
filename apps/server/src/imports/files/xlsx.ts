import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { IMPORT_MESSAGES } from '@wfc/contract';
import { type SaxesAttributeNS, SaxesParser } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ApiError } from '../../http/envelope.ts';
import { cellTooLong, type SheetLimits, tooManyColumns, unreadable } from './limits.ts';
import type { SheetRow } from './sheet.ts';

/*
 * XLSX read as a stream: the zip walked with yauzl (which checks that each entry inflates to the
 * size its directory declares, and no further), its XML parts with saxes (no DTD, no entity
 * expansion), the sheet row by row. The zip's directory is checked against the limits before a
 * byte is inflated, and every byte inflated is counted again against them.
 */

/** Entries beyond this many make a zip no spreadsheet writes. */
export const MAX_ZIP_ENTRIES = 10_000;
/** An entry this small may compress as well as it likes (a sheet of one repeated value does). */
const RATIO_FREE_BYTES = 1024 * 1024;

const inflates = () => new ApiError(413, IMPORT_MESSAGES.inflates);

interface Workbook {
  zip: ZipFile;
  entries: Map<string, Entry>;
  /** Bytes the file may still inflate, shared by every part read. */
  budget: { left: number };
}

/** The zip's entries by name, refused when its directory declares more than the limits allow. */
async function openZip(data: Buffer, limits: SheetLimits): Promise<Workbook> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
    });
  } catch {
    throw unreadable();
  }
  if (zip.entryCount > MAX_ZIP_ENTRIES) throw inflates();
  const entries = new Map<string, Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
      if (
        total > limits.maxInflatedBytes ||
        (entry.uncompressedSize > RATIO_FREE_BYTES && ratio > limits.maxInflateRatio)
      ) {
        reject(inflates());
        return;
      }
      entries.set(entry.fileName.replace(/^\/+/, ''), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', () => reject(unreadable()));
    zip.readEntry();
  });
  return { zip, entries, budget: { left: limits.maxInflatedBytes } };
}

/** One part of the zip as text, a chunk at a time, its inflated bytes counted against the budget. */
async function* partText(book: Workbook, name: string): AsyncGenerator<string> {
  const entry = book.entries.get(name);
  if (!entry) return;
  let stream: Readable;
  try {
    stream = await book.zip.openReadStreamPromise(entry);
  } catch {
    throw unreadable();
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      book.budget.left -= chunk.length;
      if (book.budget.left < 0) throw inflates();
      yield decoder.decode(chunk, { stream: true });
    }
    yield decoder.decode();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // yauzl refuses an entry that inflates past the size its directory declared.
    if (e instanceof Error && /too many bytes/i.test(e.message)) throw inflates();
    throw unreadable();
  } finally {
    stream.destroy();
  }
}

interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** The name without its namespace prefix (`x:row` is `row`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

function attrsOf(
  attributes: Record<string, string> | Record<string, SaxesAttributeNS>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attributes)) out[local(k)] = typeof v === 'string' ? v : v.value;
  return out;
}

/**
 * Parses one part, calling the handlers; after each chunk, yields whatever `drain` returns (the
 * rows the chunk completed), so that a large part is never held whole.
 */
async function* parseXml<T>(
  book: Workbook,
  name: string,
  handlers: XmlHandlers,
  drain: () => T[] = () => [],
) {
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag) => handlers.open?.(local(tag.name), attrsOf(tag.attributes)));
  parser.on('closetag', (tag) => handlers.close?.(local(tag.name)));
  parser.on('text', (t) => handlers.text?.(t));
  parser.on('cdata', (t) => handlers.text?.(t));
  parser.on('doctype', () => {
    throw unreadable();
  });
  const run = (step: () => void) => {
    try {
      step();
    } catch (e) {
      throw e instanceof ApiError ? e : unreadable();
    }
  };
  for await (const text of partText(book, name)) {
    run(() => parser.write(text));
    yield* drain();
  }
  run(() => parser.close());
  yield* drain();
}

/** Reads a small part whole through its handlers. */
async function readXml(book: Workbook, name: string, handlers: XmlHandlers): Promise<void> {
  for await (const _ of parseXml(book, name, handlers));
}

/** A relationships part: targets by id, and by type (its last segment: `styles`, `sharedStrings`). */
async function relationships(book: Workbook, part: string) {
  const rels = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  const byId = new Map<string, string>();
  const byType = new Map<string, string>();
  await readXml(book, rels, {
    open(name, a) {
      if (name !== 'Relationship' || !a.Target || a.TargetMode === 'External') return;
      const target = a.Target.startsWith('/') ? a.Target.slice(1) : posix.join(posix.dirname(part), a.Target);
      if (a.Id) byId.set(a.Id, target);
      const type = a.Type?.split('/').at(-1);
      if (type && !byType.has(type)) byType.set(type, target);
    },
  });
  return { byId, byType };
}

/** Built-in number formats that show a date (the locale-dependent ones included). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58,
]);

/** Pure: whether a custom number format shows a date: a day or year outside quotes and brackets. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  return /[dy]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** Which cell styles (by index) show their number as a date. */
async function dateStyles(book: Workbook, part: string | undefined): Promise<boolean[]> {
  if (!part) return [];
  const custom = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await readXml(book, part, {
    open(name, a) {
      if (name === 'numFmt' && a.numFmtId) custom.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        const code = custom.get(id);
        styles.push(code === undefined ? DATE_FORMAT_IDS.has(id) : isDateFormat(code));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styles;
}

/** Shared strings a workbook may hold, and their characters in all: beyond either it is refused (413). */
export const MAX_SHARED_STRINGS = 5_000_000;
export const MAX_SHARED_CHARS = 100_000_000;

/**
 * The shared strings kept compact: their text one after another in one string, and where each
 * ends, so that millions of short strings cost their characters and four bytes each, not an
 * object each.
 */
export class SharedStrings {
  private text = '';
  private ends = new Uint32Array(1024);
  private count = 0;

  add(s: string): void {
    if (this.count >= MAX_SHARED_STRINGS || this.text.length + s.length > MAX_SHARED_CHARS) throw inflates();
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.text += s;
    this.ends[this.count++] = this.text.length;
  }

  get(i: number): string | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined;
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  get size(): number {
    return this.count;
  }
}

/** The shared strings, rich text as its plain text (phonetic guides left out). */
async function sharedStrings(
  book: Workbook,
  part: string | undefined,
  limits: SheetLimits,
): Promise<SharedStrings> {
  const strings = new SharedStrings();
  if (!part) return strings;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await readXml(book, part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 'si') {
        strings.add(current ?? '');
        current = null;
      } else if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
    },
    text(t) {
      if (current === null || !inText || phonetic > 0) return;
      current += t;
      // A string longer than a cell may hold is kept as the limit plus one: the cell is refused if used.
      if (current.length > limits.maxCellChars) current = current.slice(0, limits.maxCellChars + 1);
    },
  });
  return strings;
}

/** Pure: the zero-based column of a cell reference (`C7` is 2), or undefined without one. */
export function columnOf(ref: string | undefined): number | undefined {
  const letters = ref ? /^[A-Z]+/i.exec(ref)?.[0] : undefined;
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** Pure: an Excel date serial's day as `YYYY-MM-DD` (the time of day dropped). */
export function serialDate(serial: number, date1904 = false): string {
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.floor(serial) * DAY_MS;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

/**
 * Pure: a number cell as text, as a spreadsheet shows it at full precision: integers as they are,
 * other numbers at the 15 significant digits a spreadsheet keeps (0.1 + 0.2 is 0.3, not 0.30000000000000004).
 */
export function numberText(raw: string): string {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return raw;
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return String(Number(n.toPrecision(15)));
}

export interface XlsxWorkbook {
  sheets: string[];
  /** The records of one sheet (found by `sheets`' name), read anew at each call. */
  records(sheet: string): () => AsyncIterable<SheetRow>;
}

/** What a sheet's records need from the workbook beside the sheet itself. */
interface Parts {
  sheetPaths: Map<string, string>;
  sheets: string[];
  strings: SharedStrings;
  dates: boolean[];
  date1904: boolean;
}

async function readParts(book: Workbook, limits: SheetLimits): Promise<Parts> {
  const root = await relationships(book, '');
  const workbookPart = root.byType.get('officeDocument') ?? 'xl/workbook.xml';
  if (!book.entries.has(workbookPart)) throw unreadable();
  const rels = await relationships(book, workbookPart);
  const sheets: string[] = [];
  const sheetPaths = new Map<string, string>();
  let date1904 = false;
  await readXml(book, workbookPart, {
    open(name, a) {
      if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      if (name !== 'sheet' || a.name === undefined) return;
      const path = a.id ? rels.byId.get(a.id) : undefined;
      if (!path) return;
      sheets.push(a.name);
      sheetPaths.set(a.name, path);
    },
  });
  if (!sheets.length) throw unreadable();
  const strings = await sharedStrings(book, rels.byType.get('sharedStrings'), limits);
  const dates = await dateStyles(book, rels.byType.get('styles'));
  return { sheetPaths, sheets, strings, dates, date1904 };
}

/** Every record of one sheet as it numbers them, cells as text, read as a stream. */
async function* sheetRecords(book: Workbook, parts: Parts, path: string, limits: SheetLimits) {
  let pending: SheetRow[] = [];
  let row = 0;
  let cells: string[] = [];
  let col = -1;
  let type = 'n';
  let style = 0;
  let value: string | null = null;
  let inline: string | null = null;
  let into: 'v' | 't' | null = null;
  let phonetic = 0;
  const capped = (s: string) => {
    if (s.length > limits.maxCellChars) throw cellTooLong();
    return s;
  };
  const cellText = (): string => {
    const v = value ?? '';
    switch (type) {
      case 's':
        return parts.strings.get(Number(v)) ?? '';
      case 'inlineStr':
        return inline ?? v;
      case 'str':
      case 'e':
        return v;
      case 'b':
        return v === '1' || v.toLowerCase() === 'true' ? 'TRUE' : v === '' ? '' : 'FALSE';
      case 'd':
        return v.slice(0, 10);
      default:
        if (v.trim() === '') return '';
        return parts.dates[style] && Number.isFinite(Number(v))
          ? serialDate(Number(v), parts.date1904)
          : numberText(v);
    }
  };
  const handlers: XmlHandlers = {
    open(name, a) {
      if (name === 'row') {
        row = a.r ? Number(a.r) : row + 1;
        cells = [];
        col = -1;
      } else if (name === 'c') {
        col = columnOf(a.r) ?? col + 1;
        type = a.t ?? 'n';
        style = Number(a.s ?? 0);
        value = null;
        inline = null;
      } else if (name === 'v') {
        into = 'v';
        value = '';
      } else if (name === 't' && inline === null) {
        into = 't';
        inline = '';
      } else if (name === 't') into = 't';
      else if (name === 'rPh') phonetic++;
    },
    text(t) {
      if (into === 'v' && value !== null) value = capped(value + t);
      else if (into === 't' && inline !== null && phonetic === 0) inline = capped(inline + t);
    },
    close(name) {
      if (name === 'v' || name === 't') into = null;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c') {
        const text = capped(cellText());
        if (text === '') return;
        if (col >= limits.maxColumns) throw tooManyColumns();
        while (cells.length < col) cells.push('');
        cells[col] = text;
      } else if (name === 'row') pending.push({ row, cells });
    },
  };
  yield* parseXml(book, path, handlers, () => {
    const out = pending;
    pending = [];
    return out;
  });
}

/**
 * Opens a workbook: refuses a zip whose directory declares more than the limits, reads its sheet
 * names, shared strings and date styles once; each call of a sheet's records reads the zip anew.
 */
export async function openXlsx(data: Buffer, limits: SheetLimits): Promise<XlsxWorkbook> {
  const first = await openZip(data, limits);
  let parts: Parts;
  try {
    parts = await readParts(first, limits);
  } finally {
    first.zip.close();
  }
  return {
    sheets: parts.sheets,
    records(sheet) {
      const path = parts.sheetPaths.get(sheet);
      if (!path) throw new ApiError(400, IMPORT_MESSAGES.sheetNotFound);
      return async function* () {
        const book = await openZip(data, limits);
        try {
          if (!book.entries.has(path)) throw unreadable();
          yield* sheetRecords(book, parts, path, limits);
        } finally {
          book.zip.close();
        }
      };
    },
  };
}
