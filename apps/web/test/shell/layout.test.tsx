import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiEnvelope } from '@wfc/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEY } from '../../src/auth/storage';
import { HASH_SCROLL_OFFSET_PX, scrollToHash } from '../../src/layout/scroll';
import { deferred, fail, ok, renderApp, resetToasts, sessionUser } from './support';

afterEach(() => {
  resetToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

const admin = () => sessionUser(['VIEW_GENDERS', 'VIEW_PERFORMANCES'], 'admin');

/** jsdom is narrower than lg for MUI (no matchMedia), so the header shows the collapsed menu. */
async function openMenu() {
  const user = userEvent.setup();
  const toggle = await screen.findByRole('button', { name: 'Open menu' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  await user.click(toggle);
  expect(screen.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
  return user;
}

describe('header', () => {
  it('links the logo home and offers Registry and Performance Snapshot', async () => {
    renderApp('/registry', { user: admin() });
    expect((await screen.findByRole('link', { name: 'Workforce Console home' })).getAttribute('href')).toBe(
      '/',
    );
    await openMenu();
    const menu = screen.getByRole('navigation', { name: 'Main' });
    const links = within(menu).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Registry', '/registry'],
      ['Performance Snapshot', '/performance-snapshot'],
    ]);
  });

  it('offers Performance Snapshot only to a user who may open it', async () => {
    renderApp('/registry', { user: sessionUser(['VIEW_GENDERS'], 'registrar') });
    await openMenu();
    const menu = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Registry']);
  });

  it('signs out: disabled and "Signing out" while the call runs, then the login route', async () => {
    const answer = deferred<ApiEnvelope>();
    const app = renderApp('/', { user: admin(), handlers: { logout: answer.promise } });
    const user = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));

    const busy = screen.getByRole('button', { name: /Signing out/ }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.textContent).toBe('Signing out');
    expect(app.callsTo('logout')[0]?.method).toBe('GET');

    answer.resolve(ok(undefined, 'Logged out successfully'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(await screen.findByText('Logged out successfully')).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEY)).toContain('"isAuthenticated":false');
  });

  it('keeps the user signed in and says so when sign-out fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = renderApp('/', {
      user: admin(),
      handlers: { logout: fail(500, 'The database is unavailable') },
    });
    const user = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('The database is unavailable')).toBeTruthy();
    expect(log).toHaveBeenCalledWith('Sign out failed', 'The database is unavailable');
    expect((screen.getByRole('button', { name: 'Sign Out' }) as HTMLButtonElement).disabled).toBe(false);
    expect(app.pathname()).toBe('/');
  });

  it('shows no menu and no sign-out to a signed-out visitor', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign Out' })).toBeNull();
  });
});

describe('footer', () => {
  it('shows the 2024 copyright line and the vendor credit', async () => {
    renderApp('/login');
    const footer = await screen.findByRole('contentinfo');
    const lines = within(footer)
      .getAllByText(/./, { selector: 'p' })
      .map((p) => p.textContent);
    expect(lines).toEqual(['© 2024 Workforce Corp. All rights reserved.', 'Powered by Workforce Console']);
  });
});

describe('page titles', () => {
  it.each([
    ['/', 'Home | Workforce Console'],
    ['/registry', 'Registry | Workforce Console'],
    ['/access-denied', 'Access Denied | Workforce Console'],
  ])('titles %s as "%s"', async (path, title) => {
    renderApp(path, { user: admin() });
    await screen.findByRole('heading', { level: 1 });
    // The screens' titles load in a chunk of their own, which may arrive after the heading.
    await waitFor(() => expect(document.title).toBe(title));
  });
});

describe('scrollToHash', () => {
  it('scrolls smoothly to the hash target, 50 px above it', () => {
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const target = document.createElement('section');
    target.id = 'team-results';
    document.body.append(target);
    vi.spyOn(target, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 400, 100, 100));
    scrollToHash('#team-results');
    expect(HASH_SCROLL_OFFSET_PX).toBe(50);
    expect(scroll).toHaveBeenCalledWith({ top: 350, behavior: 'smooth' });
    target.remove();
  });

  it('scrolls smoothly to the top without a hash', () => {
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    scrollToHash('');
    expect(scroll).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });
});
