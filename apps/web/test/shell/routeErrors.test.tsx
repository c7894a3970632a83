import { render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { createQueryClient } from '../../src/app/queryClient';
import { withRouteErrors } from '../../src/app/router';
import { writeStoredUser } from '../../src/auth/storage';
import { AppShell } from '../../src/layout/AppShell';
import { RouteErrorShell } from '../../src/layout/RouteErrorShell';
import { CHUNK_RELOAD_KEY, isChunkLoadError, mayReloadForChunk } from '../../src/ui/RouteErrorPage';
import { ok, sessionUser, stubApi } from './support';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/PerformancePage-x1.js');

function Boom(): never {
  throw new Error('Cannot read properties of undefined');
}
const MissingChunk = lazy(() => Promise.reject(chunkError()));

function renderShell(path: string) {
  const user = sessionUser([], 'maria');
  writeStoredUser(user);
  stubApi({ GetSession: ok(user) });
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <AppShell search={() => null} />,
        errorElement: <RouteErrorShell />,
        children: withRouteErrors([
          { index: true, element: <h1>Home screen</h1> },
          { path: 'boom', element: <Boom /> },
          { path: 'missing', element: <MissingChunk /> },
        ]),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('the route error page', () => {
  it('shows a screen that threw inside the header and footer, with Retry and Home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderShell('/boom');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong on this page' }),
    ).toBeTruthy();
    expect(screen.getByText('Cannot read properties of undefined')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('main').querySelector('a[href="/"]')?.textContent).toBe('Home');
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
  });

  it('a chunk that fails to load right after a reload shows the page, without reloading again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    renderShell('/missing');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' }),
    ).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
  });
});

describe('reloading for a missing chunk', () => {
  it('knows the browsers’ words for a module that could not be fetched', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once: not again within a minute of the last reload', () => {
    const now = Date.now();
    expect(mayReloadForChunk(now)).toBe(true);
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
    expect(mayReloadForChunk(now + 5_000)).toBe(false);
    expect(mayReloadForChunk(now + 61_000)).toBe(true);
  });
});
