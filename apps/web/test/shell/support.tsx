import { act, configure } from '@testing-library/react';
import type { ApiEnvelope, SessionUser } from '@wfc/contract';
import { toast } from 'react-toastify/unstyled';
import { vi } from 'vitest';
import { writeStoredUser } from '../../src/auth/storage';
import { renderWholeApp } from '../support/app';
import { sessionUser } from '../support/session';

export { sessionUser };

// MUI in jsdom on a shared 2-core machine is slow; a short wait makes tests flaky, not stricter.
configure({ asyncUtilTimeout: 8000 });

export interface Call {
  method: string;
  path: string;
  body: Record<string, string>;
}

/** A fixed answer, or a function of the call; a promise holds the answer until the test settles it. */
export type Handler =
  | ApiEnvelope
  | Promise<ApiEnvelope>
  | ((call: Call) => ApiEnvelope | Promise<ApiEnvelope>);

/**
 * Answers the app's `/api/{path}` calls from `handlers` (a 404 envelope otherwise) and records
 * them. Only the network boundary is replaced: the client, envelope handling and listeners run.
 */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const body = Object.fromEntries(new URLSearchParams(typeof init?.body === 'string' ? init.body : ''));
      const call: Call = { method: init?.method ?? 'GET', path: url.pathname.replace(/^\/api\//, ''), body };
      calls.push(call);
      const handler = handlers[call.path];
      const env = handler
        ? await (typeof handler === 'function' ? handler(call) : handler)
        : { statusCode: 404, message: `No stub for ${call.path}` };
      return new Response(JSON.stringify(env), {
        status: env.statusCode,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, callsTo: (path: string) => calls.filter((c) => c.path === path) };
}

export const ok = <T,>(data?: T, message = 'OK'): ApiEnvelope<T> => ({ statusCode: 200, message, data });
export const fail = (statusCode: number, message: string): ApiEnvelope => ({ statusCode, message });

/** A promise the test settles by hand, to observe the screen while a request is still running. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The whole app (providers, routes, guards) in a memory router at `path`; with `user`, as if that
 * user had signed in earlier (stored auth state, and GetSession confirms it unless stubbed).
 */
export function renderApp(
  path: string,
  opts: { user?: SessionUser; handlers?: Record<string, Handler> } = {},
) {
  const { user, handlers = {} } = opts;
  if (user) writeStoredUser(user);
  const api = stubApi({ ...(user ? { GetSession: ok(user) } : {}), ...handlers });
  return { ...api, ...renderWholeApp(path) };
}

/** Toasts live in module state of react-toastify; each test starts without leftovers. */
export function resetToasts() {
  act(() => {
    toast.dismiss();
  });
}
