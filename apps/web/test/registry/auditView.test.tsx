import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESOURCE_BY_KEY } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { auditDiff } from '../../src/registry/audit/auditDiff';
import {
  actionLabel,
  auditHeadline,
  auditRecordLabel,
  auditValue,
  moduleLabel,
} from '../../src/registry/audit/auditText';
import { restoreOffered } from '../../src/registry/audit/RestoreVersion';
import { formatDate, formatDateTime } from '../../src/ui/dates';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
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
  it('lists every field side by side, labelled as the module labels it, and marks the changed ones', () => {
    expect(auditDiff(UPDATE.before, UPDATE.after, UPDATE.changes, RESOURCE_BY_KEY.gender)).toEqual([
      { path: 'genderCode', field: 'Gender code', before: 'GENDER-1', after: 'GENDER-1', changed: false },
      { path: 'genderName', field: 'Gender Name', before: 'Femal', after: 'Female', changed: true },
      { path: 'version', field: 'Version', before: '1', after: '2', changed: true },
    ]);
  });

  it('shows references by name, groups field by field, and marks nothing in a create or a delete', () => {
    const employee = {
      name: 'Quinn Tester',
      department: { departmentCode: 'DEPT-1', name: 'Sales' },
      joinDate: '2024-01-05',
      address: { city: { cityCode: 'CITY-1', name: 'Lyon' }, postalCode: '69001' },
      tags: ['a', 'b'],
    };
    const rows = auditDiff(
      null,
      employee,
      { name: { old: null, new: 'Quinn Tester' } },
      RESOURCE_BY_KEY.employee,
    );
    expect(rows.map((r) => [r.field, r.after, r.changed])).toEqual([
      ['Name', 'Quinn Tester', false],
      ['Department', 'Sales', false],
      ['Join Date', formatDate('2024-01-05'), false],
      ['Address · City', 'Lyon', false],
      ['Address · Postal code', '69001', false],
      ['Tags', 'a, b', false],
    ]);
    expect(auditDiff({ name: 'X' }, null, null)).toEqual([
      { path: 'name', field: 'Name', before: 'X', after: '', changed: false },
    ]);
    expect(auditDiff(null, null, null)).toEqual([]);
  });

  it('marks a field whose change is named under it (a reference changed)', () => {
    const rows = auditDiff(
      { department: { departmentCode: 'DEPT-1', name: 'Sales' } },
      { department: { departmentCode: 'DEPT-2', name: 'Support' } },
      { 'department.departmentCode': { old: 'DEPT-1', new: 'DEPT-2' } },
      RESOURCE_BY_KEY.employee,
    );
    expect(rows).toEqual([
      { path: 'department', field: 'Department', before: 'Sales', after: 'Support', changed: true },
    ]);
  });
});

describe('the audit log in words', () => {
  it('names modules as the Modules screen does and actions as what happened', () => {
    expect(moduleLabel('employees')).toBe('Employees');
    expect(moduleLabel('auth')).toBe('Sign-in');
    expect(moduleLabel('something new')).toBe('something new');
    expect(actionLabel('CREATE')).toBe('Created');
    expect(actionLabel('LOGIN_FAILED')).toBe('Sign-in failed');
  });

  it('names the record by its module and its name as the entry kept it', () => {
    const entry = {
      action: 'DELETE',
      collection: 'employees',
      recordCode: 'EMP-1',
      before: { employeeCode: 'EMP-1', name: 'Quinn Tester' },
      after: null,
    };
    expect(auditRecordLabel(entry)).toBe('Employee Quinn Tester');
    expect(auditHeadline(entry)).toBe('Deleted Employee Quinn Tester');
    expect(auditRecordLabel({ ...entry, before: null })).toBe('Employee EMP-1');
    expect(auditHeadline({ action: 'LOGIN', collection: 'auth', recordCode: null })).toBe('Signed in');
  });

  it('shows values as the screens do', () => {
    expect(auditValue(true)).toBe('Yes');
    expect(auditValue('2026-11-27T02:16:44.000Z')).toBe(formatDateTime('2026-11-27T02:16:44.000Z'));
    expect(auditValue([{ permissionCode: 'P-1', permissionName: 'VIEW_ROLES' }])).toBe('VIEW_ROLES');
    expect(auditValue({ email: true, sms: false })).toBe('Email: Yes; Sms: No');
    expect(auditValue(null)).toBe('');
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
    expect(facts).toMatchObject({
      Action: 'Updated',
      Module: 'Genders',
      User: 'admin',
      Record: 'Gender Female',
      'Record code': 'GENDER-1',
    });
    // Named in the breadcrumb and under the title.
    expect(screen.getAllByText('Updated Gender Female')).toHaveLength(2);
    const table = screen.getByRole('table', { name: 'Changes' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Gender code', 'GENDER-1', 'GENDER-1'],
      ['Gender NameChanged', 'Femal', 'Female'],
      ['VersionChanged', '1', '2'],
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

describe('restoring a version', () => {
  it('is offered for an update that kept its old values, of a restorable module, to whoever may update it', () => {
    const gender = RESOURCE_BY_KEY.gender;
    expect(restoreOffered(UPDATE, gender, true)).toBe(true);
    expect(restoreOffered(UPDATE, gender, false)).toBe(false);
    expect(restoreOffered({ ...UPDATE, action: 'CREATE', before: null }, gender, true)).toBe(false);
    expect(restoreOffered({ ...UPDATE, before: null }, gender, true)).toBe(false);
    expect(restoreOffered({ ...UPDATE, recordCode: null }, gender, true)).toBe(false);
    // Its person erased since, the old values read '[erased]': nothing to give back.
    expect(restoreOffered({ ...UPDATE, before: { genderName: '[erased]' } }, gender, true)).toBe(false);
    // A profile's form is laid out by hand around its picture: its updates are not restored.
    expect(restoreOffered(UPDATE, RESOURCE_BY_KEY.profile, true)).toBe(false);
  });
});

const CURRENT = {
  genderCode: 'GENDER-1',
  genderName: 'Female',
  createdAt: UPDATE.createdAt,
  updatedAt: UPDATE.createdAt,
  version: 2,
};
const GENDER_EDITOR = ['VIEW_AUDITS', 'VIEW_GENDERS', 'UPDATE_GENDER'];

describe('Restore this version', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('asks, restores on the version the record has now, and shows the record', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/audit-log/AUDIT-1', GENDER_EDITOR, {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
      GetGenderByCode: ok(CURRENT),
      RestoreVersion: ok({ ...CURRENT, genderName: 'Femal', version: 3 }, 'Gender updated successfully'),
    });
    await user.click(await screen.findByRole('button', { name: 'Restore this version' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this version?' });
    expect(dialog.textContent).toContain(
      'The gender "Female" gets back the values it had before this change.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/GENDER-1'));
    expect(api.lastCallTo('RestoreVersion')?.body).toEqual({ auditCode: 'AUDIT-1', version: '2' });
    expect(await screen.findByText('Gender updated successfully')).toBeTruthy();
  });

  it('keeps a stale version’s refusal in the dialog, and restores over the change when asked again', async () => {
    const user = userEvent.setup();
    let version = 2;
    const api = renderRegistry('/registry/audit-log/AUDIT-1', GENDER_EDITOR, {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
      GetGenderByCode: reply(() => ok({ ...CURRENT, version })),
      RestoreVersion: reply((call) => {
        if (call.body.version === '3')
          return ok({ ...CURRENT, genderName: 'Femal', version: 4 }, 'Gender updated successfully');
        version = 3;
        return {
          statusCode: 409,
          message: 'This gender was changed by jdoe at 2026-01-02 10:11:12 UTC since you opened it',
          data: { ...CURRENT, genderName: 'Woman', version: 3 },
        };
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Restore this version' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this version?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(
      'The gender was not restoredThis gender was changed by jdoe at 2026-01-02 10:11:12 UTC since you opened it. Nothing was restored. Restore again to put this version over their change.',
    );
    expect(api.router.state.location.pathname).toBe('/registry/audit-log/AUDIT-1');
    // The record is read again: the next try names the version it now has.
    await waitFor(() => expect(api.callsTo('GetGenderByCode').length).toBeGreaterThan(1));
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/GENDER-1'));
    expect(api.callsTo('RestoreVersion').map((c) => c.body.version)).toEqual(['2', '3']);
  });

  it('is not offered without the module’s update permission', async () => {
    renderRegistry('/registry/audit-log/AUDIT-1', ['VIEW_AUDITS', 'VIEW_GENDERS'], {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(0),
    });
    expect(await screen.findByRole('button', { name: 'View Gender' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restore this version' })).toBeNull();
  });

  it('is not offered for a record deleted since', async () => {
    renderRegistry('/registry/audit-log/AUDIT-1', GENDER_EDITOR, {
      GetAuditByCode: ok(UPDATE),
      GetAudits: deletions(1),
    });
    expect(await screen.findByText('This gender has been deleted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restore this version' })).toBeNull();
  });
});
