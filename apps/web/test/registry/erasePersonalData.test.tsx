import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERASURE_MESSAGES, genderResource } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { nameMatches } from '../../src/registry/personal-data/ErasePersonalDataButton';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT, type Stub } from './harness';

const EMPLOYEE = {
  employeeCode: 'EMP-1',
  employeeId: 'E-100',
  name: 'Dana Reyes',
  department: { departmentCode: 'DEPARTMENT-1', name: 'Assembly' },
  joinDate: '2023-03-09',
  user: { userCode: 'USER-1', username: 'dana' },
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 2,
};
const GENDER = {
  genderCode: 'GENDER-1',
  genderName: 'Female',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 3,
};
const ERASER = ['VIEW_EMPLOYEES', 'ERASE_PERSONAL_DATA'];
const PASSWORD = 'my own password 1';

resetScreensAfterEach();

const openEmployee = (permissions: string[], handlers: Record<string, Stub> = {}) =>
  renderRegistry('/registry/employee/EMP-1', permissions, {
    GetEmployeeByCode: ok(EMPLOYEE),
    GetEmployees: ok([], 'Employees fetched successfully', 0),
    ...handlers,
  });

/** Opens the dialog from the view and fills it in. */
async function fillDialog(name: string, password: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Erase personal data' }));
  const dialog = await screen.findByRole('dialog', { name: 'Erase personal data' });
  const erase = within(dialog).getByRole('button', { name: 'Erase' });
  if (name) await user.type(within(dialog).getByLabelText('Name'), name);
  if (password) await user.type(within(dialog).getByLabelText('Your current password'), password);
  return { user, dialog, erase };
}

describe('the name to type', () => {
  it('matches only character for character', () => {
    expect(nameMatches('Dana Reyes', 'Dana Reyes')).toBe(true);
    expect(nameMatches('dana reyes', 'Dana Reyes')).toBe(false);
    expect(nameMatches('Dana Reyes ', 'Dana Reyes')).toBe(false);
    expect(nameMatches('Dana', 'Dana Reyes')).toBe(false);
    expect(nameMatches('', '')).toBe(false);
  });
});

describe('erasing personal data from a view', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('is offered to holders of ERASE_PERSONAL_DATA on a personal record only', async () => {
    openEmployee(['VIEW_EMPLOYEES', 'EXPORT_PERSONAL_DATA']);
    await screen.findByRole('button', { name: 'Export personal data' });
    expect(screen.queryByRole('button', { name: 'Erase personal data' })).toBeNull();
    cleanup();
    renderRegistry('/registry/gender/GENDER-1', ['VIEW_GENDERS', 'ERASE_PERSONAL_DATA'], {
      GetGenderByCode: ok(GENDER),
    });
    await screen.findByRole('heading', { level: 1, name: `View ${genderResource.label}` });
    await screen.findByRole('definition', { name: 'Gender Name' });
    expect(screen.queryByRole('button', { name: 'Erase personal data' })).toBeNull();
  });

  it('says what happens, and erases only once the name is typed exactly and a password given', async () => {
    const api = openEmployee(ERASER);
    const { user, dialog, erase } = await fillDialog('Dana Reye', PASSWORD);
    expect(dialog.textContent).toContain('cannot be undone');
    expect(dialog.textContent).toContain('[erased]');
    expect(erase).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByLabelText('Name'), 's');
    expect(erase).toHaveProperty('disabled', false);
    await user.clear(within(dialog).getByLabelText('Your current password'));
    expect(erase).toHaveProperty('disabled', true);
    // Enter in a field submits the form: nothing is sent while the button is disabled.
    await user.type(within(dialog).getByLabelText('Name'), '{Enter}');
    expect(api.callsTo('ErasePersonalData')).toEqual([]);
  });

  it('sends the code of the record viewed and the password; on success toasts and leaves for the list', async () => {
    const api = openEmployee(ERASER, {
      ErasePersonalData: reply(() => ok(null, ERASURE_MESSAGES.done)),
    });
    const { user, erase } = await fillDialog('Dana Reyes', PASSWORD);
    await user.click(erase);
    expect(await screen.findByText('Personal data erased')).toBeTruthy();
    expect(api.lastCallTo('ErasePersonalData')?.body).toEqual({
      employeeCode: 'EMP-1',
      currentPassword: PASSWORD,
    });
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/employees'));
    await waitFor(() => expect(api.callsTo('GetEmployees').length).toBeGreaterThan(0));
    expect(screen.queryByRole('dialog', { name: 'Erase personal data' })).toBeNull();
  });

  it('keeps a wrong password on its field and in the dialog, which stays open', async () => {
    const api = openEmployee(ERASER, {
      ErasePersonalData: {
        statusCode: 400,
        message: 'Invalid input',
        errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
      },
    });
    const { user, dialog, erase } = await fillDialog('Dana Reyes', 'wrong');
    await user.click(erase);
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The personal data was not erased');
    expect(alert.textContent).toContain('Current password is incorrect');
    const password = within(dialog).getByLabelText('Your current password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    const helper = document.getElementById(password.getAttribute('aria-describedby') ?? '');
    expect(helper?.textContent).toBe('Current password is incorrect');
    expect(api.router.state.location.pathname).toBe('/registry/employee/EMP-1');
    expect(screen.getByRole('dialog', { name: 'Erase personal data' })).toBe(dialog);
  });

  it("keeps a 409's message in the dialog", async () => {
    openEmployee(ERASER, {
      ErasePersonalData: { statusCode: 409, message: ERASURE_MESSAGES.onlyAdministrator },
    });
    const { user, dialog, erase } = await fillDialog('Dana Reyes', PASSWORD);
    await user.click(erase);
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(ERASURE_MESSAGES.onlyAdministrator);
    expect(within(dialog).getByLabelText('Your current password').getAttribute('aria-invalid')).toBe('false');
  });
});
