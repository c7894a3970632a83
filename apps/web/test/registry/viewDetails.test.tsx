import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatCell } from '../../src/registry/format';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findReadValue } from './loaded';

const CREATED = '2026-03-03T14:05:00.000Z';
const UPDATED = '2026-11-20T09:12:00.000Z';
const when = (iso: string) => formatCell({ at: iso }, { path: 'at', label: '', format: 'datetime' });

const ROLE = {
  roleCode: 'ROLE-1',
  roleName: 'Auditor',
  roleDescription: null,
  requireMfa: false,
  rolePermissions: [
    { permissionCode: 'PERM-3', permissionName: 'VIEW_AUDITS' },
    { permissionCode: 'PERM-2', permissionName: 'CREATE_ROLE' },
    { permissionCode: 'PERM-1', permissionName: 'VIEW_ROLES' },
  ],
  createdAt: CREATED,
  updatedAt: UPDATED,
  version: 2,
};

const entry = (username: string) => ({ auditCode: 'AUDIT-1', user: { userCode: 'USER-1', username } });
/** GetAudits as the server filters it: the record's first creation and its latest update. */
const AUDITS = reply((call: Call) =>
  ok([entry(call.query.action === 'CREATE' ? 'admin' : 'jdoe')], 'Audit Logs fetched successfully', 1),
);

resetScreensAfterEach();

const details = () => screen.findByRole('region', { name: 'Record details' });

describe('view screens', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the role’s permissions by module, and who created and last updated it', async () => {
    const api = renderRegistry('/registry/role/ROLE-1', ['VIEW_ROLES', 'VIEW_PERMISSIONS', 'VIEW_AUDITS'], {
      GetRoleByCode: ok(ROLE),
      GetAudits: AUDITS,
    });
    const permissions = await screen.findByRole('region', { name: 'Permissions (3)' });
    const groups = within(permissions).getAllByRole('region');
    expect(
      groups.map((g) => [
        g.getAttribute('aria-label'),
        within(g)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ]),
    ).toEqual([
      ['Roles permissions', ['VIEW_ROLES', 'CREATE_ROLE']],
      ['Audit Logs permissions', ['VIEW_AUDITS']],
    ]);
    expect(screen.getByRole('button', { name: 'View Permissions' })).toBeTruthy();

    await waitFor(async () =>
      expect((await details()).textContent).toBe(
        `Created ${when(CREATED)} by adminUpdated ${when(UPDATED)} by jdoe`,
      ),
    );
    const link = within(await details()).getByRole('link', { name: 'admin' });
    expect(link.getAttribute('href')).toBe('/registry/audit-logs?collection=roles&recordCode=ROLE-1');
    const asked = api.callsTo('GetAudits').map((c) => c.query);
    expect(asked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          collection: 'roles',
          recordCode: 'ROLE-1',
          action: 'CREATE',
          sortValue: 'asc',
          limit: '1',
        }),
        expect.objectContaining({
          collection: 'roles',
          recordCode: 'ROLE-1',
          action: 'UPDATE',
          sortValue: 'desc',
          limit: '1',
        }),
      ]),
    );
  });

  it('gives the times alone, asking the audit log nothing, without VIEW_AUDITS', async () => {
    const api = renderRegistry('/registry/role/ROLE-1', ['VIEW_ROLES'], {
      GetRoleByCode: ok({ ...ROLE, rolePermissions: [] }),
    });
    expect((await details()).textContent).toBe(`Created ${when(CREATED)}Updated ${when(UPDATED)}`);
    expect(within(await details()).queryByRole('link')).toBeNull();
    expect(screen.getByText('This role has no permissions')).toBeTruthy();
    expect(api.callsTo('GetAudits')).toEqual([]);
  });

  it('marks required inputs on a create form, keeping their accessible names', async () => {
    renderRegistry('/registry/skill/create', ['VIEW_SKILLS', 'CREATE_SKILL'], {});
    const title = (await screen.findByLabelText('Title')) as HTMLInputElement;
    expect(title.required).toBe(true);
    // The asterisk is drawn by CSS: the field is still found, and announced, as 'Title'.
    expect(screen.getByRole('textbox', { name: 'Title' })).toBe(title);
    expect((screen.getByLabelText('Description') as HTMLInputElement).required).toBe(false);
  });

  it('marks nothing on a view', async () => {
    renderRegistry('/registry/skill/SKILL-1', ['VIEW_SKILLS'], {
      GetSkillByCode: ok({
        skillCode: 'SKILL-1',
        title: 'Welding',
        description: null,
        createdAt: CREATED,
        updatedAt: CREATED,
        version: 1,
      }),
    });
    expect(await findReadValue('Title')).toBe('Welding');
    // No required mark: a view asks for nothing.
    expect(screen.getByText('Title', { selector: 'dt' }).textContent).toBe('Title');
    expect((await details()).textContent).toBe(`Created ${when(CREATED)}`);
  });
});
