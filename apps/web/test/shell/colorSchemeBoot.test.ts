import { afterEach, describe, expect, it, vi } from 'vitest';
import indexHtml from '../../index.html?raw';
import source from '../../public/color-scheme-v1.js?raw';
import { COLOR_MODE_STORAGE_KEY, COLOR_SCHEME_ATTRIBUTE } from '../../src/theme';

const SCRIPT = 'color-scheme-v1.js';

/** Runs the boot script as the browser would before the first paint, the system dark or not. */
function boot(systemDark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-color-scheme: dark)' && systemDark,
  }));
  new Function(source)();
  return {
    attribute: document.documentElement.getAttribute(COLOR_SCHEME_ATTRIBUTE),
    meta: document.querySelector('meta[name="color-scheme"]')?.getAttribute('content'),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  document.documentElement.removeAttribute(COLOR_SCHEME_ATTRIBUTE);
  document.head.innerHTML = '';
});

describe('the colour scheme before the first paint', () => {
  it('is loaded first in the page head, as a file (the CSP allows no inline script)', () => {
    const head = indexHtml.slice(0, indexHtml.indexOf('</head>'));
    expect(head).toContain(`<script src="/${SCRIPT}"></script>`);
    expect(head).toContain('<meta name="color-scheme" content="light dark" />');
    expect(head.indexOf('name="color-scheme"')).toBeLessThan(head.indexOf(SCRIPT));
  });

  it('reads the key and writes the attribute the app uses', () => {
    expect(source).toContain(`'${COLOR_MODE_STORAGE_KEY}'`);
    expect(source).toContain(`'${COLOR_SCHEME_ATTRIBUTE}'`);
  });

  it('follows the system until the user picks, then the pick', () => {
    document.head.innerHTML = '<meta name="color-scheme" content="light dark">';
    expect(boot(true)).toEqual({ attribute: 'dark', meta: 'dark' });
    expect(boot(false)).toEqual({ attribute: 'light', meta: 'light' });
    window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, 'dark');
    expect(boot(false)).toEqual({ attribute: 'dark', meta: 'dark' });
    window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, 'light');
    expect(boot(true)).toEqual({ attribute: 'light', meta: 'light' });
    window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, 'system');
    expect(boot(true)).toEqual({ attribute: 'dark', meta: 'dark' });
  });
});
