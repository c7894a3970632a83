import { describe, expect, it } from 'vitest';
import { ApiError, ApiFetchError } from '../../src/api/client';
import { readCspNonce } from '../../src/app/emotion';
import { shouldRetry } from '../../src/app/queryClient';
import { documentTitle, screenTitle } from '../../src/layout/titles';

describe('screenTitle', () => {
  it.each([
    ['/', 'Home'],
    ['/login', 'Login'],
    ['/registry/', 'Registry'],
    ['/registry/genders', 'Genders'],
    ['/registry/audit-logs', 'Audit Logs'],
    ['/registry/gender/create', 'Create Gender'],
    ['/registry/gender/edit/GENDER-1', 'Update Gender'],
    ['/registry/gender/GENDER-1', 'View Gender'],
    ['/registry/audit-log/AUDIT-1', 'View Audit Log'],
    ['/registry/role/ROLE-1/permissions', 'Role Permissions'],
    ['/registry/country/COUNTRY-1/states', 'Country States'],
    ['/registry/state/STATE-1/cities', 'State Cities'],
    ['/registry/departments/deleted', 'Deleted departments'],
    ['/performance-snapshot', 'Performance Snapshot'],
  ])('%s is "%s"', (path, title) => {
    expect(screenTitle(path)).toBe(title);
  });

  it('has no title for paths that are not screens', () => {
    expect(screenTitle('/registry/nothing')).toBeNull();
    expect(screenTitle('/registry/role/ROLE-1/users')).toBeNull();
    expect(screenTitle('/registry/audit-logs/deleted')).toBeNull();
    expect(documentTitle('/elsewhere')).toBe('Workforce Console');
    expect(documentTitle('/registry/skills')).toBe('Skills | Workforce Console');
  });
});

describe('shouldRetry', () => {
  const answer = (statusCode: number) => new ApiError({ statusCode, message: 'x' });

  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) expect(shouldRetry(0, answer(status))).toBe(false);
  });

  it('retries server errors and network failures twice', () => {
    expect(shouldRetry(0, answer(500))).toBe(true);
    expect(shouldRetry(1, new ApiFetchError('network', 'down'))).toBe(true);
    expect(shouldRetry(2, answer(503))).toBe(false);
  });
});

describe('readCspNonce', () => {
  const page = (content: string | null) => {
    const doc = document.implementation.createHTMLDocument();
    if (content !== null) {
      const meta = doc.createElement('meta');
      meta.setAttribute('property', 'csp-nonce');
      meta.setAttribute('content', content);
      doc.head.append(meta);
    }
    return doc;
  };

  it('reads the nonce the server stamped into the page', () => {
    expect(readCspNonce(page('r4nd0mN0nce=='))).toBe('r4nd0mN0nce==');
  });

  it('ignores the unreplaced placeholder of the dev server and a missing tag', () => {
    expect(readCspNonce(page('__CSP_NONCE__'))).toBeUndefined();
    expect(readCspNonce(page(null))).toBeUndefined();
  });
});
