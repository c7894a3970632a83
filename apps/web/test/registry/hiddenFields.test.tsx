import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HIDDEN_FIELD_TEXT, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { withoutDetailSorting } from '../../src/registry/list/listedDefinition';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen, readValue } from './loaded';

/** An employee as the API answers a caller without VIEW_PERSONAL_DATA: no join date at all. */
const EMPLOYEE = {
  employeeCode: 'EMP-1',
  employeeId: 'E-100',
  name: 'Dana Reyes',
  department: { departmentCode: 'DEPARTMENT-1', name: 'Assembly' },
  user: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 4,
};

resetScreensAfterEach();

describe('personal data the user may not see', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('is said as hidden in lists and views, never as empty', async () => {
    renderRegistry('/registry/employees', ['VIEW_EMPLOYEES'], {
      GetEmployees: ok([EMPLOYEE], 'Employees fetched successfully', 1),
    });
    const hidden = await screen.findAllByLabelText(/^Hidden:/);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden[0]?.textContent).toBe(HIDDEN_FIELD_TEXT);
  });

  it('shows the view’s hidden field as hidden', async () => {
    renderRegistry('/registry/employee/EMP-1', ['VIEW_EMPLOYEES'], { GetEmployeeByCode: ok(EMPLOYEE) });
    await findLoadedScreen('View Employee');
    expect(readValue('Join Date')).toBe(HIDDEN_FIELD_TEXT);
    expect(readValue('Employee Id')).toBe('E-100');
  });

  it('edits the rest and sends nothing for the hidden field', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/employee/edit/EMP-1', ['VIEW_EMPLOYEES', 'UPDATE_EMPLOYEE'], {
      GetEmployeeByCode: ok(EMPLOYEE),
      GetDepartments: ok(
        [{ departmentCode: 'DEPARTMENT-1', name: 'Assembly' }],
        'Departments fetched successfully',
        1,
      ),
      GetUsers: ok([], 'Users fetched successfully', 0),
      UpdateEmployee: ok({ ...EMPLOYEE, name: 'Dana R. Reyes', version: 5 }, 'Employee updated successfully'),
      GetEmployees: ok([], 'Employees fetched successfully', 0),
    });
    await findLoadedScreen('Update Employee');
    expect(document.querySelector('input[name="joinDate"]')).toBeNull();
    expect(readValue('Join Date')).toBe(HIDDEN_FIELD_TEXT);
    const name = screen.getByLabelText(/^Name/) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, 'Dana R. Reyes');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.lastCallTo('UpdateEmployee')).toBeDefined());
    const body = api.lastCallTo('UpdateEmployee')?.body ?? {};
    expect(body).toMatchObject({ employeeCode: 'EMP-1', name: 'Dana R. Reyes', version: '4' });
    expect(body).not.toHaveProperty('joinDate');
  });
});

describe('withoutDetailSorting', () => {
  it('leaves the detail columns unsortable and their filters out, and the rest as defined', () => {
    const def: ResourceDef = RESOURCE_BY_KEY.employee;
    const listed = withoutDetailSorting(def);
    const sortable = (d: typeof def) => d.columns.flatMap((c) => (c.sortField ? [c.path] : []));
    expect(sortable(def)).toContain('joinDate');
    expect(sortable(listed)).toEqual(sortable(def).filter((p) => p !== 'joinDate'));
    expect(listed.filters.map((f) => f.param)).toEqual(['departmentCode']);
    expect(withoutDetailSorting(RESOURCE_BY_KEY.department)).toBe(RESOURCE_BY_KEY.department);
  });
});
