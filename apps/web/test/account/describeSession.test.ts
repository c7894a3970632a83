import { describe, expect, it } from 'vitest';
import { describeUserAgent, recoveryCodesFile } from '../../src/account/describeSession';

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox on macOS',
    ],
    ['curl/8.5.0', 'Unknown browser'],
    [null, 'Unknown browser'],
  ])('%s is %s', (ua, name) => {
    expect(describeUserAgent(ua)).toBe(name);
  });
});

describe('recoveryCodesFile', () => {
  it('says whose codes they are and holds one per line', () => {
    const text = recoveryCodesFile(['AAAAA-BBBBB', 'CCCCC-DDDDD'], 'ana', new Date('2026-01-02T03:04:05Z'));
    expect(text.split('\n')).toEqual([
      'Workforce Console recovery codes for ana',
      'Created 2026-01-02. Each code signs in once, in place of a code from your app.',
      '',
      'AAAAA-BBBBB',
      'CCCCC-DDDDD',
      '',
    ]);
  });
});
