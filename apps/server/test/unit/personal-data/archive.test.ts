import { PERSONAL_DATA_FILES } from '@wfc/contract';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { personalDataZip, separateFiles, summaryHtml } from '../../../src/personal-data/archive.ts';

const person = { userCode: 'USER-1', username: '<b>ada</b>', employeeCodes: [], profileCodes: ['PROFILE-1'] };

describe('the access request archive', () => {
  it('turns times into ISO text and bytes into files the JSON points to, named by table, row and column', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const { tables, files } = separateFiles({
      profile_pictures: [{ profile_code: 'PROFILE-1', original: bytes, extension: 'webp' }],
      sessions: [{ created_at: new Date('2026-01-02T03:04:05.000Z'), ip: null }],
    });
    expect(tables).toEqual({
      profile_pictures: [
        {
          profile_code: 'PROFILE-1',
          original: { file: 'pictures/profile_pictures-1-original.webp' },
          extension: 'webp',
        },
      ],
      sessions: [{ created_at: '2026-01-02T03:04:05.000Z', ip: null }],
    });
    expect(files).toEqual({ 'pictures/profile_pictures-1-original.webp': bytes });
  });

  it('writes a summary that shows values as text, never as markup', () => {
    const html = summaryHtml(
      {
        exportedAt: '2026-11-27T10:00:00.000Z',
        person,
        tables: { users: [{ username: '<img src=x onerror=alert(1)>', role: { a: 1 } }], sessions: [] },
      },
      { users: { label: 'User account' }, sessions: { label: 'Sessions' } },
    );
    expect(html).toContain('<title>Personal data of &lt;b&gt;ada&lt;/b&gt;</title>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<h2>User account (1)</h2>');
    expect(html).toContain('<h2>Sessions</h2><p class="none">Nothing held.</p>');
  });

  it('zips the JSON, the summary and the files', () => {
    const zip = personalDataZip(
      { exportedAt: '2026-11-27T10:00:00.000Z', person, tables: { pics: [{ data: new Uint8Array([7]) }] } },
      {},
    );
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(
      [PERSONAL_DATA_FILES.data, PERSONAL_DATA_FILES.summary, 'pictures/pics-1-data.bin'].sort(),
    );
    const data = JSON.parse(strFromU8(files[PERSONAL_DATA_FILES.data] ?? new Uint8Array()));
    expect(data.tables.pics).toEqual([{ data: { file: 'pictures/pics-1-data.bin' } }]);
  });
});
