import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

const EMPLOYEE = {
  employeeCode: 'EMP-1',
  employeeId: 'E-100',
  name: 'Dana Reyes',
  department: { departmentCode: 'DEPARTMENT-1', name: 'Assembly' },
  joinDate: '2023-03-09',
  user: { userCode: 'USER-1', username: 'dana' },
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 1,
};

const handlers = {
  GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
  GetEmployeeByCode: ok(EMPLOYEE),
  GetDepartmentByCode: ok({ departmentCode: 'DEPARTMENT-1', name: 'Assembly', version: 1 }),
};

resetScreensAfterEach();

const rowOf = async (name: string) =>
  (await screen.findByRole('cell', { name })).closest('tr') as HTMLTableRowElement;

describe('a list names other records as links', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it("leads from a reference to that record's view, and back to the list", async () => {
    const user = userEvent.setup();
    const api = renderRegistry(
      '/registry/employees',
      ['VIEW_EMPLOYEES', 'UPDATE_EMPLOYEE', 'VIEW_DEPARTMENTS'],
      handlers,
    );
    const row = await rowOf('Dana Reyes');
    const department = within(row).getByRole('link', { name: 'Assembly' });
    expect(department.getAttribute('href')).toBe('/registry/department/DEPARTMENT-1');
    // The user's module is not this user's to view: the name alone.
    expect(within(row).queryByRole('link', { name: 'dana' })).toBeNull();
    await user.click(department);
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/department/DEPARTMENT-1'));
    expect(api.router.state.location.state).toMatchObject({ back: '/registry/employees' });
  });

  it('selects the row on a click beside the link, and opens the reference on Enter on the link', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/employees', ['VIEW_EMPLOYEES', 'VIEW_DEPARTMENTS'], handlers);
    const row = await rowOf('Dana Reyes');
    await user.click(within(row).getByRole('cell', { name: 'E-100' }));
    expect((screen.getByRole('radio', { name: /Dana Reyes/ }) as HTMLInputElement).checked).toBe(true);
    expect(api.router.state.location.pathname).toBe('/registry/employees');

    // Enter on the link follows the link; the row's own Enter (open the employee) stays the row's.
    within(await rowOf('Dana Reyes'))
      .getByRole('link', { name: 'Assembly' })
      .focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/department/DEPARTMENT-1'));
  });
});
