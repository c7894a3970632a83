import type { ProfileRecord } from '@wfc/contract';

/**
 * Amelia Hart's profile as the server returns it, at version 1 with a saved picture; the optional
 * parts (phone, address, social links) empty unless `overrides` fill them in.
 */
export function profileRecord(overrides: Partial<ProfileRecord> = {}): ProfileRecord {
  return {
    profileCode: 'PROFILE-1',
    firstName: 'Amelia',
    lastName: 'Hart',
    profilePicture: {
      thumbnail: '/api/ProfilePicture/PROFILE-1/thumbnail?v=1',
      filename: 'amelia.png',
      extension: 'png',
    },
    dob: '1990-04-12',
    gender: { genderCode: 'GENDER-F', genderName: 'Female' },
    phoneNumber: null,
    address: {
      addressLineOne: null,
      addressLineTwo: null,
      country: null,
      state: null,
      city: null,
      postalCode: null,
    },
    social: { linkedin: null, twitter: null, facebook: null, instagram: null, websitePortfolioUrl: null },
    notification: { email: true, sms: false, push: false },
    user: { userCode: 'USER-A', username: 'amelia' },
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    version: 1,
    ...overrides,
  };
}
