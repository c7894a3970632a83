import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { createQueryClient } from '../../src/app/queryClient';
import { appRoutes, registryRoutePatcher } from '../../src/app/router';

/**
 * The whole app (providers, routes, guards) in a memory router with this history, at its last
 * entry. The caller stubs the API and stores the signed-in user first: its suites stub them apart.
 */
export function renderWholeApp(entries: string | string[]) {
  const initialEntries = typeof entries === 'string' ? [entries] : entries;
  const router = createMemoryRouter(appRoutes, {
    initialEntries,
    initialIndex: initialEntries.length - 1,
    patchRoutesOnNavigation: registryRoutePatcher(),
  });
  const view = render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, view, pathname: () => router.state.location.pathname };
}
