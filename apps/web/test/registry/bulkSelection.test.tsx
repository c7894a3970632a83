import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

const GENDERS = ['Alpha', 'Bravo', 'Charlie'].map((genderName, i) => ({
  genderCode: `GENDER-${i + 1}`,
  genderName,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  version: i + 1,
}));

const listed = () => ok(GENDERS, 'Genders fetched successfully', GENDERS.length);
const ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];
const toolbar = () => screen.getByRole('region', { name: 'Selected genders' });

resetScreensAfterEach();

describe('choosing several records of a list', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('counts the chosen rows, and chooses or lets go of the whole page at once', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/genders', ALL, { GetGenders: listed() });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Alpha' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose Charlie' }));
    expect(within(toolbar()).getByText('2 selected')).toBeTruthy();
    const all = screen.getByRole('checkbox', { name: 'Choose every gender of this page' });
    expect(all.getAttribute('data-indeterminate')).toBe('true');
    await user.click(all);
    expect(within(toolbar()).getByText('3 selected')).toBeTruthy();
    await user.click(all);
    expect(screen.queryByRole('region', { name: 'Selected genders' })).toBeNull();
  });

  it('deletes the chosen records after one confirmation, sending their codes and versions', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', ALL, {
      GetGenders: listed(),
      DeleteGenders: ok([], 'Genders deleted successfully'),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Alpha' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose Bravo' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 genders?' });
    expect(within(dialog).getByText(/Alpha, Bravo/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete 2' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('DeleteGenders')).toHaveLength(1);
    expect(api.lastCallTo('DeleteGenders')?.body).toEqual({
      'codes[0]': 'GENDER-1',
      'codes[1]': 'GENDER-2',
      'versions[0]': '1',
      'versions[1]': '2',
    });
    expect(screen.queryByRole('region', { name: 'Selected genders' })).toBeNull();
  });

  it('keeps a refusal in the dialog, which stays open', async () => {
    const user = userEvent.setup();
    const refusal = 'Nothing was deleted. Alpha: Cannot delete this gender: it is still used by 2 profiles';
    renderRegistry('/registry/genders', ALL, {
      GetGenders: listed(),
      DeleteGenders: reply((_: Call) => ({ statusCode: 409, message: refusal })),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Alpha' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 gender?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(refusal);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it("offers a change of the definition's reference, and only the actions the role allows", async () => {
    const user = userEvent.setup();
    const employee = {
      employeeCode: 'EMP-1',
      employeeId: 'E-1',
      name: 'Erin Example',
      department: { departmentCode: 'DEPARTMENT-1', name: 'Sales' },
      joinDate: '2024-01-01',
      user: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      version: 1,
    };
    renderRegistry('/registry/employees', ['VIEW_EMPLOYEES', 'UPDATE_EMPLOYEE'], {
      GetEmployees: ok([employee], 'Employees fetched successfully', 1),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Erin Example' }));
    const bar = screen.getByRole('region', { name: 'Selected employees' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'Delete' })).toBeNull();
    await user.click(within(bar).getByRole('button', { name: 'Change department' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the department of 1 employee' });
    expect(within(dialog).getByRole('button', { name: 'Change 1' }).hasAttribute('disabled')).toBe(true);
  });

  it('offers no check boxes to a user who may neither delete nor change several records', async () => {
    renderRegistry('/registry/genders', ['VIEW_GENDERS', 'UPDATE_GENDER'], { GetGenders: listed() });
    await screen.findByRole('cell', { name: 'Alpha' });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
