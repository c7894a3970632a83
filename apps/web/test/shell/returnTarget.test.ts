import { describe, expect, it } from 'vitest';
import { loginPath, returnTargetFrom, safeReturnTarget } from '../../src/auth/returnTarget';

describe('safeReturnTarget', () => {
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
    expect(safeReturnTarget(path)).toBe(path);
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
    expect(safeReturnTarget(raw)).toBe('/');
  });

  it('sends a missing target home', () => {
    expect(safeReturnTarget(null)).toBe('/');
    expect(safeReturnTarget(undefined)).toBe('/');
  });
});

describe('the login URL', () => {
  it('keeps the page asked for, query string included, in `next`', () => {
    const path = loginPath('/registry/countries?keyword=fr');
    expect(path).toBe('/login?next=%2Fregistry%2Fcountries%3Fkeyword%3Dfr');
    expect(returnTargetFrom(path.slice('/login'.length))).toBe('/registry/countries?keyword=fr');
  });

  it('names nothing for Home or an unsafe target', () => {
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('//evil.example')).toBe('/login');
  });

  it('reads `next` from a query string, decoded, and validates it', () => {
    expect(returnTargetFrom('?next=%2Fregistry%3Fpage%3D2')).toBe('/registry?page=2');
    expect(returnTargetFrom('?next=//evil.example')).toBe('/');
    expect(returnTargetFrom('?next=%2F%2Fevil.example')).toBe('/');
    expect(returnTargetFrom('?next=%2F%5Cevil.example')).toBe('/');
    expect(returnTargetFrom('?next=https%3A%2F%2Fevil.example')).toBe('/');
    expect(returnTargetFrom('')).toBe('/');
  });
});
