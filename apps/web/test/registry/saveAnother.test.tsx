import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen } from './loaded';

const GENDER_ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];
const FROM = { pathname: '/registry/gender/create', state: { back: '/registry/genders?page=2' } };

resetScreensAfterEach();

const nameInput = () => screen.getByLabelText('Gender Name') as HTMLInputElement;

describe('Save and add another', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('saves, toasts, and starts a fresh create form that still goes back where the first would have', async () => {
    const user = userEvent.setup();
    const api = renderRegistry(FROM, GENDER_ALL, {
      CreateGender: ok({ genderCode: 'GENDER-2', genderName: 'Non-binary' }, 'Gender created successfully'),
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    await findLoadedScreen('Create Gender');
    await user.type(nameInput(), 'Non-binary');
    await user.click(screen.getByRole('button', { name: 'Save and add another' }));
    expect(await screen.findByText('Gender created successfully')).toBeTruthy();
    expect(api.lastCallTo('CreateGender')?.body).toEqual({ genderName: 'Non-binary' });

    // Still creating, on an empty form ready for the next one.
    await waitFor(() => expect(nameInput().value).toBe(''));
    expect(api.router.state.location.pathname).toBe('/registry/gender/create');
    expect(document.activeElement).toBe(nameInput());
    // The fresh form guards its own edits.
    await user.type(nameInput(), 'Agender');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.callsTo('CreateGender')).toHaveLength(2));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
    expect(api.router.state.location.search).toBe('?page=2');
  });

  it('is offered on create forms only', async () => {
    renderRegistry('/registry/gender/edit/GENDER-1', GENDER_ALL, {
      GetGenderByCode: ok({ genderCode: 'GENDER-1', genderName: 'Female', version: 1 }),
    });
    await findLoadedScreen('Update Gender');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save and add another' })).toBeNull();
  });

  it('is offered on the profile’s create form too', async () => {
    renderRegistry('/registry/profile/create', ['VIEW_PROFILES', 'CREATE_PROFILE'], {});
    await findLoadedScreen('Create Profile');
    expect(screen.getByRole('button', { name: 'Save and add another' })).toBeTruthy();
  });
});
