import { describe, expect, it } from 'vitest';
import { loginPath, returnTargetFrom } from '../../src/auth/returnTarget';

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
