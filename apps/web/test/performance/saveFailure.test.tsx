import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PerformanceRow } from '@wfc/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { STORAGE_KEY } from '../../src/auth/storage';
import PerformancePage from '../../src/performance/PerformancePage';
import { TOAST_AUTO_CLOSE_MS } from '../../src/ui/Toasts';
import { ok, reply, SCREEN_TEST_TIMEOUT, type Stub, sessionUser, stubApi } from '../registry/harness';
import { resetToasts } from '../shell/support';

const EDITOR = ['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];
const ROWS: PerformanceRow[] = [
  {
    performanceCode: 'PERF-1',
    version: 2,
    employeeCode: 'EMP-1',
    employeeId: 'E-001',
    employeeName: 'Ann Lee',
    date: '2024-03-05',
    skills: [{ skillCode: 'SKILL-Accuracy', title: 'Accuracy', score: 7 }],
    total: { daily: 7, monthly: 6.5, yearly: 6.25 },
  },
];

function renderPage(handlers: Record<string, Stub>) {
  const user = sessionUser(EDITOR);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  // Nor any sizes: the grid's scroll box gets a height, so that edit mode draws the rows in it.
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ auth: { user, isAuthenticated: true } }));
  const api = stubApi({
    GetSession: ok(user),
    GetPerformances: ok(ROWS, 'Performances fetched successfully', 1),
    // Edit mode edits every row of the day, which the report lists unpaged.
    GetPerformanceReport: ok(ROWS, 'Performance report fetched successfully', 1),
    ...handlers,
  });
  const router = createMemoryRouter([{ path: '/performance-snapshot', element: <PerformancePage /> }], {
    initialEntries: ['/performance-snapshot?date=2024-03-05'],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return api;
}

/** The lasting alert: toasts are alerts too, and close on their own. */
const lasting = () => screen.queryAllByRole('alert').find((a) => !a.closest('.Toastify')) ?? null;
const findLasting = () =>
  waitFor(() => {
    const alert = lasting();
    expect(alert).not.toBeNull();
    return alert as HTMLElement;
  });

const accuracy = () => screen.getByRole('textbox', { name: 'Accuracy score for Ann Lee' });

/**
 * The toast's life (1 s) is over, with its closing animation, on the real clock. (jsdom runs no CSS
 * animations, which the toast's timer and its removal hang on, so its element stays in this DOM:
 * the test checks the lasting message outlives that time, the browser tests see the toast go.)
 */
const pastTheToast = () => act(() => new Promise((r) => setTimeout(r, TOAST_AUTO_CLOSE_MS + 700)));

/** Edit, then the inputs once the whole day (the report) has arrived. */
async function startEditing(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Edit' }));
  await screen.findByRole('button', { name: 'Next unscored' });
}

afterEach(() => {
  vi.restoreAllMocks();
  resetToasts();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('a failed save of the Performance Snapshot', () => {
  it(
    'leaves an alert in the editing area past the toast, until the user edits again',
    async () => {
      const user = userEvent.setup();
      const api = renderPage({
        CreateUpdatePerformances: reply(() => ({ statusCode: 500, message: 'The database is unavailable' })),
      });
      await startEditing(user);
      await user.clear(accuracy());
      await user.type(accuracy(), '9');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      const alert = await findLasting();
      expect(alert.textContent).toContain('Scores not saved');
      expect(alert.textContent).toContain('The database is unavailable');
      expect(alert.textContent).toContain('Nothing was saved');
      await pastTheToast();
      expect(lasting()).toBe(alert);
      // Still editing, the typed score kept.
      expect((accuracy() as HTMLInputElement).value).toBe('9');
      // Retry: Save again takes the alert away while it runs, and brings it back on a new failure.
      await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
      await waitFor(() => expect(lasting()).toBeNull());
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await findLasting();
      expect(api.callsTo('CreateUpdatePerformances')).toHaveLength(2);
      await user.clear(accuracy());
      await user.type(accuracy(), '8');
      await waitFor(() => expect(lasting()).toBeNull());
    },
    SCREEN_TEST_TIMEOUT,
  );
});
