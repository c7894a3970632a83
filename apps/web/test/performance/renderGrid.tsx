import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { PerformanceRow } from '@wfc/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { STORAGE_KEY } from '../../src/auth/storage';
import PerformancePage from '../../src/performance/PerformancePage';
import { ok, type Stub, sessionUser, stubApi } from '../registry/harness';

export const EDITOR = ['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];

interface GridScreen {
  permissions?: readonly string[];
  /** The day's rows: the first page answers `GetPerformances`, all of them the report. */
  rows: readonly PerformanceRow[];
  pageSize?: number;
  handlers?: Record<string, Stub>;
  path?: string;
  /** A drawn row's height, for a test of which rows the virtualiser draws. */
  rowHeight?: number;
}

/**
 * The Performance Snapshot signed in, over a stubbed API. jsdom has no layout: no ResizeObserver
 * (the table only uses it for a hint) and no sizes, so the grid's scroll box gets a height and
 * edit mode draws the rows in it.
 */
export function renderGrid({
  permissions = EDITOR,
  rows,
  pageSize = rows.length,
  handlers = {},
  path = '/performance-snapshot?date=2024-03-05',
  rowHeight,
}: GridScreen) {
  const user = sessionUser([...permissions]);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  if (rowHeight) vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(rowHeight);
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ auth: { user, isAuthenticated: true } }));
  const api = stubApi({
    GetSession: ok(user),
    GetPerformances: ok(rows.slice(0, pageSize), 'Performances fetched successfully', rows.length),
    // Edit mode edits every row of the day, which the report lists unpaged.
    GetPerformanceReport: ok(rows, 'Performance report fetched successfully', rows.length),
    ...handlers,
  });
  const router = createMemoryRouter(
    [
      { path: '/performance-snapshot', element: <PerformancePage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...api, router };
}

export const cell = (skill: string, person: string) =>
  screen.getByRole('textbox', { name: `${skill} score for ${person}` });

/** Edit, then the inputs once the whole day (the report) has arrived. */
export async function startEditing(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Edit' }));
  await screen.findByRole('button', { name: 'Next unscored' });
}

/** Each test starts from no stubs and an empty browser storage. */
export function resetGridAfterEach() {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });
}
