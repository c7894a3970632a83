import { Readable } from 'node:stream';

/*
 * CSV as the console writes it: UTF-8 with a byte-order mark (spreadsheets then read accents
 * right), comma separated, every field quoted, CRLF line ends. Written as text a chunk of lines at
 * a time: a general CSV library costs more than the quoting these fields need.
 */

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula;
 * a leading apostrophe keeps such text inert.
 */
export const inertText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * Every field made inert, quoted, its quotes doubled: nothing inside a field can end it or run.
 * Done here, where every field of every line passes, so that no column can be forgotten.
 */
export const csvLine = (fields: readonly string[]): string =>
  `${fields.map((f) => `"${inertText(f).replaceAll('"', '""')}"`).join(',')}\r\n`;

/** About what a socket write takes at once. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The header, then every line `lines` yields, as a stream that asks for more lines only as the
 * client reads: memory holds one chunk and whatever one step of `lines` holds, however long the file.
 */
export function csvFile(
  header: readonly string[],
  lines: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
): Readable {
  async function* chunks() {
    let chunk = `\ufeff${csvLine(header)}`;
    for await (const line of lines) {
      chunk += csvLine(line);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(chunks());
}
