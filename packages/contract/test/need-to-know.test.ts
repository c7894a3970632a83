import { describe, expect, it } from 'vitest';
import {
  detailFields,
  employeeResource,
  hiddenIn,
  isDetailPath,
  keepHidden,
  profileResource,
  seesDetails,
  userResource,
  VIEW_PERSONAL_DATA,
  visibleAuditEntry,
  visibleRecord,
  visibleRecordSchema,
} from '../src/index.ts';

const someone = { permissions: new Set(['VIEW_PROFILES']), userCode: 'USER-ME' };
const entitled = { permissions: new Set(['VIEW_PROFILES', VIEW_PERSONAL_DATA]), userCode: 'USER-ME' };

const profile = {
  profileCode: 'PROFILE-1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profilePicture: null,
  dob: '1815-12-10',
  gender: { genderCode: 'GENDER-F', genderName: 'Female' },
  phoneNumber: '+44 1',
  address: {
    addressLineOne: '12 St James Square',
    addressLineTwo: null,
    country: { countryCode: 'COUNTRY-GB', name: 'United Kingdom' },
    state: null,
    city: null,
    postalCode: 'SW1',
  },
  social: {
    linkedin: null,
    twitter: null,
    facebook: null,
    instagram: null,
    websitePortfolioUrl: 'https://a.example',
  },
  notification: { email: true, sms: false, push: false },
  user: { userCode: 'USER-ADA', username: 'ada' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 3,
};

describe('need-to-know fields', () => {
  it('names the detail fields from the definitions', () => {
    expect(detailFields(userResource)).toEqual(['email']);
    expect(detailFields(employeeResource)).toEqual(['joinDate']);
    expect(detailFields(profileResource)).toEqual([
      'profilePicture',
      'dob',
      'gender',
      'phoneNumber',
      'address',
      'social',
      'notification',
    ]);
    expect(isDetailPath(profileResource, 'address.city.name')).toBe(true);
    expect(isDetailPath(profileResource, 'user.username')).toBe(false);
  });

  it('shows details to holders of the permission and to the person, and hides them from others', () => {
    expect(seesDetails(entitled, profileResource, profile)).toBe(true);
    expect(seesDetails(someone, profileResource, profile)).toBe(false);
    expect(seesDetails({ ...someone, userCode: 'USER-ADA' }, profileResource, profile)).toBe(true);
    const seen = visibleRecord(someone, profileResource, profile);
    expect(Object.keys(seen)).toEqual([
      'profileCode',
      'firstName',
      'lastName',
      'user',
      'createdAt',
      'updatedAt',
      'version',
    ]);
    expect(hiddenIn(profileResource, seen)).toEqual(detailFields(profileResource));
    expect(visibleRecord(entitled, profileResource, profile)).toBe(profile);
  });

  it('describes answers whose detail fields may be absent, and nothing more', () => {
    const schema = visibleRecordSchema(profileResource);
    expect(schema.safeParse(visibleRecord(someone, profileResource, profile)).success).toBe(true);
    expect(schema.safeParse(profile).success).toBe(true);
    const { firstName: _name, ...nameless } = profile;
    expect(schema.safeParse(nameless).success).toBe(false);
    expect(schema.safeParse({ ...profile, extra: 1 }).success).toBe(false);
  });

  it('completes an edit with the stored values of what its sender cannot see', () => {
    const body = keepHidden(
      profileResource,
      {
        profileCode: 'PROFILE-1',
        firstName: 'Augusta',
        phoneNumber: '+1 555',
        address: { postalCode: 'X' },
        version: 3,
      },
      profile,
      detailFields(profileResource),
    );
    expect(body).toEqual({
      profileCode: 'PROFILE-1',
      firstName: 'Augusta',
      version: 3,
      dob: '1815-12-10',
      genderCode: 'GENDER-F',
      phoneNumber: '+44 1',
      address: { addressLineOne: '12 St James Square', postalCode: 'SW1', countryCode: 'COUNTRY-GB' },
      social: { websitePortfolioUrl: 'https://a.example' },
      notification: { email: true, sms: false, push: false },
    });
    const parsed = profileResource.updateSchema?.safeParse({
      ...body,
      lastName: 'King',
      isProfilePictureChanged: false,
    });
    expect(parsed?.success).toBe(true);
  });

  it('leaves the detail fields out of an audit entry about someone else', () => {
    const defOf = (c: string) => (c === profileResource.listSegment ? profileResource : undefined);
    const entry = {
      collection: profileResource.listSegment,
      before: profile,
      after: { ...profile, phoneNumber: '+44 2', firstName: 'Augusta' },
      changes: { phoneNumber: { old: '+44 1', new: '+44 2' }, firstName: { old: 'Ada', new: 'Augusta' } },
    };
    const seen = visibleAuditEntry(someone, defOf, entry);
    expect(seen.changes).toEqual({ firstName: { old: 'Ada', new: 'Augusta' } });
    expect(seen.before).not.toHaveProperty('phoneNumber');
    expect(seen.after).toMatchObject({ firstName: 'Augusta' });
    expect(visibleAuditEntry(entitled, defOf, entry)).toBe(entry);
    const other = { ...entry, collection: 'departments' };
    expect(visibleAuditEntry(someone, defOf, other)).toBe(other);
  });
});
