import * as SheetJS from '@e965/xlsx';
import { IMPORT_LIMITS, IMPORT_MESSAGES } from '@wfc/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/envelope.ts';
import { sniffDelimiter } from '../../../src/imports/files/csv.ts';
import { SHEET_LIMITS } from '../../../src/imports/files/limits.ts';
import { openSheet } from '../../../src/imports/files/open.ts';
import type { OpenSheet, SheetRow } from '../../../src/imports/files/sheet.ts';
import {
  columnOf,
  isDateFormat,
  MAX_SHARED_CHARS,
  numberText,
  SharedStrings,
  serialDate,
} from '../../../src/imports/files/xlsx.ts';
import { partOf, repeatedPart, zipOf } from '../../support/zips.ts';

// The reader is what the import engine is given.
const typed: OpenSheet = openSheet;

const file = (data: Buffer | string, fileName = 'file') => ({
  data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
  fileName,
});

async function all(rows: AsyncIterable<SheetRow>): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/** The refusal a promise ends in. */
async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('not refused');
}

async function excelBuffer(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('CSV files', () => {
  it('reads UTF-8 with a byte-order mark, quoted commas and line breaks, counting rows as records', async () => {
    const text = '\ufeffName,Note,City\r\n"Zoë, Jr.","two\nlines",Oslo\r\n,,\r\nBo,"say ""hi""",Rome\r\n';
    const sheet = await typed(file(text));
    expect(sheet.format).toBe('csv');
    expect(sheet.sheets).toEqual([]);
    expect(sheet.sheet).toBeNull();
    expect(sheet.headers).toEqual(['Name', 'Note', 'City']);
    const rows = await all(sheet.rows());
    expect(rows).toEqual([
      { row: 2, cells: ['Zoë, Jr.', 'two\nlines', 'Oslo'] },
      // Row 3 is wholly empty: skipped but counted.
      { row: 4, cells: ['Bo', 'say "hi"', 'Rome'] },
    ]);
    // Read again for the commit pass: the same rows.
    expect(await all(sheet.rows())).toEqual(rows);
  });

  it('tells semicolons from commas by the header line, outside quotes', async () => {
    expect(sniffDelimiter('"a,b";c;d\n1,2,3')).toBe(';');
    expect(sniffDelimiter('a;b,c,d')).toBe(',');
    const sheet = await openSheet(file('Name;Amount;"Place, city"\nAnn;3,5;"Paris; France"\n'));
    expect(sheet.headers).toEqual(['Name', 'Amount', 'Place, city']);
    expect(await all(sheet.rows())).toEqual([{ row: 2, cells: ['Ann', '3,5', 'Paris; France'] }]);
  });

  it('pads short rows to the header and keeps the file without a byte-order mark', async () => {
    const sheet = await openSheet(file('A,B,C\n1\n1,2\n'));
    expect(await all(sheet.rows())).toEqual([
      { row: 2, cells: ['1', '', ''] },
      { row: 3, cells: ['1', '2', ''] },
    ]);
    expect(sheet.rowCount).toBe(2);
  });

  it('refuses bytes that are not UTF-8, a broken quote, an empty file and a header alone', async () => {
    expect(
      (await refusal(openSheet(file(Buffer.from([0x41, 0x2c, 0x42, 0x0a, 0xff, 0xfe, 0x41]))))).message,
    ).toBe(IMPORT_MESSAGES.unreadable);
    expect((await refusal(openSheet(file('A,B\n"x,y\n')))).message).toBe(IMPORT_MESSAGES.unreadable);
    expect((await refusal(openSheet(file('\ufeff\r\n\r\n')))).message).toBe(IMPORT_MESSAGES.noHeader);
    expect((await refusal(openSheet(file('A,B\r\n')))).message).toBe(IMPORT_MESSAGES.noRows);
  });

  it('refuses too many columns, a cell too long and too many rows', async () => {
    const wide = `${Array.from({ length: IMPORT_LIMITS.maxColumns + 1 }, (_, i) => `C${i}`).join(',')}\n1\n`;
    const e1 = await refusal(openSheet(file(wide)));
    expect([e1.statusCode, e1.message]).toEqual([400, IMPORT_MESSAGES.tooManyColumns]);
    const long = `A,B\nx,${'y'.repeat(IMPORT_LIMITS.maxCellChars + 1)}\n`;
    expect((await refusal(openSheet(file(long)))).message).toBe(IMPORT_MESSAGES.cellTooLong);
    // Exactly at the limits is accepted.
    const atLimit = `A,B\nx,${'y'.repeat(IMPORT_LIMITS.maxCellChars)}\n`;
    expect((await openSheet(file(atLimit))).rowCount).toBe(1);
    const limits = { ...SHEET_LIMITS, maxRows: 3 };
    expect((await openSheet(file('A\n1\n\n2\n3\n'), undefined, limits)).rowCount).toBe(3);
    const e2 = await refusal(openSheet(file('A\n1\n2\n3\n4\n'), undefined, limits));
    expect([e2.statusCode, e2.message]).toEqual([400, IMPORT_MESSAGES.tooManyRows]);
  });

  it('opens without reading the whole file when told, and refuses over a limit as the rows reach it', async () => {
    const limits = { ...SHEET_LIMITS, maxRows: 2 };
    const sheet = await openSheet(file('A\n1\n2\n3\n'), undefined, limits, { scan: false });
    expect([sheet.headers, sheet.rowCount]).toEqual([['A'], null]);
    const seen: SheetRow[] = [];
    const e = await refusal(
      (async () => {
        for await (const r of sheet.rows()) seen.push(r);
      })(),
    );
    expect([e.message, seen.map((r) => r.row)]).toEqual([IMPORT_MESSAGES.tooManyRows, [2, 3]]);
  });

  it('refuses the real row limit', async () => {
    const lines = Array.from({ length: IMPORT_LIMITS.maxRows + 1 }, (_, i) => `${i}\n`).join('');
    const e = await refusal(openSheet(file(`N\n${lines}`)));
    expect(e.message).toBe(IMPORT_MESSAGES.tooManyRows);
  });
});

describe('XLSX files written by ExcelJS', () => {
  it('reads dates, numbers, formulas, booleans, shared and rich text, the first sheet by default', async () => {
    const data = await excelBuffer((wb) => {
      const ws = wb.addWorksheet('People');
      ws.addRow(['Name', 'Born', 'Score', 'Total', 'Active', 'Note']);
      ws.addRow(['Ann', new Date(Date.UTC(1990, 4, 17)), 3, { formula: 'C2*2', result: 6 }, true, 'plain']);
      ws.addRow([]);
      ws.addRow([
        'Bo',
        new Date(Date.UTC(2024, 1, 29, 23, 30)),
        0.1 + 0.2,
        { formula: 'C4&"x"', result: '0.3x' },
        false,
        { richText: [{ text: 'bold ', font: { bold: true } }, { text: 'and plain' }] },
      ]);
      ws.getCell('B2').numFmt = 'dd/mm/yyyy';
      ws.getCell('B4').numFmt = 'yyyy-mm-dd hh:mm';
      const other = wb.addWorksheet('Other sheet');
      other.addRow(['Code']);
      other.addRow(['X-1']);
    });
    const sheet = await openSheet(file(data));
    expect(sheet.format).toBe('xlsx');
    expect(sheet.sheets).toEqual(['People', 'Other sheet']);
    expect(sheet.sheet).toBe('People');
    expect(sheet.headers).toEqual(['Name', 'Born', 'Score', 'Total', 'Active', 'Note']);
    expect(await all(sheet.rows())).toEqual([
      { row: 2, cells: ['Ann', '1990-05-17', '3', '6', 'TRUE', 'plain'] },
      { row: 4, cells: ['Bo', '2024-02-29', '0.3', '0.3x', 'FALSE', 'bold and plain'] },
    ]);
    const other = await openSheet(file(data), 'other SHEET');
    expect(other.sheet).toBe('Other sheet');
    expect(await all(other.rows())).toEqual([{ row: 2, cells: ['X-1'] }]);
    const e = await refusal(openSheet(file(data), 'Missing'));
    expect([e.statusCode, e.message]).toEqual([400, IMPORT_MESSAGES.sheetNotFound]);
  });

  it('reads a streamed workbook (shared strings off) and pads short rows', async () => {
    const chunks: Buffer[] = [];
    const { PassThrough } = await import('node:stream');
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: false,
      useStyles: true,
    });
    const ws = wb.addWorksheet('Data');
    ws.addRow(['Employee Id', 'Date', 'Skill A', 'Skill B']).commit();
    for (let i = 1; i <= 500; i++)
      ws.addRow([`E${i}`, `2024-03-${String((i % 28) + 1).padStart(2, '0')}`, i % 6]).commit();
    ws.commit();
    await wb.commit();
    const sheet = await openSheet(file(Buffer.concat(chunks)));
    const rows = await all(sheet.rows());
    expect(rows).toHaveLength(500);
    expect(rows[0]).toEqual({ row: 2, cells: ['E1', '2024-03-02', '1', ''] });
    expect(rows[499]).toEqual({ row: 501, cells: ['E500', '2024-03-25', '2', ''] });
  });

  it('refuses a cell too long and too many columns', async () => {
    const long = await excelBuffer((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow(['A']);
      ws.addRow(['x'.repeat(IMPORT_LIMITS.maxCellChars + 1)]);
    });
    expect((await refusal(openSheet(file(long)))).message).toBe(IMPORT_MESSAGES.cellTooLong);
    const wide = await excelBuffer((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow(['A']);
      ws.getCell(2, IMPORT_LIMITS.maxColumns + 1).value = 'far';
    });
    expect((await refusal(openSheet(file(wide)))).message).toBe(IMPORT_MESSAGES.tooManyColumns);
  });
});

describe('XLSX files written by SheetJS', () => {
  it('reads date cells, numbers as written, booleans and a formula result', async () => {
    const ws = SheetJS.utils.aoa_to_sheet(
      [
        ['Employee Id', 'Date', 'Points', 'Flag'],
        ['E-7', new Date(Date.UTC(2024, 2, 1)), 4.25, true],
        ['E-8', '2024-03-02', 1234567, false],
      ],
      { cellDates: true, dateNF: 'yyyy-mm-dd' },
    );
    ws.E1 = { t: 's', v: 'Twice' };
    ws.E2 = { t: 'n', v: 8.5, f: 'C2*2' };
    ws['!ref'] = 'A1:E3';
    const wb = SheetJS.utils.book_new();
    SheetJS.utils.book_append_sheet(wb, SheetJS.utils.aoa_to_sheet([['ignored']]), 'First');
    SheetJS.utils.book_append_sheet(wb, ws, 'Scores');
    const data = Buffer.from(SheetJS.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST: true }));
    const sheet = await openSheet(file(data), 'Scores');
    expect(sheet.sheets).toEqual(['First', 'Scores']);
    expect(sheet.headers).toEqual(['Employee Id', 'Date', 'Points', 'Flag', 'Twice']);
    expect(await all(sheet.rows())).toEqual([
      { row: 2, cells: ['E-7', '2024-03-01', '4.25', 'TRUE', '8.5'] },
      { row: 3, cells: ['E-8', '2024-03-02', '1234567', 'FALSE', ''] },
    ]);
  });
});

describe('a zip bomb', () => {
  it('is refused from its directory, before anything is inflated', async () => {
    // 500 MB of one byte deflated to under a megabyte: a megabyte deflated once, its blocks repeated.
    const block = Buffer.alloc(1024 * 1024, 'A');
    const sheet = repeatedPart('xl/worksheets/sheet1.xml', Buffer.alloc(0), block, 500);
    const data = zipOf([partOf('[Content_Types].xml', '<Types/>'), sheet]);
    expect(data.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const e = await refusal(openSheet(file(data)));
    expect([e.statusCode, e.message]).toEqual([413, IMPORT_MESSAGES.inflates]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('is refused when its directory lies about what an entry inflates to', async () => {
    // A sheet whose directory says 200 bytes while its data inflates to 20 MB.
    const xml = `<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>A</t></is></c></row>${'<row/>'.repeat(
      3_500_000,
    )}</sheetData></worksheet>`;
    const data = zipOf(workbookParts(xml, 200));
    const e = await refusal(openSheet(file(data)));
    expect([e.statusCode, e.message]).toEqual([413, IMPORT_MESSAGES.inflates]);
  });

  it('counts what is inflated against the budget too', async () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `<row r="${i + 2}"><c t="inlineStr"><is><t>v${i}</t></is></c></row>`,
    );
    const data = zipOf(
      workbookParts(
        `<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>A</t></is></c></row>${rows.join('')}</sheetData></worksheet>`,
      ),
    );
    const sheet = await openSheet(file(data));
    expect(sheet.rowCount).toBe(3000);
    const e = await refusal(openSheet(file(data), undefined, { ...SHEET_LIMITS, maxInflatedBytes: 50_000 }));
    expect(e.statusCode).toBe(413);
  });
});

const workbookParts = (sheetXml: string, declared?: number) => [
  partOf(
    '_rels/.rels',
    '<Relationships><Relationship Id="r1" Type="http://x/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ),
  partOf('xl/workbook.xml', '<workbook><sheets><sheet name="S" sheetId="1" r:id="r1"/></sheets></workbook>'),
  partOf(
    'xl/_rels/workbook.xml.rels',
    '<Relationships><Relationship Id="r1" Type="http://x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  ),
  partOf('xl/worksheets/sheet1.xml', sheetXml, declared),
];

describe('pure parts of the XLSX reader', () => {
  it('reads columns, dates, numbers and date formats', () => {
    expect([columnOf('A1'), columnOf('Z9'), columnOf('AA3'), columnOf(undefined)]).toEqual([
      0,
      25,
      26,
      undefined,
    ]);
    expect(serialDate(45352)).toBe('2024-03-01');
    expect(serialDate(45352.99)).toBe('2024-03-01');
    expect(serialDate(0, true)).toBe('1904-01-01');
    expect(numberText('3')).toBe('3');
    expect(numberText('3.0000000000000004')).toBe('3');
    expect(numberText('0.30000000000000004')).toBe('0.3');
    expect(numberText('-12.5')).toBe('-12.5');
    expect(isDateFormat('dd/mm/yyyy')).toBe(true);
    expect(isDateFormat('[$-409]d-mmm-yy;@')).toBe(true);
    expect(isDateFormat('0.00"days"')).toBe(false);
    expect(isDateFormat('h:mm')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
  });
});

describe('shared strings', () => {
  it('are kept compact and found by index, and a workbook with too many is refused', async () => {
    const strings = new SharedStrings();
    for (const s of ['', 'Ann', 'Zoë, Jr.', '']) strings.add(s);
    expect([0, 1, 2, 3, 4, -1].map((i) => strings.get(i))).toEqual([
      '',
      'Ann',
      'Zoë, Jr.',
      '',
      undefined,
      undefined,
    ]);
    const many = new SharedStrings();
    for (let i = 0; i < 3000; i++) many.add(`s${i}`);
    expect([many.size, many.get(2999)]).toEqual([3000, 's2999']);
    const e = (() => {
      try {
        many.add('x'.repeat(MAX_SHARED_CHARS));
      } catch (err) {
        return err as ApiError;
      }
    })();
    expect(e?.statusCode).toBe(413);
  });
});

describe('CSV quotes', () => {
  it('reads a quote inside an unquoted field as text', async () => {
    const sheet = await openSheet(file('Item,Size\nScreen,15" wide\n'));
    expect(await all(sheet.rows())).toEqual([{ row: 2, cells: ['Screen', '15" wide'] }]);
  });
});
