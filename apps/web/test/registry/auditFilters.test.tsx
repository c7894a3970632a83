import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { dispositionFilename } from '../../src/api/download';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

const ENTRY = {
  auditCode: 'AUDIT-1',
  action: 'CREATE',
  collection: 'genders',
  before: null,
  after: { genderName: 'Male' },
  changes: null,
  user: { userCode: 'USER-1', username: 'alice' },
  createdAt: '2026-11-20T10:00:00.000Z',
};

resetScreensAfterEach();

describe('the audit log filters', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('send each filter as a query parameter, keep them in the URL, and clear them', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/audit-logs', ['VIEW_AUDITS'], {
      GetAudits: ok([ENTRY], 'Audit Logs fetched successfully', 1),
    });
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeTruthy();
    const filters = screen.getByRole('search', { name: 'Filters' });

    await user.type(within(filters).getByLabelText('User'), 'ali{Enter}');
    await waitFor(() =>
      expect(api.lastCallTo('GetAudits')?.query).toMatchObject({ username: 'ali', page: '1' }),
    );

    await user.click(within(filters).getByLabelText('Module'));
    await user.click(await screen.findByRole('option', { name: 'Genders' }));
    await waitFor(() =>
      expect(api.lastCallTo('GetAudits')?.query).toMatchObject({ username: 'ali', collection: 'genders' }),
    );

    await user.click(within(filters).getByLabelText('Action'));
    expect(screen.getByRole('option', { name: 'Any' })).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'Sign-in failed' }));
    await waitFor(() => expect(api.lastCallTo('GetAudits')?.query).toMatchObject({ action: 'LOGIN_FAILED' }));

    const from = within(filters).getByLabelText('From') as HTMLInputElement;
    await user.type(from, '2026-11-01');
    await waitFor(() => expect(api.lastCallTo('GetAudits')?.query).toMatchObject({ from: '2026-11-01' }));
    // A range cannot end before it starts.
    expect((within(filters).getByLabelText('To') as HTMLInputElement).min).toBe('2026-11-01');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => {
      const query = api.lastCallTo('GetAudits')?.query ?? {};
      for (const param of ['username', 'collection', 'action', 'from', 'to'])
        expect(query[param]).toBeUndefined();
    });
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('reads the filters from a link', async () => {
    const api = renderRegistry('/registry/audit-logs?action=LOGIN&to=2026-11-30', ['VIEW_AUDITS'], {
      GetAudits: ok([ENTRY], 'Audit Logs fetched successfully', 1),
    });
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeTruthy();
    expect(api.lastCallTo('GetAudits')?.query).toMatchObject({ action: 'LOGIN', to: '2026-11-30' });
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-11-30');
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
  });

  it('offers Retry when the list fails, and shows the list once it answers', async () => {
    const user = userEvent.setup();
    let calls = 0;
    renderRegistry('/registry/audit-logs', ['VIEW_AUDITS'], {
      GetAudits: reply(() => {
        calls += 1;
        return calls === 1
          ? { statusCode: 503, message: 'Database unavailable' }
          : ok([ENTRY], 'Audit Logs fetched successfully', 1);
      }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Database unavailable');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeTruthy();
  });
});

describe('the audit log export', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('asks for every entry the keyword and filters match, and says a refusal', async () => {
    const user = userEvent.setup();
    // jsdom has no object URLs; the download itself is the browser's part.
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    let refuse = false;
    const api = renderRegistry(
      '/registry/audit-logs?keyword=gender&action=CREATE&page=2&limit=20',
      ['VIEW_AUDITS'],
      {
        GetAudits: ok([ENTRY], 'Audit Logs fetched successfully', 21),
        ExportAudits: reply(() =>
          refuse ? { statusCode: 503, message: 'Database unavailable' } : ok(null, 'CSV'),
        ),
      },
    );
    await screen.findByRole('cell', { name: 'alice' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.callsTo('ExportAudits')).toHaveLength(1));
    const query = api.lastCallTo('ExportAudits')?.query ?? {};
    expect(query).toMatchObject({ keyword: 'gender', action: 'CREATE', sortField: '_id', sortValue: 'desc' });
    expect(query.page).toBeUndefined();
    expect(query.limit).toBeUndefined();
    await waitFor(() => expect(clicked).toEqual(['audit-logs.csv']));

    refuse = true;
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
  });

  it('names the file as the server does', () => {
    expect(dispositionFilename('attachment; filename="audit-logs-2026-11-25.csv"')).toBe(
      'audit-logs-2026-11-25.csv',
    );
    expect(dispositionFilename(null)).toBeUndefined();
    expect(dispositionFilename('inline')).toBeUndefined();
  });
});
