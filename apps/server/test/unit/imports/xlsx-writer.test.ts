import type { Readable } from 'node:stream';
import * as SheetJS from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, rowXml, sheetName, xlsxFile, xmlText } from '../../../src/http/xlsx.ts';
import { openSheet } from '../../../src/imports/files/open.ts';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe('the XLSX writer', () => {
  it('writes a workbook other spreadsheet libraries read back, cells exactly as given', async () => {
    const rows = [
      ['Ann & Bo <ltd>', '=HYPERLINK("http://x")', '', 'Zoë "Z"'],
      ['-5', '+1', '@sum', 'two\nlines'],
    ];
    const data = await bytes(
      xlsxFile(['Name', 'Formula-like', 'Empty', 'Quoted'], rows, {
        sheetName: 'Departments',
        extraSheets: [{ name: 'Accepted values', headers: ['Country'], rows: [['NO'], ['SE']] }],
      }),
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Departments', 'Accepted values']);
    const ws = wb.getWorksheet('Departments');
    expect(ws?.getRow(1).values).toEqual([undefined, 'Name', 'Formula-like', 'Empty', 'Quoted']);
    expect(ws?.getCell('A2').value).toBe('Ann & Bo <ltd>');
    // Formula-looking text stays text: not a formula, its value unchanged.
    expect(ws?.getCell('B2').value).toBe('=HYPERLINK("http://x")');
    expect(ws?.getCell('B2').type).toBe(ExcelJS.ValueType.String);
    expect(ws?.getCell('A3').value).toBe('-5');
    expect(ws?.getCell('D3').value).toBe('two\nlines');
    expect(wb.getWorksheet('Accepted values')?.getCell('A3').value).toBe('SE');

    const sj = SheetJS.read(data, { type: 'buffer' });
    expect(SheetJS.utils.sheet_to_json(sj.Sheets.Departments as SheetJS.WorkSheet, { header: 1 })).toEqual([
      ['Name', 'Formula-like', 'Empty', 'Quoted'],
      ['Ann & Bo <ltd>', '=HYPERLINK("http://x")', undefined, 'Zoë "Z"'],
      ['-5', '+1', '@sum', 'two\nlines'],
    ]);
    expect(sj.Sheets.Departments?.B2?.f).toBeUndefined();

    // And the console's own reader takes it back as written.
    const sheet = await openSheet({ data, fileName: 'x.xlsx' });
    const read: string[][] = [];
    for await (const r of sheet.rows()) read.push(r.cells);
    expect(sheet.headers).toEqual(['Name', 'Formula-like', 'Empty', 'Quoted']);
    expect(read).toEqual(rows);
  });

  it('streams 100,000 rows from a generator without holding them', async () => {
    function* rows() {
      for (let i = 0; i < 100_000; i++) yield [`E${i}`, `Person ${i}`, String(i % 7)];
    }
    const data = await bytes(xlsxFile(['Employee Id', 'Name', 'Score'], rows()));
    const sheet = await openSheet({ data, fileName: 'big.xlsx' });
    expect(sheet.rowCount).toBe(100_000);
    let last: string[] = [];
    for await (const r of sheet.rows()) last = r.cells;
    expect(last).toEqual(['E99999', 'Person 99999', '4']);
  }, 60_000);

  it('has pure parts that escape, name columns and sheets', () => {
    expect(xmlText('a&b<c>"d"\u0001')).toBe('a&amp;b&lt;c&gt;&quot;d&quot;');
    expect([columnName(0), columnName(25), columnName(26), columnName(701), columnName(702)]).toEqual([
      'A',
      'Z',
      'AA',
      'ZZ',
      'AAA',
    ]);
    expect(sheetName('Roles: a/b [x]?')).toBe('Roles  a b  x');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('Data', new Set(['data']))).toBe('Data (2)');
    expect(rowXml(2, ['', '=1'])).toBe(
      '<row r="2"><c r="B2" t="inlineStr" s="1"><is><t xml:space="preserve">=1</t></is></c></row>',
    );
  });
});
