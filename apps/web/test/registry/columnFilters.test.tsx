import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

/** A list's column filters: a reference chosen by name and a date range, kept in the address. */

const EMPLOYEE = {
  employeeCode: 'EMP-1',
  employeeId: 'E-1',
  name: 'Ada Lovelace',
  department: { departmentCode: 'DEPT-1', name: 'Engineering' },
  joinDate: '2021-06-01',
  user: null,
  version: 1,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};
const DEPARTMENTS = ok(
  [
    { departmentCode: 'DEPT-1', name: 'Engineering' },
    { departmentCode: 'DEPT-2', name: 'Support' },
  ],
  'Departments fetched successfully',
  2,
);

resetScreensAfterEach();

describe('column filters', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('send the department chosen by name and the join dates as query parameters', async () => {
    const user = userEvent.setup();
    // The join date is personal data: its filters are for those who may see it.
    const api = renderRegistry(
      '/registry/employees',
      ['VIEW_EMPLOYEES', 'VIEW_DEPARTMENTS', 'VIEW_PERSONAL_DATA'],
      {
        GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
        GetDepartments: DEPARTMENTS,
        GetDepartmentByCode: ok(
          { departmentCode: 'DEPT-2', name: 'Support' },
          'Department fetched successfully',
        ),
      },
    );
    expect(await screen.findByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    const filters = screen.getByRole('search', { name: 'Filters' });
    await user.click(within(filters).getByLabelText('Department'));
    await user.click(await screen.findByRole('option', { name: 'Support' }));
    await waitFor(() =>
      expect(api.lastCallTo('GetEmployees')?.query).toMatchObject({ departmentCode: 'DEPT-2', page: '1' }),
    );
    expect(within(filters).getByText('Support')).toBeTruthy();
    await user.type(within(filters).getByLabelText('Joined from'), '2020-01-01');
    await waitFor(() =>
      expect(api.lastCallTo('GetEmployees')?.query).toMatchObject({
        departmentCode: 'DEPT-2',
        joinedFrom: '2020-01-01',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(api.lastCallTo('GetEmployees')?.query.departmentCode).toBeUndefined());
  });

  it('names the department a link chose', async () => {
    const api = renderRegistry(
      '/registry/employees?departmentCode=DEPT-2',
      ['VIEW_EMPLOYEES', 'VIEW_DEPARTMENTS'],
      {
        GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
        GetDepartmentByCode: ok(
          { departmentCode: 'DEPT-2', name: 'Support' },
          'Department fetched successfully',
        ),
      },
    );
    expect(await screen.findByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(api.lastCallTo('GetEmployees')?.query).toMatchObject({ departmentCode: 'DEPT-2' });
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(await within(filters).findByText('Support')).toBeTruthy();
  });

  it('offers no reference filter to whoever may not view that module', async () => {
    renderRegistry('/registry/employees', ['VIEW_EMPLOYEES', 'VIEW_PERSONAL_DATA'], {
      GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
    });
    expect(await screen.findByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).queryByLabelText('Department')).toBeNull();
    expect(within(filters).getByLabelText('Joined from')).toBeTruthy();
  });

  it('offers no filter on personal data the user may not see', async () => {
    renderRegistry('/registry/employees', ['VIEW_EMPLOYEES', 'VIEW_DEPARTMENTS'], {
      GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
    });
    expect(await screen.findByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).getByLabelText('Department')).toBeTruthy();
    expect(within(filters).queryByLabelText('Joined from')).toBeNull();
    expect(within(filters).queryByLabelText('Joined to')).toBeNull();
  });
});
