import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../src/return-path.ts';

/* The one rule for the page a sign-in returns to: the web app's ?next= and single sign-on's. */

describe('safeReturnPath', () => {
  it.each([
    '/',
    '/registry',
    '/registry/countries?keyword=fr',
    '/registry/countries?keyword=fr&page=2#results',
    '/registry/gender/GENDER-7K3M9Q2XJ4ABCD5E',
    '/performance-snapshot?date=2024-05-01',
    '/registry/countries?keyword=%2F%2Fevil.example',
    '/registry/skills?keyword=caf%C3%A9',
  ])('keeps the same-origin path %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/registry'],
    ['three slashes', '///evil.example'],
    ['a backslash after the slash', '/\\evil.example'],
    ['a backslash as the first character', '\\\\evil.example'],
    ['a backslash further on', '/registry\\..\\..\\evil'],
    ['an absolute URL', 'https://evil.example/registry'],
    ['an absolute URL to this very path', 'http://console.invalid/registry'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'registry/countries'],
    ['a dotted relative path', '../registry'],
    ['a tab the browser would drop', '/\t/evil.example'],
    ['a newline the browser would drop', '/\n/evil.example'],
    ['a carriage return', '/registry\r\nLocation: //evil.example'],
    ['a NUL', '/registry\u0000'],
    ['a C1 control', '/registry\u0085'],
    ['a leading space', ' /registry'],
    ['the login page itself', '/login'],
    ['the login page with its own target', '/login?next=%2Fregistry'],
    ['an empty string', ''],
    ['an over-long path', `/${'a'.repeat(2001)}`],
  ])('sends %s home', (_case, raw) => {
    expect(safeReturnPath(raw)).toBe('/');
  });

  it('sends a missing target home', () => {
    expect(safeReturnPath(null)).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
  });
});

describe('safeReturnPath for single sign-on', () => {
  it('is a path on this origin, else home', () => {
    expect(safeReturnPath('/registry/genders?page=2#top')).toBe('/registry/genders?page=2#top');
    for (const bad of [
      undefined,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\tevil',
      'javascript:alert(1)',
      '/login',
      '/login?next=/x',
      '/api/logout',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBe('/');
    }
  });
  it('never returns anything but a single-slash path (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = safeReturnPath(s);
        expect(out === '/' || (out.startsWith('/') && !out.startsWith('//') && !out.includes('\\'))).toBe(
          true,
        );
      }),
    );
  });
});
