import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PASSWORD_HELP } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen, findReadValue, readValue } from './loaded';

const GENDER_ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];

const ROLE = {
  roleCode: 'ROLE-1',
  roleName: 'Auditor',
  roleDescription: 'Reads the audit log',
  requireMfa: false,
  rolePermissions: [
    { permissionCode: 'PERM-1', permissionName: 'VIEW_AUDITS' },
    { permissionCode: 'PERM-2', permissionName: 'VIEW_PERMISSIONS' },
  ],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

const USER = {
  userCode: 'USER-1',
  username: 'jdoe',
  email: 'jdoe@example.com',
  role: { roleCode: 'ROLE-1', roleName: 'Auditor' },
  active: true,
  externalId: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

resetScreensAfterEach();

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('shared entity form', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('views a role read-only, without Submit, with its sub-list button', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/role/ROLE-1', ['VIEW_ROLES', 'VIEW_PERMISSIONS'], {
      GetRoleByCode: ok(ROLE, 'Role fetched successfully'),
    });
    expect(await findLoadedScreen('View Role')).toBeTruthy();
    expect(api.lastCallTo('GetRoleByCode')).toMatchObject({ method: 'POST', body: { roleCode: 'ROLE-1' } });
    expect(readValue('Role Name')).toBe('Auditor');
    expect(readValue('Role Description')).toBe('Reads the audit log');
    // Read, not greyed inputs: the view has nothing to type into.
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'View Permissions' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/role/ROLE-1/permissions'));
    expect(api.router.state.location.state).toEqual({ back: '/registry/role/ROLE-1' });
  });

  it('Back returns to the list when no back target was passed', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/GENDER-1', GENDER_ALL, {
      GetGenderByCode: ok({ genderCode: 'GENDER-1', genderName: 'Female' }),
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    expect(await findReadValue('Gender Name')).toBe('Female');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
  });

  it('View Permission goes back to the audit logs list by default', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/permission/PERM-1', ['VIEW_PERMISSIONS', 'VIEW_AUDITS'], {
      GetPermissionByCode: ok({
        permissionCode: 'PERM-1',
        permissionName: 'VIEW_ROLES',
        permissionDescription: 'View roles',
        createdAt: '2024-01-01T00:00:00Z',
      }),
      GetAudits: ok([], 'Audits fetched successfully', 0),
    });
    expect(await findLoadedScreen('View Permission')).toBeTruthy();
    expect(readValue('Name')).toBe('VIEW_ROLES');
    expect(readValue('Description')).toBe('View roles');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/audit-logs'));
  });

  it('shows the server message in place of a view that fails', async () => {
    renderRegistry('/registry/gender/GENDER-9', GENDER_ALL, {
      GetGenderByCode: { statusCode: 404, message: 'Gender not found' },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Gender not found');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('validates on the client with the contract schema before sending anything', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/create', GENDER_ALL, {});
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Gender' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Gender name is required')).toBeTruthy();
    expect(input('Gender Name').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('CreateGender')).toHaveLength(0);
  });

  it('creates, toasts the server message and returns to the back target', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/create', GENDER_ALL, {
      CreateGender: ok({ genderCode: 'GENDER-2', genderName: 'Non-binary' }, 'Gender created successfully'),
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    await user.type(await screen.findByLabelText('Gender Name'), 'Non-binary');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Gender created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateGender')?.body).toEqual({ genderName: 'Non-binary' });
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
  });

  it('shows the server field errors beside their fields and the message as an error toast', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/create', GENDER_ALL, {
      CreateGender: {
        statusCode: 409,
        message: 'A gender with this name already exists',
        errors: [{ field: 'genderName', message: 'This gender name is already taken' }],
      },
    });
    await user.type(await screen.findByLabelText('Gender Name'), 'Male');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('A gender with this name already exists')).toBeTruthy();
    expect(await screen.findByText('This gender name is already taken')).toBeTruthy();
    expect(api.router.state.location.pathname).toBe('/registry/gender/create');
  });

  it('falls back to the module failure text when the server gives no message', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/gender/create', GENDER_ALL, {
      CreateGender: { statusCode: 500, message: '' },
    });
    await user.type(await screen.findByLabelText('Gender Name'), 'Male');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Failed to create gender')).toBeTruthy();
  });

  it('updates a user: email input, password toggle and help, empty password kept, role preselected', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/user/edit/USER-1', ['VIEW_USERS', 'UPDATE_USER'], {
      GetUserById: ok(USER, 'User fetched successfully'),
      UpdateUser: ok(USER, 'User updated successfully'),
      GetUsers: ok([], 'Users fetched successfully', 0),
    });
    expect(await findLoadedScreen('Update User')).toBeTruthy();
    expect(input('Email').type).toBe('email');
    expect(input('Email').value).toBe('jdoe@example.com');
    expect(input('Password').type).toBe('password');
    expect(input('Password').value).toBe('');
    expect(screen.getByText(`Leave blank to keep the current password. ${PASSWORD_HELP}`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input('Password').type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input('Password').type).toBe('password');
    expect(screen.getByText('Auditor')).toBeTruthy();
    expect(input('Active').checked).toBe(true);
    expect(input('Active').disabled).toBe(false);
    await user.clear(input('Email'));
    await user.type(input('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email must be a valid email address')).toBeTruthy();
    expect(api.callsTo('UpdateUser')).toHaveLength(0);
    await user.clear(input('Email'));
    await user.type(input('Email'), 'john@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    expect(api.lastCallTo('UpdateUser')?.body).toEqual({
      userCode: 'USER-1',
      username: 'jdoe',
      email: 'john@example.com',
      password: '',
      roleCode: 'ROLE-1',
      active: 'true',
    });
  });

  it('has no password field on View User', async () => {
    renderRegistry('/registry/user/USER-1', ['VIEW_USERS'], { GetUserById: ok(USER) });
    expect(await findLoadedScreen('View User')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(readValue('Username')).toBe('jdoe');
  });

  it('creates a role with the permissions picked in the multi-select', async () => {
    const user = userEvent.setup();
    // Only permissions the editor holds can be picked (delegation).
    const api = renderRegistry(
      '/registry/role/create',
      ['VIEW_ROLES', 'CREATE_ROLE', 'VIEW_AUDITS', 'VIEW_PERMISSIONS'],
      {
        GetPermissions: ok(
          [
            { permissionCode: 'PERM-1', permissionName: 'VIEW_AUDITS' },
            { permissionCode: 'PERM-2', permissionName: 'VIEW_PERMISSIONS' },
          ],
          'Permissions fetched successfully',
          2,
        ),
        CreateRole: ok(ROLE, 'Role created successfully'),
        GetRoles: ok([], 'Roles fetched successfully', 0),
      },
    );
    await user.type(await screen.findByLabelText('Role Name'), 'Auditor');
    await user.click(input('Permissions'));
    await user.click(await screen.findByRole('option', { name: 'VIEW_AUDITS' }));
    await user.click(input('Permissions'));
    await user.click(await screen.findByRole('option', { name: 'VIEW_PERMISSIONS' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Role created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateRole')?.body).toEqual({
      roleName: 'Auditor',
      roleDescription: '',
      requireMfa: 'false',
      'rolePermissions[0]': 'PERM-1',
      'rolePermissions[1]': 'PERM-2',
    });
  });

  it('City form: the state selector appears after a country, and a new country clears the state', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/city/create', ['VIEW_CITIES', 'CREATE_CITY'], {
      GetCountries: ok(
        [
          { countryCode: 'COUNTRY-DE', name: 'Germany' },
          { countryCode: 'COUNTRY-FR', name: 'France' },
        ],
        'Countries fetched successfully',
        2,
      ),
      GetStatesByCountryCode: reply((call) =>
        call.body.countryCode === 'COUNTRY-DE'
          ? ok([{ stateCode: 'STATE-BY', name: 'Bavaria' }], 'States fetched successfully', 1)
          : ok([{ stateCode: 'STATE-BR', name: 'Brittany' }], 'States fetched successfully', 1),
      ),
      CreateCity: ok({}, 'City created successfully'),
      GetCities: ok([], 'Cities fetched successfully', 0),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create City' })).toBeTruthy();
    expect(screen.queryByLabelText('State')).toBeNull();
    await user.click(input('Country'));
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await user.click(await screen.findByLabelText('State'));
    await user.click(await screen.findByRole('option', { name: 'Bavaria' }));
    expect(api.lastCallTo('GetStatesByCountryCode')?.body).toEqual({ countryCode: 'COUNTRY-DE' });
    expect(screen.getByText('Bavaria')).toBeTruthy();
    await user.click(input('Country'));
    await user.click(await screen.findByRole('option', { name: 'France' }));
    await waitFor(() => expect(screen.queryByText('Bavaria')).toBeNull());
    await user.type(input('Name'), 'Rennes');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('State is required')).toBeTruthy();
    await user.click(input('State'));
    await user.click(await screen.findByRole('option', { name: 'Brittany' }));
    expect(api.lastCallTo('GetStatesByCountryCode')?.body).toEqual({ countryCode: 'COUNTRY-FR' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('City created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateCity')?.body).toEqual({
      name: 'Rennes',
      countryCode: 'COUNTRY-FR',
      stateCode: 'STATE-BR',
    });
  });

  it('starts a create form opened from a sub-list with the parent chosen', async () => {
    const user = userEvent.setup();
    const api = renderRegistry(
      {
        pathname: '/registry/state/create',
        state: {
          back: '/registry/country/COUNTRY-1/states',
          preset: { countryCode: { value: 'COUNTRY-1', label: 'Germany' } },
        },
      },
      ['VIEW_COUNTRIES', 'VIEW_STATES', 'CREATE_STATE'],
      {
        CreateState: ok({}, 'State created successfully'),
        GetStatesByCountryCode: ok([], 'States fetched successfully', 0),
        GetCountryByCode: ok({ countryCode: 'COUNTRY-1', name: 'Germany' }),
      },
    );
    expect(await screen.findByText('Germany')).toBeTruthy();
    await user.type(input('Name'), 'Hesse');
    await user.type(input('ISO'), 'HE');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('State created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateState')?.body).toEqual({
      name: 'Hesse',
      iso: 'HE',
      countryCode: 'COUNTRY-1',
    });
    await waitFor(() =>
      expect(api.router.state.location.pathname).toBe('/registry/country/COUNTRY-1/states'),
    );
  });

  it('lists the Submit button only on create and update', async () => {
    renderRegistry('/registry/skill/edit/SKILL-1', ['VIEW_SKILLS', 'UPDATE_SKILL'], {
      GetSkillByCode: ok({ skillCode: 'SKILL-1', title: 'Welding', description: null }),
    });
    const form = await screen.findByRole('form', { name: 'Update Skill' });
    expect(within(form).getByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(input('Title').value).toBe('Welding');
    expect(input('Description').value).toBe('');
  });
});
