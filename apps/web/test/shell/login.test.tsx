import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiEnvelope } from '@wfc/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEY } from '../../src/auth/storage';
import { deferred, fail, ok, renderApp, resetToasts, sessionUser } from './support';

afterEach(() => {
  resetToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login screen', () => {
  it('shows the fields with their placeholders and a full-width Login button', async () => {
    renderApp('/login');
    expect((await screen.findByLabelText('Username')).getAttribute('placeholder')).toBe('Enter username');
    expect(screen.getByLabelText('Password').getAttribute('placeholder')).toBe('Password');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Login' }).className).toMatch(/MuiButton-fullWidth/);
    expect(document.title).toBe('Login | Workforce Console');
  });

  it('disables the button reading "Logging in..." while the request runs, then goes home', async () => {
    const answer = deferred<ApiEnvelope>();
    const app = renderApp('/login', { handlers: { login: answer.promise } });
    await fillAndSubmit('maria', 'secret-password-1');

    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(app.callsTo('login')[0]).toMatchObject({
      method: 'POST',
      body: { username: 'maria', password: 'secret-password-1' },
    });

    answer.resolve(ok(sessionUser(['VIEW_GENDERS'], 'maria'), 'Logged in successfully'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    expect(app.pathname()).toBe('/');
    expect(await screen.findByText('Logged in successfully')).toBeTruthy();
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}');
    expect(stored.auth).toMatchObject({ isAuthenticated: true, user: { username: 'maria' } });
  });

  it("shows the server's message and logs 'Login failed' when the credentials are refused", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = renderApp('/login', { handlers: { login: fail(401, 'Invalid username or password') } });
    await fillAndSubmit('maria', 'wrong');

    // The toast, and the card's own alert that outlives it.
    expect(await screen.findAllByText('Invalid username or password')).toHaveLength(2);
    expect(log).toHaveBeenCalledWith('Login failed', 'Invalid username or password');
    const button = screen.getByRole('button', { name: 'Login' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(app.pathname()).toBe('/login');
    expect(window.localStorage.getItem(STORAGE_KEY)).toContain('"isAuthenticated":false');
  });

  it("falls back to 'Failed to login' when the answer has no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/login', { handlers: { login: fail(500, '') } });
    await fillAndSubmit('maria', 'secret');
    // The toast, and the card's own alert that outlives it.
    expect(await screen.findAllByText('Failed to login')).toHaveLength(2);
  });

  it('reports an unreachable server', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/login');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    await fillAndSubmit('maria', 'secret');
    // The toast, and the card's own alert that outlives it.
    expect(await screen.findAllByText('Network error: the server could not be reached')).toHaveLength(2);
    expect(log.mock.calls[0]![0]).toBe('Login failed');
  });
});
