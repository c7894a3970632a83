import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { auditDiff } from '../../src/registry/audit/auditDiff';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen } from './loaded';

const UPDATE = {
  auditCode: 'AUDIT-1',
  action: 'UPDATE',
  collection: 'genders',
  recordCode: 'GENDER-1',
  before: { genderCode: 'GENDER-1', genderName: 'Femal', version: 1 },
  after: { genderCode: 'GENDER-1', genderName: 'Female', version: 2 },
  changes: { genderName: { old: 'Femal', new: 'Female' }, version: { old: 1, new: 2 } },
  user: { userCode: 'USER-1', username: 'admin' },
  createdAt: '2024-01-01T00:00:00Z',
};

resetScreensAfterEach();

describe('the audit diff', () => {
  it('lists every field side by side and marks the changed ones', () => {
    expect(auditDiff(UPDATE.before, UPDATE.after, UPDATE.changes)).toEqual([
      { field: 'genderCode', before: 'GENDER-1', after: 'GENDER-1', changed: false },
      { field: 'genderName', before: 'Femal', after: 'Female', changed: true },
      { field: 'version', before: '1', after: '2', changed: true },
    ]);
  });

  it('shows one side for a create or a delete, objects as JSON, and nothing for an event', () => {
    expect(auditDiff(null, { name: 'X', tags: ['a'] }, null)).toEqual([
      { field: 'name', before: '', after: 'X', changed: true },
      { field: 'tags', before: '', after: '["a"]', changed: true },
    ]);
    expect(auditDiff({ name: 'X' }, null, null)).toEqual([
      { field: 'name', before: 'X', after: '', changed: true },
    ]);
    expect(auditDiff(null, null, null)).toEqual([]);
  });
});

const deletions = (total: number) => ok([], 'Audit Logs fetched successfully', total);

describe('View Audit Log', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows who did what, the change side by side, and leads to the record and its history', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/audit-log/AUDIT-1', ['VIEW_AUDITS', 'VIEW_GENDERS'], {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
    });
    expect(await findLoadedScreen('View Audit Log')).toBeTruthy();
    const facts = Object.fromEntries(
      screen.getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(facts).toMatchObject({ Action: 'UPDATE', Module: 'genders', User: 'admin', Record: 'GENDER-1' });
    const table = screen.getByRole('table', { name: 'Changes' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['genderCode', 'GENDER-1', 'GENDER-1'],
      ['genderNameChanged', 'Femal', 'Female'],
      ['versionChanged', '1', '2'],
    ]);
    // Whether the record still exists is read from the log: no request that could fail.
    expect(api.lastCallTo('GetAudits')?.query).toMatchObject({
      collection: 'genders',
      recordCode: 'GENDER-1',
      action: 'DELETE',
      limit: '1',
    });
    await user.click(await screen.findByRole('button', { name: 'View Gender' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/GENDER-1'));
  });

  it('opens the history of the record: the audit log filtered to it', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/audit-log/AUDIT-1', ['VIEW_AUDITS'], {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
    });
    await user.click(await screen.findByRole('button', { name: 'History of this record' }));
    await waitFor(() =>
      expect(`${api.router.state.location.pathname}${api.router.state.location.search}`).toBe(
        '/registry/audit-logs?collection=genders&recordCode=GENDER-1',
      ),
    );
  });

  it('says when the record has been deleted', async () => {
    renderRegistry('/registry/audit-log/AUDIT-1', ['VIEW_AUDITS', 'VIEW_GENDERS'], {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(1),
    });
    expect(await screen.findByText('This gender has been deleted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'View Gender' })).toBeNull();
  });

  it('offers no way to a module the user cannot view', async () => {
    const api = renderRegistry('/registry/audit-log/AUDIT-1', ['VIEW_AUDITS'], {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
    });
    expect(await screen.findByRole('table', { name: 'Changes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'View Gender' })).toBeNull();
    expect(api.callsTo('GetAudits')).toHaveLength(0);
  });

  it('says when an entry kept no record data (a sign-in)', async () => {
    renderRegistry('/registry/audit-log/AUDIT-2', ['VIEW_AUDITS'], {
      GetAuditByCode: ok({
        ...UPDATE,
        action: 'LOGIN',
        collection: 'auth',
        recordCode: null,
        before: null,
        after: null,
        changes: null,
      }),
    });
    expect(await screen.findByText('No record data was kept for this entry.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'History of this record' })).toBeNull();
  });
});
