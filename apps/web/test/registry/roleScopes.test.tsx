import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen } from './loaded';

/** A role's scopes: chosen per permission in its form, shown on its view, given only as far as held. */

const PERMISSIONS = ok(
  [
    { permissionCode: 'PERM-1', permissionName: 'VIEW_EMPLOYEES' },
    { permissionCode: 'PERM-2', permissionName: 'VIEW_GENDERS' },
    { permissionCode: 'PERM-3', permissionName: 'UPDATE_PERFORMANCE' },
  ],
  'Permissions fetched successfully',
  3,
);

const ROLE = {
  roleCode: 'ROLE-1',
  roleName: 'Team lead',
  roleDescription: null,
  requireMfa: false,
  rolePermissions: [
    { permissionCode: 'PERM-1', permissionName: 'VIEW_EMPLOYEES' },
    { permissionCode: 'PERM-2', permissionName: 'VIEW_GENDERS' },
    { permissionCode: 'PERM-3', permissionName: 'UPDATE_PERFORMANCE' },
  ],
  permissionScopes: { 'PERM-1': 'team', 'PERM-2': 'all', 'PERM-3': 'team' },
  version: 3,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

const ROLES = ok([], 'Roles fetched successfully', 0);

resetScreensAfterEach();

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const option = (name: string) => screen.findByRole('option', { name });
const scopeGroup = (permission: string) => screen.getByRole('group', { name: permission });
const scopeButton = (permission: string, scope: string) =>
  within(scopeGroup(permission)).getByRole('button', { name: scope }) as HTMLButtonElement;

describe('scopes in the role form and view', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('offers a scope for each chosen permission that can be narrowed, and sends the one picked', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/role/create', [...ALL_PERMISSION_NAMES], {
      GetPermissions: PERMISSIONS,
      CreateRole: ok(ROLE, 'Role created successfully'),
      GetRoles: ROLES,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Role' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Scopes' })).toBeNull();
    await user.type(input('Role Name'), 'Team lead');
    for (const name of ['VIEW_EMPLOYEES', 'VIEW_GENDERS', 'UPDATE_PERFORMANCE']) {
      await user.click(input('Permissions'));
      await user.click(await option(name));
    }

    // VIEW_GENDERS is held for all records only: it has no row.
    expect(screen.queryByRole('group', { name: 'VIEW_GENDERS' })).toBeNull();
    const viewScopes = within(scopeGroup('VIEW_EMPLOYEES'))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(viewScopes).toEqual(['All records', 'Their team', 'Own record']);
    // Nobody scores themselves: no own scope for UPDATE_PERFORMANCE.
    expect(within(scopeGroup('UPDATE_PERFORMANCE')).queryByRole('button', { name: 'Own record' })).toBeNull();
    expect(scopeButton('VIEW_EMPLOYEES', 'All records').getAttribute('aria-pressed')).toBe('true');

    await user.click(scopeButton('VIEW_EMPLOYEES', 'Their team'));
    await user.click(scopeButton('UPDATE_PERFORMANCE', 'Their team'));
    expect(scopeButton('VIEW_EMPLOYEES', 'Their team').getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Role created successfully')).toBeTruthy();
    await waitFor(() =>
      expect(api.lastCallTo('CreateRole')?.body).toMatchObject({
        'permissionScopes[PERM-1]': 'team',
        'permissionScopes[PERM-3]': 'team',
      }),
    );
    expect(api.lastCallTo('CreateRole')?.body).not.toHaveProperty('permissionScopes[PERM-2]');
  });

  it('sends no scope for a permission taken off', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/role/edit/ROLE-1', [...ALL_PERMISSION_NAMES], {
      GetRoleByCode: ok(ROLE, 'Role fetched successfully'),
      GetPermissions: PERMISSIONS,
      UpdateRole: ok(ROLE, 'Role updated successfully'),
      GetRoles: ROLES,
    });
    expect(await findLoadedScreen('Update Role')).toBeTruthy();
    expect(scopeButton('VIEW_EMPLOYEES', 'Their team').getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Remove UPDATE_PERFORMANCE' }));
    expect(screen.queryByRole('group', { name: 'UPDATE_PERFORMANCE' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Role updated successfully')).toBeTruthy();
    const body = api.lastCallTo('UpdateRole')?.body ?? {};
    expect(body['permissionScopes[PERM-1]']).toBe('team');
    expect(body).not.toHaveProperty('permissionScopes[PERM-3]');
  });

  it('gives a team-scoped editor nothing wider than the team, and starts a new permission there', async () => {
    const user = userEvent.setup();
    const api = renderRegistry(
      '/registry/role/create',
      ['VIEW_ROLES', 'CREATE_ROLE', 'VIEW_EMPLOYEES'],
      { GetPermissions: PERMISSIONS, CreateRole: ok(ROLE, 'Role created successfully'), GetRoles: ROLES },
      { VIEW_EMPLOYEES: 'team' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Role' })).toBeTruthy();
    await user.type(input('Role Name'), 'Helper');
    await user.click(input('Permissions'));
    await user.click(await option('VIEW_EMPLOYEES'));
    expect(scopeButton('VIEW_EMPLOYEES', 'All records').disabled).toBe(true);
    expect(scopeButton('VIEW_EMPLOYEES', 'Their team').getAttribute('aria-pressed')).toBe('true');
    expect(scopeButton('VIEW_EMPLOYEES', 'Own record').disabled).toBe(false);
    expect(
      screen.getByText(/A permission cannot be given for more records than you hold it for/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Role created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateRole')?.body['permissionScopes[PERM-1]']).toBe('team');
  });

  it('names the scope of each permission held for fewer than all records on the view', async () => {
    renderRegistry('/registry/role/ROLE-1', ['VIEW_ROLES'], {
      GetRoleByCode: ok(ROLE, 'Role fetched successfully'),
    });
    const list = await screen.findByRole('region', { name: 'Permissions (3)' });
    expect(within(list).getByText('VIEW_EMPLOYEES · Their team')).toBeTruthy();
    expect(within(list).getByText('UPDATE_PERFORMANCE · Their team')).toBeTruthy();
    expect(within(list).getByText('VIEW_GENDERS')).toBeTruthy();
  });
});
