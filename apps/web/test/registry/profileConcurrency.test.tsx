import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProfileRecord } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { profileRecord } from '../support/profile';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

/** The profile form (multipart) names its version too, and resolves a conflict like the others. */

const BASE = profileRecord();
const THEIRS: ProfileRecord = {
  ...BASE,
  lastName: 'Hart-Smith',
  profilePicture: {
    thumbnail: '/api/ProfilePicture/PROFILE-1/thumbnail?v=2',
    filename: 'amelia-2.png',
    extension: 'png',
  },
  notification: { email: true, sms: true, push: false },
  version: 2,
};
const CHANGED = 'This profile was changed by jdoe at 2024-02-01 00:00:00 UTC since you opened it';

async function editProfile() {
  const user = userEvent.setup();
  const api = renderRegistry('/registry/profile/edit/PROFILE-1', ['VIEW_PROFILES', 'UPDATE_PROFILE'], {
    GetProfileByCode: ok(BASE, 'Profile fetched successfully'),
    GetProfiles: ok([], 'Profiles fetched successfully', 0),
    'ProfilePicture/PROFILE-1/thumbnail': ok(null),
    UpdateProfile: reply((call: Call) =>
      Number(call.body.version) === THEIRS.version
        ? ok({ ...THEIRS, version: 3 }, 'Profile updated successfully')
        : { statusCode: 409, message: CHANGED, data: THEIRS },
    ),
  });
  const first = (await screen.findByLabelText('First Name')) as HTMLInputElement;
  await waitFor(() => expect(first.value).toBe('Amelia'));
  await user.clear(first);
  await user.type(first, 'Amy');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return { user, api };
}

resetScreensAfterEach();

describe('profile form: versions and conflicts', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('sends its version in the multipart body and lists their changes field by field', async () => {
    const { api } = await editProfile();
    const alert = await screen.findByRole('alert', {
      name: 'Not saved: this profile was changed by someone else',
    });
    expect(api.lastCallTo('UpdateProfile')?.body).toMatchObject({
      profileCode: 'PROFILE-1',
      firstName: 'Amy',
      version: '1',
      isProfilePictureChanged: 'false',
    });
    const theirs = within(alert).getByRole('heading', { name: 'Their changes' }).parentElement!;
    const entry = (name: string) => theirs.querySelector(`[data-field="${name}"]`)?.textContent;
    expect(entry('lastName')).toBe('Last NameHart-Smith (was: Hart)');
    expect(entry('profilePicture')).toBe('Profile Pictureamelia-2.png (was: amelia.png)');
    expect(entry('notification.sms')).toBe('SMS notificationsYes (was: No)');
    const mine = within(alert).getByRole('heading', { name: 'Your other changes' }).parentElement!;
    expect(mine.querySelector('[data-field="firstName"]')?.textContent).toBe('First NameAmy (was: Amelia)');
  });

  it('keep mine re-sends the typed values at their version', async () => {
    const { user, api } = await editProfile();
    await user.click(await screen.findByRole('button', { name: 'Keep mine (save again)' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/profiles'));
    const calls = api.callsTo('UpdateProfile');
    expect(calls.map((c) => c.body.version)).toEqual(['1', '2']);
    expect(calls[1]?.body.firstName).toBe('Amy');
  });

  it('take theirs loads their record and their picture', async () => {
    const { user, api } = await editProfile();
    await user.click(await screen.findByRole('button', { name: 'Take theirs (reload)' }));
    await waitFor(() =>
      expect((screen.getByLabelText('Last Name') as HTMLInputElement).value).toBe('Hart-Smith'),
    );
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('Amelia');
    const pictures = api.calls.filter((c) => c.path === 'ProfilePicture/PROFILE-1/thumbnail');
    expect(pictures.at(-1)?.query.v).toBe('2');
    expect(screen.queryByRole('alert', { name: /^Not saved:/ })).toBeNull();
  });
});
