import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProfileRecord } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { type Call, ok, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from '../registry/harness';
import { profileRecord } from '../support/profile';
import { employeeUser, ME, readOut, renderAs, SELF_SERVICE } from './support';

const PROFILE = profileRecord({
  phoneNumber: '+49 89 1234567',
  user: { userCode: 'USER-AMELIA', username: 'amelia' },
});
const EMPLOYEE = {
  employeeCode: ME.employeeCode,
  employeeId: 'E-001',
  name: ME.name,
  department: { departmentCode: ME.departmentCode, name: 'Operations' },
  joinDate: '2021-06-01',
  user: { userCode: 'USER-AMELIA', username: 'amelia' },
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 1,
};
const CHANGED = 'This profile was changed by hr at 2024-02-01 00:00:00 UTC since you opened it';

const mine = (profile: ProfileRecord | null = PROFILE) => ({
  GetProfileByUserCode: profile
    ? ok(profile, 'Profile fetched successfully')
    : { statusCode: 404, message: 'Profile not found' },
  GetEmployeeByUserCode: ok(EMPLOYEE, 'Employee fetched successfully'),
  'ProfilePicture/PROFILE-1/thumbnail': ok(null),
});

resetScreensAfterEach();

describe('My profile', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('reads the profile and the employee record as label and value pairs, with no inputs', async () => {
    const api = renderAs('/my/profile', employeeUser(), mine());
    expect(await screen.findByRole('heading', { level: 1, name: 'My profile' })).toBeTruthy();
    await waitFor(() => expect(readOut('Phone Number')).toBe('+49 89 1234567'));
    expect(readOut('First Name')).toBe('Amelia');
    expect(readOut('Date of Birth')).toBe('Apr 12, 1990');
    expect(readOut('Gender')).toBe('Female');
    expect(readOut('Employee Id')).toBe('E-001');
    expect(readOut('Department')).toBe('Operations');
    expect(readOut('Join Date')).toBe('Jun 1, 2021');
    expect(readOut('Email')).toBe('Yes');
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    // Names, not links: a self-service role opens no registry record.
    expect(screen.queryByRole('link', { name: 'Female' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Edit my details' }).getAttribute('href')).toBe(
      '/my/profile/edit',
    );
    expect(api.lastCallTo('GetProfileByUserCode')?.body).toEqual({ userCode: 'USER-AMELIA' });
  });

  it('offers no edit without UPDATE_PROFILE', async () => {
    renderAs('/my/profile', employeeUser(['VIEW_PROFILES', 'VIEW_EMPLOYEES']), mine());
    await waitFor(() => expect(readOut('Phone Number')).toBe('+49 89 1234567'));
    expect(screen.queryByRole('link', { name: 'Edit my details' })).toBeNull();
  });

  it('says so when the user has no profile yet, and still shows the employee record', async () => {
    renderAs('/my/profile', employeeUser(), mine(null));
    expect(await screen.findByText(/You have no profile yet/)).toBeTruthy();
    expect(readOut('Employee Id')).toBe('E-001');
    expect(screen.queryByRole('link', { name: 'Edit my details' })).toBeNull();
  });

  it('edits the phone only among the personal details, sending the rest back unchanged at its version', async () => {
    const user = userEvent.setup();
    const api = renderAs('/my/profile/edit', employeeUser(), {
      ...mine(),
      UpdateProfile: ok(
        { ...PROFILE, phoneNumber: '+49 30 555', version: 2 },
        'Profile updated successfully',
      ),
    });
    const phone = (await screen.findByLabelText('Phone Number')) as HTMLInputElement;
    await waitFor(() => expect(phone.value).toBe('+49 89 1234567'));
    expect(screen.queryByRole('textbox', { name: 'First Name' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Date of Birth' })).toBeNull();
    expect(readOut('First Name')).toBe('Amelia');
    expect(screen.getByLabelText('LinkedIn')).toBeTruthy();
    expect(screen.getByText('Drag and drop a file here, or click to select a file')).toBeTruthy();
    await user.clear(phone);
    await user.type(phone, '+49 30 555');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.pathname()).toBe('/my/profile'));
    expect(api.lastCallTo('UpdateProfile')?.body).toMatchObject({
      profileCode: 'PROFILE-1',
      phoneNumber: '+49 30 555',
      firstName: 'Amelia',
      lastName: 'Hart',
      dob: '1990-04-12',
      genderCode: 'GENDER-F',
      version: '1',
      isProfilePictureChanged: 'false',
    });
  });

  it('shows a conflict as the registry form does, when HR changed the profile meanwhile', async () => {
    const user = userEvent.setup();
    const theirs = { ...PROFILE, phoneNumber: '+49 40 999', version: 2 };
    renderAs('/my/profile/edit', employeeUser(), {
      ...mine(),
      UpdateProfile: reply((_call: Call) => ({ statusCode: 409, message: CHANGED, data: theirs })),
    });
    const phone = (await screen.findByLabelText('Phone Number')) as HTMLInputElement;
    await waitFor(() => expect(phone.value).toBe('+49 89 1234567'));
    await user.type(phone, '0');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByRole('alert', { name: 'Not saved: this profile was changed by someone else' }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /create/i })).toBeNull();
  });

  it('is refused to a user with no employee linked, and to one without the permissions', async () => {
    const none = renderAs('/my/profile', employeeUser(SELF_SERVICE, { employee: null }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeTruthy();
    expect(none.pathname()).toBe('/access-denied');
    expect(none.callsTo('GetProfileByUserCode')).toHaveLength(0);
  });

  it('is refused without VIEW_PROFILES or VIEW_EMPLOYEES, naming them', async () => {
    const app = renderAs('/my/profile', employeeUser(['VIEW_PERFORMANCES']));
    expect(await screen.findByTestId('missing-permission')).toBeTruthy();
    expect(screen.getByTestId('missing-permission').textContent).toContain('VIEW_PROFILES');
    expect(app.pathname()).toBe('/access-denied');
  });
});
