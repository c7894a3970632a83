import { Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';

/*
 * XLSX as the console writes it: one workbook, its cells as text (inline strings: no shared-string
 * table to hold in memory), the header row bold and frozen. Written as a stream, a chunk of rows
 * at a time, so that a long list never sits whole in memory.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Characters of sheet XML deflated at a time. */
const CHUNK_CHARS = 64 * 1024;

/** Characters XML 1.0 cannot hold: control characters other than tab, line feed and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Pure: text as XML character data or an attribute value. */
export const xmlText = (value: string): string =>
  value
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** Pure: a column's letters (0 is A, 26 is AA). */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** Text a spreadsheet would take for a formula if typed in (as csv.ts's inertText tells it). */
const FORMULA_LIKE = /^[=+\-@\t\r]/;

/** Cell styles (styles.xml's cellXfs): plain, text flagged as typed after an apostrophe, the header. */
const STYLE = { plain: 0, quoted: 1, header: 2 } as const;

/**
 * Pure: one row of text cells. Text that looks like a formula keeps its value exactly (so that
 * an exported file imports back unchanged) and is flagged as quoted, as a spreadsheet marks text
 * typed after an apostrophe: it is shown and kept as text, never run. A string cell is never a
 * formula in any case; the flag keeps it so when someone edits the cell.
 */
export function rowXml(rowNumber: number, cells: readonly string[], header = false): string {
  let xml = `<row r="${rowNumber}">`;
  cells.forEach((value, i) => {
    if (value === '') return;
    const style = header ? STYLE.header : FORMULA_LIKE.test(value) ? STYLE.quoted : STYLE.plain;
    xml += `<c r="${columnName(i)}${rowNumber}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/** Pure: a name a workbook accepts for a sheet: at most 31 characters, none of : \ / ? * [ ]. */
export function sheetName(name: string, taken: ReadonlySet<string> = new Set()): string {
  const base =
    name
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet';
  let candidate = base;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${base.slice(0, 27)} (${i})`;
  return candidate;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

function contentTypes(sheets: number): string {
  const sheetTypes = Array.from(
    { length: sheets },
    (_, i) =>
      `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('');
  return `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${sheetTypes}</Types>`;
}

const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

function workbookXml(names: readonly string[]): string {
  const sheets = names
    .map((n, i) => `<sheet name="${xmlText(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('');
  return `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>${sheets}</sheets></workbook>`;
}

function workbookRels(sheets: number): string {
  const rels = Array.from(
    { length: sheets },
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  ).join('');
  return `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">${rels}<Relationship Id="rId${sheets + 1}" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`;
}

const STYLES = `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" quotePrefix="1"/><xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** The start of a sheet, its header row frozen above the others. */
const SHEET_HEAD = `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

export interface ExtraSheet {
  name: string;
  headers: readonly string[];
  rows: readonly (readonly string[])[];
}

export interface XlsxOptions {
  /** The first sheet's name (`Sheet1` by default). */
  sheetName?: string;
  /** Sheets after the first, small enough to be written at once (a template's accepted values). */
  extraSheets?: readonly ExtraSheet[];
}

/**
 * A workbook of the header and every row `rows` yields on its first sheet, and any extra sheets
 * after it, as a stream that asks for more rows only as the client reads: memory holds a chunk
 * of XML and what the deflater keeps, however many rows.
 */
export function xlsxFile(
  headers: readonly string[],
  rows: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
  opts: XlsxOptions = {},
): Readable {
  const taken = new Set<string>();
  const names = [opts.sheetName ?? 'Sheet1', ...(opts.extraSheets ?? []).map((s) => s.name)].map((n) => {
    const name = sheetName(n, taken);
    taken.add(name.toLowerCase());
    return name;
  });
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const out: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((err, chunk) => {
      if (err) failure = err;
      else out.push(chunk);
    });
    const encoder = new TextEncoder();
    function* drain() {
      if (failure) throw failure;
      while (out.length) {
        const chunk = out.shift();
        if (chunk?.length) yield chunk;
      }
    }
    const whole = (name: string, text: string) => {
      const part = new ZipDeflate(name, { level: 6 });
      zip.add(part);
      part.push(encoder.encode(text), true);
    };
    whole('[Content_Types].xml', contentTypes(names.length));
    whole('_rels/.rels', ROOT_RELS);
    whole('xl/workbook.xml', workbookXml(names));
    whole('xl/_rels/workbook.xml.rels', workbookRels(names.length));
    whole('xl/styles.xml', STYLES);
    yield* drain();

    // The fastest level: a sheet of text deflates well at any, and at 6 deflating took four times as long.
    const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 1 });
    zip.add(sheet);
    let xml = SHEET_HEAD + rowXml(1, headers, true);
    let rowNumber = 1;
    for await (const row of rows) {
      rowNumber++;
      xml += rowXml(rowNumber, row);
      if (xml.length >= CHUNK_CHARS) {
        sheet.push(encoder.encode(xml));
        xml = '';
        yield* drain();
      }
    }
    sheet.push(encoder.encode(xml + SHEET_TAIL), true);
    yield* drain();

    (opts.extraSheets ?? []).forEach((extra, i) => {
      const body = extra.rows.map((r, j) => rowXml(j + 2, r)).join('');
      whole(
        `xl/worksheets/sheet${i + 2}.xml`,
        SHEET_HEAD + rowXml(1, extra.headers, true) + body + SHEET_TAIL,
      );
    });
    zip.end();
    yield* drain();
  }
  return Readable.from(chunks(), { objectMode: false });
}
