import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetPagesSeen } from '../../src/auth/accessDenied';
import { writeStoredUser } from '../../src/auth/storage';
import { renderWholeApp } from '../support/app';
import { fail, ok, sessionUser, stubApi } from './support';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  forgetPagesSeen();
});

/**
 * The whole app with this history, at its last entry: signed in earlier as a user whose role held
 * `stored`, and whose role now holds `current` (the session check at start-up says so).
 */
function renderHistory(entries: string[], stored: string[], current: string[], handlers = {}) {
  writeStoredUser(sessionUser(stored, 'maria'));
  const api = stubApi({ GetSession: ok(sessionUser(current, 'maria')), ...handlers });
  return { ...api, ...renderWholeApp(entries) };
}

const deniedHeading = () => screen.findByRole('heading', { level: 1, name: 'Access Denied' });

describe('Access Denied', { timeout: 60_000 }, () => {
  it('names the permission removed mid-session, and Go Back skips the pages that refused', async () => {
    const user = userEvent.setup();
    // The overview was open in this tab before; VIEW_PERFORMANCES has been taken away since.
    const { router } = renderHistory(
      ['/performance-snapshot/overview', '/performance-snapshot'],
      ['VIEW_PERFORMANCES'],
      [],
    );
    await deniedHeading();
    expect(screen.getByTestId('missing-permission').textContent).toBe(
      'This page needs the permission View the performance snapshot (VIEW_PERFORMANCES), which your role does not have.',
    );
    expect(router.state.location.pathname).toBe('/access-denied');
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    // Not the overview behind it in history, which refuses too: home, the last page that did not.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('after a 403, Go Back returns to the last page the user could see, not the refused one', async () => {
    const user = userEvent.setup();
    const genders = ['VIEW_GENDERS', 'VIEW_PERFORMANCES'];
    const { router } = renderHistory(['/'], genders, genders, {
      GetGenders: fail(403, 'You do not have permission to do this'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    await router.navigate('/registry');
    await screen.findByRole('heading', { level: 1, name: 'Registry' });
    await router.navigate('/registry/genders');
    await deniedHeading();
    // The server does not say which permission: none is named.
    expect(screen.queryByTestId('missing-permission')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/registry'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Registry' })).toBeTruthy();
  });

  it('a screen that refuses by itself (Modules, with no module to show) is not gone back to either', async () => {
    const user = userEvent.setup();
    const { router } = renderHistory(['/'], [], []);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    await router.navigate('/registry');
    await deniedHeading();
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
  });
});
