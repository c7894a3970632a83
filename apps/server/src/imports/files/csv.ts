import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ApiError } from '../../http/envelope.ts';
import { cellTooLong, type SheetLimits, unreadable } from './limits.ts';
import type { SheetRow } from './sheet.ts';

/*
 * CSV as spreadsheets and other systems write it: UTF-8 with or without a byte-order mark, comma
 * or semicolon separated (a spreadsheet set to a language with a decimal comma writes
 * semicolons), fields quoted when they hold the separator, quotes or line breaks.
 */

/** Bytes decoded and handed to the parser at a time, which parses them in one stretch. */
const SLICE = 16 * 1024;

/**
 * Pure: the separator of a file, told from its header line: a semicolon when the line has more
 * semicolons than commas outside quotes, a comma otherwise.
 */
export function sniffDelimiter(head: string): ',' | ';' {
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  for (const ch of head) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '\n' || ch === '\r') break;
    else if (ch === ',') commas++;
    else if (ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** The buffer as text a slice at a time; bytes that are not UTF-8 make it unreadable. */
function* decoded(data: Buffer): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (let at = 0; at < data.length; at += SLICE) {
      yield decoder.decode(data.subarray(at, at + SLICE), { stream: true });
    }
    yield decoder.decode();
  } catch {
    throw unreadable();
  }
}

/**
 * Every record of a CSV file as the spreadsheet numbers it (the first is row 1), empty ones
 * included, parsed as a stream: memory holds a slice of the file and the record being read.
 */
export function csvRecords(data: Buffer, limits: SheetLimits): () => AsyncIterable<SheetRow> {
  const delimiter = sniffDelimiter(new TextDecoder('utf-8').decode(data.subarray(0, SLICE)));
  return async function* records() {
    const source = Readable.from(decoded(data), { objectMode: false });
    const parser = parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      // A quote inside an unquoted field is text, as spreadsheets read it (`15" screen`).
      relax_quotes: true,
      skip_empty_lines: false,
      // A record longer than this has a cell over the limit, or more columns than the limit.
      max_record_size: limits.maxCellChars * limits.maxColumns,
    });
    source.once('error', (e) => parser.destroy(e));
    source.pipe(parser);
    let row = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        row++;
        yield { row, cells: record };
      }
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if ((e as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw cellTooLong();
      throw unreadable();
    } finally {
      source.destroy();
      parser.destroy();
    }
  };
}
