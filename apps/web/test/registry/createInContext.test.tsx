import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen } from './loaded';

const EMPLOYEE_CREATE = ['VIEW_EMPLOYEES', 'CREATE_EMPLOYEE'];

resetScreensAfterEach();

describe('a selector creates its record in place', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('New department… creates one in a dialog and chooses it in the form', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/employee/create', [...EMPLOYEE_CREATE, 'CREATE_DEPARTMENT'], {
      CreateDepartment: ok(
        { departmentCode: 'DEPARTMENT-9', name: 'Research', version: 1 },
        'Department created successfully',
      ),
      GetDepartments: ok([], 'Departments fetched successfully', 0),
      GetUsers: ok([], 'Users fetched successfully', 0),
    });
    await findLoadedScreen('Create Employee');
    // Only the module the user may create in offers it.
    expect(screen.queryByRole('button', { name: 'New user…' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'New department…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Department' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Research');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.lastCallTo('CreateDepartment')?.body).toEqual({ name: 'Research' });
    expect(await screen.findByText('Department created successfully')).toBeTruthy();
    // Chosen in the form, which stays as it was: nothing was sent for the employee.
    const form = screen.getByRole('form', { name: 'Create Employee' });
    expect(within(form).getByText('Research')).toBeTruthy();
    expect(api.callsTo('CreateEmployee')).toHaveLength(0);
    expect(api.router.state.location.pathname).toBe('/registry/employee/create');
  });

  it('is not offered without the permission to create the selector’s records', async () => {
    renderRegistry('/registry/employee/create', EMPLOYEE_CREATE, {});
    await findLoadedScreen('Create Employee');
    expect(screen.queryByRole('button', { name: 'New department…' })).toBeNull();
  });
});
