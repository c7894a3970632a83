import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, sessionUser } from './support';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

/** A 1440 px wide window: jsdom has no matchMedia, so MUI would otherwise take it for a phone. */
function desktop() {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: min !== null && Number(min[1]) <= 1440,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  });
}

/** The first render waits for the navigation's own chunk, which a loaded machine transforms slowly. */
const SLOW_CHUNK = { timeout: 15_000 };

async function navLinks() {
  const nav = await screen.findByRole('navigation', { name: 'Modules' }, SLOW_CHUNK);
  return within(nav)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);
}

describe('side navigation', () => {
  it('lists only the modules the role may view, then Performance Snapshot when it may', async () => {
    desktop();
    renderApp('/', {
      user: sessionUser(['VIEW_GENDERS', 'VIEW_CITIES', 'CREATE_ROLE', 'VIEW_PERFORMANCES']),
    });
    expect(await navLinks()).toEqual([
      ['Genders', '/registry/genders'],
      ['Cities', '/registry/cities'],
      ['Performance Snapshot', '/performance-snapshot'],
    ]);
  });

  it('leaves Performance Snapshot out for a role without VIEW_PERFORMANCES', async () => {
    desktop();
    renderApp('/', { user: sessionUser(['VIEW_GENDERS']) });
    expect(await navLinks()).toEqual([['Genders', '/registry/genders']]);
  });

  it('marks the module of the screen shown, its records included', async () => {
    desktop();
    renderApp('/registry/city/CITY-1', { user: sessionUser(['VIEW_STATES', 'VIEW_CITIES']) });
    const nav = await screen.findByRole('navigation', { name: 'Modules' }, SLOW_CHUNK);
    const current = within(nav).getByRole('link', { current: 'page' });
    expect(current.textContent).toBe('Cities');
    expect(within(nav).getByRole('link', { name: 'States' }).getAttribute('aria-current')).toBeNull();
  });

  it('remembers being collapsed to icons across visits', async () => {
    desktop();
    const user = userEvent.setup();
    renderApp('/', { user: sessionUser(['VIEW_GENDERS']) });
    const collapse = await screen.findByRole('button', { name: 'Collapse navigation' }, SLOW_CHUNK);
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
    await user.click(collapse);
    expect(screen.getByRole('button', { name: 'Expand navigation' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    // Icons only, but every link keeps its name.
    expect(await navLinks()).toEqual([['Genders', '/registry/genders']]);

    cleanup();
    renderApp('/', { user: sessionUser(['VIEW_GENDERS']) });
    const expand = await screen.findByRole('button', { name: 'Expand navigation' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await user.click(expand);
    expect(window.localStorage.getItem('wfc-side-nav')).toBe('expanded');
  });

  it('is a drawer on a phone, opened from the header and closed once a module is chosen', async () => {
    const user = userEvent.setup();
    const app = renderApp('/', { user: sessionUser(['VIEW_GENDERS', 'VIEW_CITIES']) });
    const open = await screen.findByRole('button', { name: 'Modules' }, SLOW_CHUNK);
    expect(screen.queryByRole('navigation', { name: 'Modules' })).toBeNull();
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await user.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const nav = await screen.findByRole('navigation', { name: 'Modules' });
    await user.click(within(nav).getByRole('link', { name: 'Cities' }));
    expect(app.pathname()).toBe('/registry/cities');
    await waitFor(() => expect(open.getAttribute('aria-expanded')).toBe('false'));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Modules' })).toBeNull());
  });
});
