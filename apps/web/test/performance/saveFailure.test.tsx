import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PerformanceRow } from '@wfc/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { TOAST_AUTO_CLOSE_MS } from '../../src/ui/Toasts';
import { reply, SCREEN_TEST_TIMEOUT, type Stub } from '../registry/harness';
import { resetToasts } from '../shell/support';
import { renderGrid, resetGridAfterEach, startEditing } from './renderGrid';

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

const renderPage = (handlers: Record<string, Stub>) => renderGrid({ rows: ROWS, handlers });

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

resetGridAfterEach();
afterEach(resetToasts);

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
