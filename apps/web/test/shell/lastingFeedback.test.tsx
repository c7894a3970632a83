import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_AUTO_CLOSE_MS } from '../../src/ui/Toasts';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from '../registry/harness';
import { findLoadedScreen } from '../registry/loaded';
import { profileRecord } from '../support/profile';
import { fail, renderApp, resetToasts } from './support';

/*
 * A failure is told twice: by the toast, which closes after a second, and by a message that stays
 * where the user acted (the form, the sign-in card, the delete dialog, the grid) until they act again.
 */

resetScreensAfterEach();
/**
 * The toast's life (1 s) is over, with its closing animation, on the real clock. (jsdom runs no CSS
 * animations, which the toast's timer and its removal hang on, so its element stays in this DOM:
 * the test checks the lasting message outlives that time, the browser tests see the toast go.)
 */
const pastTheToast = () => act(() => new Promise((r) => setTimeout(r, TOAST_AUTO_CLOSE_MS + 700)));

afterEach(() => {
  resetToasts();
  vi.restoreAllMocks();
});

const GENDER_ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];
const DEPARTMENT_ALL = ['VIEW_DEPARTMENTS', 'CREATE_DEPARTMENT', 'UPDATE_DEPARTMENT', 'DELETE_DEPARTMENT'];
const STILL_USED = 'Cannot delete this department: it is still used by 25 employees';

describe('lasting feedback after a failure', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('a failed create keeps an alert in the form, saying what failed and that nothing was saved', async () => {
    const user = userEvent.setup();
    const answer: 'down' | 'ok' = 'down';
    renderRegistry('/registry/gender/create', GENDER_ALL, {
      CreateGender: reply(() =>
        answer === 'down'
          ? { statusCode: 500, message: 'The database is unavailable' }
          : ok({ genderCode: 'GENDER-1' }, 'Gender created successfully'),
      ),
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    await user.type(await screen.findByLabelText('Gender Name'), 'Male');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const form = screen.getByRole('form', { name: 'Create Gender' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('The gender was not created');
    expect(alert.textContent).toContain('The database is unavailable');
    expect(alert.textContent).toContain('Nothing was saved');
    await pastTheToast();
    expect(within(form).getByRole('alert')).toBe(alert);
    // Editing again takes it away: the alert speaks of the values that were refused.
    await user.type(screen.getByLabelText('Gender Name'), 's');
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
  });

  it('a failed update keeps its alert until dismissed', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/gender/edit/GENDER-1', GENDER_ALL, {
      GetGenderByCode: ok({ genderCode: 'GENDER-1', genderName: 'Female', version: 1 }),
      UpdateGender: { statusCode: 400, message: 'Invalid input' },
    });
    await findLoadedScreen('Update Gender');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const form = screen.getByRole('form', { name: 'Update Gender' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Your changes to this gender were not saved');
    expect(alert.textContent).toContain('Invalid input');
    await pastTheToast();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
  });

  it('a failed profile update (multipart) keeps its alert too', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/profile/edit/PROFILE-1', ['VIEW_PROFILES', 'UPDATE_PROFILE'], {
      GetProfileByCode: ok(profileRecord(), 'Profile fetched successfully'),
      'ProfilePicture/PROFILE-1/thumbnail': ok(null),
      UpdateProfile: { statusCode: 413, message: 'The upload is too large' },
    });
    const first = (await screen.findByLabelText('First Name')) as HTMLInputElement;
    await waitFor(() => expect(first.value).toBe('Amelia'));
    await user.type(first, 'x');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const form = screen.getByRole('form', { name: 'Update Profile' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Your changes to this profile were not saved');
    expect(alert.textContent).toContain('The upload is too large. Nothing was saved');
    await pastTheToast();
    expect(within(form).getByRole('alert')).toBe(alert);
  });

  it('a refused delete keeps its reason in the dialog, which stays open', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/department/DEPT-1', DEPARTMENT_ALL, {
      GetDepartmentByCode: ok({ departmentCode: 'DEPT-1', name: 'Sales', version: 1 }),
      DeleteDepartment: { statusCode: 409, message: STILL_USED },
    });
    await findLoadedScreen('View Department');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete department?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(STILL_USED);
    expect(alert.textContent).toContain('Nothing was deleted');
    await pastTheToast();
    expect(screen.getByRole('dialog', { name: 'Delete department?' })).toBe(dialog);
    expect(within(dialog).getByRole('alert').textContent).toContain(STILL_USED);
    expect(api.callsTo('DeleteDepartment')).toHaveLength(1);
    // Closing ends the question; asking again starts without the old answer.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete department?' });
    expect(within(again).queryByRole('alert')).toBeNull();
  });

  it('a failed sign-in keeps its message on the card until the user types again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/login', { handlers: { login: fail(401, 'Invalid username or password') } });
    await user.type(await screen.findByLabelText('Username'), 'maria');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    const form = screen.getByRole('form', { name: 'Login' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Invalid username or password');
    await pastTheToast();
    expect(within(form).getByRole('alert')).toBe(alert);
    await user.type(screen.getByLabelText('Password'), 'x');
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
  });
});
