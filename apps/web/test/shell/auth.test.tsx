import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { SessionUser } from '@wfc/contract';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from '../../src/api/client';
import { createQueryClient } from '../../src/app/queryClient';
import { AuthProvider, useAuth, useCan } from '../../src/auth/auth';
import { parseStoredUser, readStoredUser, STORAGE_KEY, writeStoredUser } from '../../src/auth/storage';
import { deferred, fail, ok, renderApp, resetToasts, sessionUser, stubApi } from './support';

afterEach(() => {
  resetToasts();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const stored = () => JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null');

/** The session is read through TanStack Query, so the provider needs a client above it. */
const renderAuth = (ui: ReactNode) =>
  render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

function WhoAmI() {
  const { user, isAuthenticated } = useAuth();
  const can = useCan();
  return (
    <p data-testid="who">
      {isAuthenticated ? `${user?.username} can-view-roles=${can('VIEW_ROLES')}` : 'nobody'}
    </p>
  );
}

describe('stored auth state', () => {
  it('is kept under the key root with the user and the authenticated flag', () => {
    const user = sessionUser(['VIEW_ROLES'], 'maria');
    writeStoredUser(user);
    expect(stored()).toEqual({ auth: { user, isAuthenticated: true } });
    expect(readStoredUser()?.username).toBe('maria');
    writeStoredUser(null);
    expect(stored()).toEqual({ auth: { user: null, isAuthenticated: false } });
    expect(readStoredUser()).toBeNull();
  });

  it('reads anything malformed as signed out', () => {
    expect(parseStoredUser('{not json')).toBeNull();
    expect(
      parseStoredUser(JSON.stringify({ auth: { user: { username: 'x' }, isAuthenticated: true } })),
    ).toBeNull();
    expect(
      parseStoredUser(JSON.stringify({ auth: { user: sessionUser([]), isAuthenticated: false } })),
    ).toBeNull();
    expect(parseStoredUser(null)).toBeNull();
  });
});

describe('AuthProvider', () => {
  it('refreshes the stored user from GetSession so permission changes apply at once', async () => {
    writeStoredUser(sessionUser([], 'maria'));
    const api = stubApi({ GetSession: ok(sessionUser(['VIEW ROLES'], 'maria')) });
    renderAuth(
      <AuthProvider>
        <WhoAmI />
      </AuthProvider>,
    );
    expect((await screen.findByTestId('who')).textContent).toBe('maria can-view-roles=true');
    expect(api.callsTo('GetSession')).toHaveLength(1);
    // Stored by an effect after the render that shows it.
    await waitFor(() =>
      expect(stored().auth.user.role.rolePermissions[0]?.permissionName).toBe('VIEW ROLES'),
    );
  });

  it('does not ask the server when nobody was signed in', async () => {
    const api = stubApi({});
    renderAuth(
      <AuthProvider>
        <WhoAmI />
      </AuthProvider>,
    );
    expect((await screen.findByTestId('who')).textContent).toBe('nobody');
    expect(api.calls).toHaveLength(0);
  });

  it('shows the stored user once the restore time-out passes without an answer', async () => {
    writeStoredUser(sessionUser(['VIEW_ROLES'], 'maria'));
    const never = deferred<never>();
    stubApi({ GetSession: never.promise });
    renderAuth(
      <AuthProvider restoreTimeoutMs={50}>
        <WhoAmI />
      </AuthProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByTestId('who')).toBeNull();
    expect((await screen.findByTestId('who')).textContent).toBe('maria can-view-roles=true');
  });

  it('keeps the stored user, asking once, when the server cannot be reached', async () => {
    writeStoredUser(sessionUser(['VIEW_ROLES'], 'maria'));
    const api = stubApi({ GetSession: () => Promise.reject(new TypeError('fetch failed')) });
    renderAuth(
      <AuthProvider>
        <WhoAmI />
      </AuthProvider>,
    );
    expect((await screen.findByTestId('who')).textContent).toBe('maria can-view-roles=true');
    expect(api.callsTo('GetSession')).toHaveLength(1);
  });

  it('clears the user on a 401 from any call', async () => {
    const user = sessionUser(['VIEW_ROLES'], 'maria');
    writeStoredUser(user);
    stubApi({ GetSession: ok(user), GetRoles: fail(401, 'Not signed in') });
    renderAuth(
      <AuthProvider>
        <WhoAmI />
      </AuthProvider>,
    );
    expect((await screen.findByTestId('who')).textContent).toBe('maria can-view-roles=true');
    await act(async () => {
      await expect(api.get('GetRoles')).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 401);
    });
    expect(screen.getByTestId('who').textContent).toBe('nobody');
    expect(stored()).toEqual({ auth: { user: null, isAuthenticated: false } });
  });

  it('follows a sign-out made in another tab', async () => {
    const user = sessionUser(['VIEW_ROLES'], 'maria');
    writeStoredUser(user);
    stubApi({ GetSession: ok(user) });
    renderAuth(
      <AuthProvider>
        <WhoAmI />
      </AuthProvider>,
    );
    await screen.findByText('maria can-view-roles=true');
    const signedOut = JSON.stringify({ auth: { user: null, isAuthenticated: false } });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEY, newValue: signedOut }));
    });
    expect(screen.getByTestId('who').textContent).toBe('nobody');
  });
});

describe('API status handling in the app', () => {
  it('sends the user to the login route when the stored session has expired', async () => {
    const app = renderApp('/registry', {
      user: sessionUser(['VIEW_GENDERS']),
      handlers: { GetSession: fail(401, 'Your session has expired') },
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.pathname()).toBe('/login');
    expect(stored().auth.isAuthenticated).toBe(false);
  });

  it('asks for the session once: forgetting cached data on sign-out does not ask again', async () => {
    const app = renderApp('/', {
      user: sessionUser(['VIEW_GENDERS']),
      handlers: { GetAudits: fail(401, 'Your session has expired') },
    });
    await screen.findByRole('heading', { name: 'Welcome, tester' });
    await act(async () => {
      await expect(api.get('GetAudits')).rejects.toBeInstanceOf(ApiError);
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.callsTo('GetSession')).toHaveLength(1);
  });

  it('sends the user to /access-denied on a 403 from any call', async () => {
    const user: SessionUser = sessionUser(['VIEW_GENDERS']);
    const app = renderApp('/', { user, handlers: { GetAudits: fail(403, 'Permission denied') } });
    await screen.findByRole('heading', { name: 'Welcome, tester' });
    await act(async () => {
      await expect(api.get('GetAudits')).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 403);
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Access Denied');
    expect(app.pathname()).toBe('/access-denied');
  });
});
