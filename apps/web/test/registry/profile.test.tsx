import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { toBracketPairs } from '../../src/api/client';
import { initialProfileValues, profileBody } from '../../src/registry/profile/profileValues';
import { profileRecord } from '../support/profile';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen, readValue } from './loaded';

const PROFILE = profileRecord({
  phoneNumber: '+49 89 1234567',
  address: {
    addressLineOne: 'Marienplatz 1',
    addressLineTwo: null,
    country: { countryCode: 'COUNTRY-DE', name: 'Germany' },
    state: { stateCode: 'STATE-BY', name: 'Bavaria' },
    city: { cityCode: 'CITY-MUC', name: 'Munich' },
    postalCode: '80331',
  },
  social: {
    linkedin: 'https://www.linkedin.com/in/amelia',
    twitter: null,
    facebook: null,
    instagram: 'https://www.instagram.com/amelia',
    websitePortfolioUrl: null,
  },
  notification: { email: true, sms: false, push: true },
});

resetScreensAfterEach();

describe('profile body', () => {
  it('sends nested bracket keys, booleans as text and the picture only when changed on update', () => {
    const picture = new File(['x'], 'amelia.png', { type: 'image/png' });
    const values = initialProfileValues(PROFILE, picture);
    const unchanged = Object.fromEntries(toBracketPairs(profileBody(values, 'update', 'PROFILE-1', false)));
    expect(unchanged).toEqual({
      firstName: 'Amelia',
      lastName: 'Hart',
      phoneNumber: '+49 89 1234567',
      genderCode: 'GENDER-F',
      dob: '1990-04-12',
      'address[addressLineOne]': 'Marienplatz 1',
      'address[addressLineTwo]': '',
      'address[countryCode]': 'COUNTRY-DE',
      'address[stateCode]': 'STATE-BY',
      'address[cityCode]': 'CITY-MUC',
      'address[postalCode]': '80331',
      'social[linkedin]': 'https://www.linkedin.com/in/amelia',
      'social[twitter]': '',
      'social[facebook]': '',
      'social[instagram]': 'https://www.instagram.com/amelia',
      'social[websitePortfolioUrl]': '',
      'notification[email]': 'true',
      'notification[sms]': 'false',
      'notification[push]': 'true',
      profileCode: 'PROFILE-1',
      isProfilePictureChanged: 'false',
    });
    const changed = Object.fromEntries(toBracketPairs(profileBody(values, 'update', 'PROFILE-1', true)));
    expect(changed.profilePicture).toBe(picture);
    expect(changed.isProfilePictureChanged).toBe('true');
  });

  it('sends the user and the picture on create, and no profile code', () => {
    const picture = new File(['x'], 'amelia.png', { type: 'image/png' });
    const values = {
      ...initialProfileValues(undefined, picture),
      userCode: { value: 'USER-A', label: 'amelia' },
    };
    const body = Object.fromEntries(toBracketPairs(profileBody(values, 'create', '', false)));
    expect(body.userCode).toBe('USER-A');
    expect(body.profilePicture).toBe(picture);
    expect(body).not.toHaveProperty('profileCode');
    expect(body).not.toHaveProperty('isProfilePictureChanged');
  });
});

describe('profile screens', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('views LinkedIn as LinkedIn and the city by its name, and says when the picture cannot be fetched', async () => {
    const api = renderRegistry('/registry/profile/PROFILE-1', ['VIEW_PROFILES'], {
      GetProfileByCode: ok(PROFILE, 'Profile fetched successfully'),
    });
    expect(await findLoadedScreen('View Profile')).toBeTruthy();
    expect(readValue('LinkedIn')).toBe('https://www.linkedin.com/in/amelia');
    expect(readValue('Instagram')).toBe('https://www.instagram.com/amelia');
    expect(screen.getByText('Munich')).toBeTruthy();
    expect(screen.getByText('Bavaria')).toBeTruthy();
    expect(screen.getAllByText('Failed to fetch the file').length).toBeGreaterThan(0);
    expect(api.lastCallTo('ProfilePicture/PROFILE-1/thumbnail')?.method).toBe('GET');
    expect(screen.queryByText('Drag and drop a file here, or click to select a file')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(readValue('Push')).toBe('Yes');
  });

  it('refuses to send a profile without a picture', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/profile/create', ['VIEW_PROFILES', 'CREATE_PROFILE'], {});
    expect(await screen.findByText('Drag and drop a file here, or click to select a file')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Profile picture is required')).toBeTruthy();
    expect(screen.getByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Gender is required')).toBeTruthy();
    expect(api.callsTo('CreateProfile')).toHaveLength(0);
  });
});
