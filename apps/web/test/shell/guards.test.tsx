import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { createQueryClient } from '../../src/app/queryClient';
import { RequirePermission } from '../../src/auth/guards';
import { writeStoredUser } from '../../src/auth/storage';
import { ok, renderApp, sessionUser, stubApi } from './support';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

/** A protected screen behind RequirePermission, signed in with `permissions`. */
function renderGuarded(permissions: string[], guard: { anyOf?: string[]; allOf?: string[] }) {
  const user = sessionUser(permissions);
  writeStoredUser(user);
  stubApi({ GetSession: ok(user) });
  const router = createMemoryRouter(
    [
      {
        path: '/secret',
        element: (
          <RequirePermission {...guard}>
            <h1>Secret screen</h1>
          </RequirePermission>
        ),
      },
      { path: '/access-denied', element: <h1>Denied screen</h1> },
    ],
    { initialEntries: ['/secret'] },
  );
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('RequirePermission', () => {
  it('renders the screen when every allOf permission is held', async () => {
    renderGuarded(['CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'], {
      allOf: ['CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'],
    });
    expect((await screen.findByRole('heading')).textContent).toBe('Secret screen');
  });

  it('sends to /access-denied, replacing the entry, when one allOf permission is missing', async () => {
    const router = renderGuarded(['CREATE_PERFORMANCE'], {
      allOf: ['CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'],
    });
    expect((await screen.findByRole('heading')).textContent).toBe('Denied screen');
    expect(router.state.location.pathname).toBe('/access-denied');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('accepts any one of anyOf, with spaces and underscores treated alike', async () => {
    renderGuarded(['VIEW ROLES'], { anyOf: ['VIEW_USERS', 'VIEW_ROLES'] });
    expect((await screen.findByRole('heading')).textContent).toBe('Secret screen');
  });

  it('denies when none of anyOf is held', async () => {
    renderGuarded(['VIEW_GENDERS'], { anyOf: ['VIEW_USERS', 'VIEW_ROLES'] });
    expect((await screen.findByRole('heading')).textContent).toBe('Denied screen');
  });
});

describe('app routes', () => {
  it('sends a signed-out visitor to the login route', async () => {
    const app = renderApp('/registry');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.pathname()).toBe('/login');
  });

  it('sends a signed-in user away from the login route to home', async () => {
    const app = renderApp('/login', { user: sessionUser(['VIEW_GENDERS'], 'maria') });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Welcome, maria');
    expect(app.pathname()).toBe('/');
  });

  it('shows the access-denied page without a signed-in user', async () => {
    const app = renderApp('/access-denied');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Access Denied');
    expect(app.pathname()).toBe('/access-denied');
  });

  it('sends an unknown path home', async () => {
    const app = renderApp('/no/such/page', { user: sessionUser(['VIEW_GENDERS']) });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Welcome, tester');
    expect(app.pathname()).toBe('/');
  });

  it('redirects /performance to /performance-snapshot at once', async () => {
    const app = renderApp('/performance', { user: sessionUser(['VIEW_PERFORMANCES']) });
    await vi.waitFor(() => expect(app.pathname()).toBe('/performance-snapshot'));
  });

  it('guards the performance snapshot with VIEW_PERFORMANCES', async () => {
    const app = renderApp('/performance-snapshot', { user: sessionUser(['VIEW_GENDERS']) });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Access Denied');
    expect(app.pathname()).toBe('/access-denied');
  });
});
