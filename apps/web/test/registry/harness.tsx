import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, render } from '@testing-library/react';
import type { ApiEnvelope, PermissionScope } from '@wfc/contract';
import { createMemoryRouter, type InitialEntry, RouterProvider, useLocation } from 'react-router';
import { afterEach, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { STORAGE_KEY } from '../../src/auth/storage';
import { registryRoutes } from '../../src/registry/routes';
import { sessionUser } from '../support/session';

export { sessionUser };

// MUI in jsdom on a shared machine is slow; the default 1 s makes waits flaky rather than stricter.
configure({ asyncUtilTimeout: 8000 });

/** Tests render whole screens; allow them the time a busy machine needs. */
export const SCREEN_TEST_TIMEOUT = 60_000;

/**
 * After each of the file's tests: the screen unmounted (before fetch is restored, so nothing it
 * still sends reaches the network), fetch restored and the stored session removed.
 */
export function resetScreensAfterEach() {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });
}

/** One HTTP call the screens made, as the server would read it. */
export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  /** Multipart bodies keep their files. */
  files: Record<string, File>;
}

export type Handler = (call: Call) => ApiEnvelope | Promise<ApiEnvelope>;
/** A fixed answer, or a handler (wrapped in `reply`) for answers that depend on the call. */
export type Stub = ApiEnvelope | { reply: Handler };

export const reply = (handler: Handler): Stub => ({ reply: handler });

/**
 * Replaces the browser's fetch for the screens under test: each `/api/{path}` call is answered by
 * the handler of that path (404 envelope otherwise) and recorded, so tests can assert on exactly
 * what the screens asked for.
 */
export function stubApi(handlers: Record<string, Stub>) {
  const calls: Call[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body: Record<string, string> = {};
    const files: Record<string, File> = {};
    if (init?.body instanceof FormData) {
      for (const [k, v] of init.body.entries()) {
        if (typeof v === 'string') body[k] = v;
        else files[k] = v;
      }
    } else if (typeof init?.body === 'string') {
      for (const [k, v] of new URLSearchParams(init.body)) body[k] = v;
    }
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\//, ''),
      query: Object.fromEntries(url.searchParams),
      body,
      files,
    };
    calls.push(call);
    const stub = handlers[call.path];
    const env: ApiEnvelope = !stub
      ? { statusCode: 404, message: `No stub for ${call.path}` }
      : 'reply' in stub
        ? await stub.reply(call)
        : stub;
    return new Response(JSON.stringify(env), {
      status: env.statusCode,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    calls,
    callsTo: (path: string) => calls.filter((c) => c.path === path),
    lastCallTo: (path: string) => calls.filter((c) => c.path === path).at(-1),
  };
}

export const ok = <T,>(data: T, message = 'OK', total?: number): ApiEnvelope<T> => ({
  statusCode: 200,
  message,
  data,
  ...(total === undefined ? {} : { total }),
});

function LocationProbe() {
  const location = useLocation();
  const back = (location.state as { back?: string } | null)?.back ?? '';
  return (
    <output data-testid="location" data-back={back}>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/**
 * Renders the registry routes at `path` inside the app's real providers, signed in as a user
 * holding `permissions`. Other paths render a probe showing where the screen navigated.
 */
export function renderRegistry(
  path: InitialEntry,
  permissions: string[],
  handlers: Record<string, Stub>,
  scopes: Readonly<Record<string, PermissionScope>> = {},
) {
  const user = sessionUser(permissions, undefined, scopes);
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ auth: { user, isAuthenticated: true } }));
  const api = stubApi({ GetSession: ok(user), ...handlers });
  const router = createMemoryRouter(
    [
      { path: '/registry', children: registryRoutes },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...api, router, view };
}

export const ALL_PERMISSIONS_OF = (module: string, plural: string) => [
  `VIEW_${plural}`,
  `CREATE_${module}`,
  `UPDATE_${module}`,
  `DELETE_${module}`,
];
