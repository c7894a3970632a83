import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT, sessionUser } from './harness';
import { findLoadedScreen } from './loaded';

/** The forms offer nothing the server's delegation rules would refuse. */

const SELF = sessionUser([]).userCode;
const OWN_ROLE_HELP = 'You cannot change your own role';
const HELD_ONLY_HELP = 'Permissions you do not hold cannot be added';
const OWN_PASSWORD_HELP = 'Change your own password in My account, which asks for the current one';
const OWN_ACTIVE_HELP = 'You cannot disable your own user';

const userRecord = (userCode: string) => ({
  userCode,
  username: 'jdoe',
  email: 'jdoe@example.com',
  role: { roleCode: 'ROLE-1', roleName: 'Clerk' },
  active: true,
  externalId: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
});

const ROLE = {
  roleCode: 'ROLE-1',
  roleName: 'Auditor',
  roleDescription: null,
  requireMfa: false,
  rolePermissions: [
    { permissionCode: 'PERM-1', permissionName: 'VIEW_AUDITS' },
    { permissionCode: 'PERM-2', permissionName: 'VIEW_PERMISSIONS' },
  ],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

const PERMISSIONS = ok(
  [
    { permissionCode: 'PERM-1', permissionName: 'VIEW_AUDITS' },
    { permissionCode: 'PERM-2', permissionName: 'VIEW_PERMISSIONS' },
    { permissionCode: 'PERM-3', permissionName: 'VIEW_GENDERS' },
    { permissionCode: 'PERM-4', permissionName: 'VIEW_ROLES' },
  ],
  'Permissions fetched successfully',
  4,
);

const ROLES = ok([{ roleCode: 'ROLE-1', roleName: 'Clerk' }], 'Roles fetched successfully', 1);

resetScreensAfterEach();

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const option = (name: string) => screen.findByRole('option', { name });

describe('delegation in the forms', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it("disables the role on one's own user, says why, and still sends the role unchanged", async () => {
    const user = userEvent.setup();
    const api = renderRegistry(`/registry/user/edit/${SELF}`, ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(userRecord(SELF), 'User fetched successfully'),
      UpdateUser: ok(userRecord(SELF), 'User updated successfully'),
      GetUsers: ok([], 'Users fetched successfully', 0),
    });
    expect(await findLoadedScreen('Update User')).toBeTruthy();
    expect(input('Role').disabled).toBe(true);
    expect(screen.getByText(OWN_ROLE_HELP)).toBeTruthy();
    expect(screen.getByText('Clerk')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    expect(api.lastCallTo('UpdateUser')?.body.roleCode).toBe('ROLE-1');
    expect(api.callsTo('GetRoles')).toHaveLength(0);
  });

  it("offers only assignable roles on another user's form, with the role field enabled", async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/user/edit/USER-OTHER', ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(userRecord('USER-OTHER'), 'User fetched successfully'),
      GetRoles: ROLES,
    });
    expect(await findLoadedScreen('Update User')).toBeTruthy();
    expect(input('Role').disabled).toBe(false);
    expect(screen.queryByText(OWN_ROLE_HELP)).toBeNull();
    await user.click(input('Role'));
    expect(await option('Clerk')).toBeTruthy();
    expect(api.lastCallTo('GetRoles')?.query).toMatchObject({ assignable: 'true' });
  });

  it('asks for assignable roles on the create form too', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/user/create', ['VIEW_USERS', 'CREATE_USER'], { GetRoles: ROLES });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create User' })).toBeTruthy();
    await user.click(input('Role'));
    expect(await option('Clerk')).toBeTruthy();
    expect(api.lastCallTo('GetRoles')?.query).toMatchObject({ assignable: 'true' });
  });

  it('leaves the role of their own user open to whoever holds every permission', async () => {
    renderRegistry(`/registry/user/edit/${SELF}`, [...ALL_PERMISSION_NAMES], {
      GetUserById: ok(userRecord(SELF), 'User fetched successfully'),
    });
    expect(await findLoadedScreen('Update User')).toBeTruthy();
    expect(input('Role').disabled).toBe(false);
    expect(screen.queryByText(OWN_ROLE_HELP)).toBeNull();
  });

  for (const [who, held] of [
    ['a user manager', ['VIEW_USERS', 'UPDATE_USER']],
    ['whoever holds every permission', [...ALL_PERMISSION_NAMES]],
  ] as const) {
    it(`does not offer ${who} a password on their own user, points to My account, and sends it blank`, async () => {
      const user = userEvent.setup();
      const api = renderRegistry(`/registry/user/edit/${SELF}`, [...held], {
        GetUserById: ok(userRecord(SELF), 'User fetched successfully'),
        UpdateUser: ok(userRecord(SELF), 'User updated successfully'),
        GetUsers: ok([], 'Users fetched successfully', 0),
        GetRoles: ROLES,
      });
      expect(await findLoadedScreen('Update User')).toBeTruthy();
      expect(input('Password').disabled).toBe(true);
      expect(screen.getByText(OWN_PASSWORD_HELP)).toBeTruthy();
      // Nobody disables their own user: the switch stays on, and says why.
      expect(input('Active').disabled).toBe(true);
      expect(input('Active').checked).toBe(true);
      expect(screen.getByText(OWN_ACTIVE_HELP)).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText('User updated successfully')).toBeTruthy();
      expect(api.lastCallTo('UpdateUser')?.body.password).toBe('');
      expect(api.lastCallTo('UpdateUser')?.body.active).toBe('true');
    });
  }

  it("offers the password on another user's form", async () => {
    renderRegistry('/registry/user/edit/USER-OTHER', ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(userRecord('USER-OTHER'), 'User fetched successfully'),
      GetRoles: ROLES,
    });
    expect(await findLoadedScreen('Update User')).toBeTruthy();
    expect(input('Password').disabled).toBe(false);
    expect(screen.queryByText(OWN_PASSWORD_HELP)).toBeNull();
    expect(input('Active').disabled).toBe(false);
    expect(screen.queryByText(OWN_ACTIVE_HELP)).toBeNull();
  });

  it("sends a user manager to My account for their own sessions and two-factor, not through the user's panel", async () => {
    renderRegistry(`/registry/user/${SELF}`, ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(userRecord(SELF), 'User fetched successfully'),
      GetSessionsByUserCode: ok([], 'Sessions fetched successfully', 0),
    });
    const panel = await screen.findByRole('region', { name: 'Sign-in security' });
    expect(await within(panel).findByRole('link', { name: 'My account' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Sign out everywhere' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Reset two-factor sign-in' })).toBeNull();
  });

  it("offers the panel's actions on another user", async () => {
    renderRegistry('/registry/user/USER-OTHER', ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(userRecord('USER-OTHER'), 'User fetched successfully'),
      GetSessionsByUserCode: ok([], 'Sessions fetched successfully', 0),
    });
    const panel = await screen.findByRole('region', { name: 'Sign-in security' });
    expect(await within(panel).findByRole('button', { name: 'Reset two-factor sign-in' })).toBeTruthy();
    expect(within(panel).queryByRole('link', { name: 'My account' })).toBeNull();
  });

  it('disables the permissions one does not hold, and keeps those the role already has', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/role/edit/ROLE-1', ['VIEW_ROLES', 'UPDATE_ROLE', 'VIEW_AUDITS'], {
      GetRoleByCode: ok(ROLE, 'Role fetched successfully'),
      GetPermissions: PERMISSIONS,
      UpdateRole: ok(ROLE, 'Role updated successfully'),
      GetRoles: ok([], 'Roles fetched successfully', 0),
    });
    expect(await findLoadedScreen('Update Role')).toBeTruthy();
    expect(screen.getByText(HELD_ONLY_HELP)).toBeTruthy();

    await user.click(input('Permissions'));
    expect((await option('VIEW_GENDERS')).getAttribute('aria-disabled')).toBe('true');
    expect((await option('VIEW_ROLES')).getAttribute('aria-disabled')).not.toBe('true');
    await user.click(await option('VIEW_GENDERS'));
    await user.click(await option('VIEW_ROLES'));

    // A permission the role had may be taken off and put back, though the editor lacks it.
    await user.click(screen.getByRole('button', { name: 'Remove VIEW_PERMISSIONS' }));
    await user.click(input('Permissions'));
    expect((await option('VIEW_PERMISSIONS')).getAttribute('aria-disabled')).not.toBe('true');
    await user.click(await option('VIEW_PERMISSIONS'));

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Role updated successfully')).toBeTruthy();
    await waitFor(() =>
      expect(api.lastCallTo('UpdateRole')?.body).toEqual({
        roleCode: 'ROLE-1',
        roleName: 'Auditor',
        roleDescription: '',
        requireMfa: 'false',
        'rolePermissions[0]': 'PERM-1',
        'rolePermissions[1]': 'PERM-4',
        'rolePermissions[2]': 'PERM-2',
      }),
    );
  });

  it('disables nothing for whoever holds every permission', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/role/create', [...ALL_PERMISSION_NAMES], { GetPermissions: PERMISSIONS });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Role' })).toBeTruthy();
    expect(screen.queryByText(HELD_ONLY_HELP)).toBeNull();
    await user.click(input('Permissions'));
    for (const name of ['VIEW_AUDITS', 'VIEW_PERMISSIONS', 'VIEW_GENDERS', 'VIEW_ROLES'])
      expect((await option(name)).getAttribute('aria-disabled')).not.toBe('true');
  });
});
