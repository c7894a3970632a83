import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { profilePictures, profiles } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import {
  type FilePart,
  hugeHeaderPng,
  type Json,
  jpegWithExif,
  lastAudit,
  names,
  noisyPng,
  pngImage,
  postMultipart,
} from './support.ts';

const t = sharedTestApp();
let admin: string;
let genderCode: string;
let otherGenderCode: string;
let geo: {
  countryCode: string;
  stateCode: string;
  cityCode: string;
  otherStateCode: string;
  otherCityCode: string;
};
let png: Buffer;
let personRoleCode: string;

const TYPE_MESSAGE = 'File type must be jpg, jpeg, png or webp';

beforeAll(async () => {
  admin = await t.login();
  genderCode = (await t.post('CreateGender', { genderName: 'Female' }, admin)).json().data.genderCode;
  otherGenderCode = (await t.post('CreateGender', { genderName: 'Male' }, admin)).json().data.genderCode;
  const countryCode = (
    await t.post('CreateCountry', { name: 'Norway', iso2: 'NO', iso3: 'NOR' }, admin)
  ).json().data.countryCode;
  const stateCode = (await t.post('CreateState', { name: 'Oslo', iso: '03', countryCode }, admin)).json().data
    .stateCode;
  const otherStateCode = (
    await t.post('CreateState', { name: 'Vestland', iso: '46', countryCode }, admin)
  ).json().data.stateCode;
  const cityCode = (await t.post('CreateCity', { name: 'Oslo City', stateCode, countryCode }, admin)).json()
    .data.cityCode;
  const otherCityCode = (
    await t.post('CreateCity', { name: 'Bergen', stateCode: otherStateCode, countryCode }, admin)
  ).json().data.cityCode;
  geo = { countryCode, stateCode, cityCode, otherStateCode, otherCityCode };
  png = await pngImage();
  personRoleCode = (await t.post('CreateRole', { roleName: 'Person' }, admin)).json().data.roleCode;
});

let userCounter = 0;
async function newUser() {
  const username = `person${++userCounter}`;
  const res = await t.post(
    'register',
    { username, email: `${username}@example.com`, password: 'person-password-1', roleCode: personRoleCode },
    admin,
  );
  return expectOk(res, 'User created successfully').data as { userCode: string; username: string };
}

function fields(userCode: string, extra: Json = {}): Json {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: '+47 123 45 678',
    genderCode,
    dob: '1990-12-10',
    userCode,
    address: {
      addressLineOne: 'Karl Johans gate 1',
      addressLineTwo: '',
      countryCode: geo.countryCode,
      stateCode: geo.stateCode,
      cityCode: geo.cityCode,
      postalCode: '0154',
    },
    social: {
      linkedin: 'https://linkedin.example/ada',
      twitter: '',
      facebook: '',
      instagram: 'https://instagram.example/ada',
      websitePortfolioUrl: '',
    },
    notification: { email: 'true', sms: 'false', push: 'true' },
    ...extra,
  };
}

const picture = (data: Buffer, name = 'avatar.png', type = 'image/png'): FilePart => ({ name, type, data });

async function createProfile(userCode: string, file: FilePart = picture(png), extra: Json = {}) {
  return postMultipart(t, 'CreateProfile', fields(userCode, extra), [file], admin);
}

const storedPicture = async (profileCode: string) =>
  (await t.handle.db.select().from(profilePictures).where(eq(profilePictures.profileCode, profileCode)))[0];
const profileCount = async () => (await t.handle.db.select().from(profiles)).length;

describe('CreateProfile', () => {
  it('stores the profile and its re-encoded picture, and answers in the nested shape', async () => {
    const user = await newUser();
    const res = expectOk(await createProfile(user.userCode), 'Profile created successfully');
    const code = res.data.profileCode as string;
    expect(res.data).toEqual({
      profileCode: expect.stringMatching(/^PROFILE-[0-9A-Z]{16}$/),
      firstName: 'Ada',
      lastName: 'Lovelace',
      profilePicture: {
        thumbnail: `/api/ProfilePicture/${code}/thumbnail?v=1`,
        filename: 'avatar.png',
        extension: 'png',
      },
      dob: '1990-12-10',
      gender: { genderCode, genderName: 'Female' },
      phoneNumber: '+47 123 45 678',
      address: {
        addressLineOne: 'Karl Johans gate 1',
        addressLineTwo: null,
        country: { countryCode: geo.countryCode, name: 'Norway' },
        state: { stateCode: geo.stateCode, name: 'Oslo' },
        city: { cityCode: geo.cityCode, name: 'Oslo City' },
        postalCode: '0154',
      },
      social: {
        linkedin: 'https://linkedin.example/ada',
        twitter: null,
        facebook: null,
        instagram: 'https://instagram.example/ada',
        websitePortfolioUrl: null,
      },
      notification: { email: true, sms: false, push: true },
      user: { userCode: user.userCode, username: user.username },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    const stored = await storedPicture(code);
    expect(stored).toMatchObject({ contentType: 'image/png', extension: 'png', version: 1 });
    expect((await sharp(stored!.thumbnail).metadata()).format).toBe('webp');

    const audit = await lastAudit(t, 'profiles');
    expect(audit).toMatchObject({ action: 'CREATE', before: null, after: res.data });
    expect(audit.changes).toMatchObject({
      'address.city.name': { old: null, new: 'Oslo City' },
      'notification.push': { old: null, new: true },
    });

    expect(
      expectOk(await t.post('GetProfileByCode', { profileCode: code }, admin), 'Profile fetched successfully')
        .data,
    ).toEqual(res.data);
    expect(
      expectOk(
        await t.post('GetProfileByUserCode', { userCode: user.userCode }, admin),
        'Profile fetched successfully',
      ).data,
    ).toEqual(res.data);
  });

  it('keeps an all-empty address as an object in the audit record', async () => {
    const user = await newUser();
    const res = expectOk(
      await createProfile(user.userCode, picture(png), { address: undefined, social: undefined }),
      'Profile created successfully',
    );
    expect(res.data.address).toEqual({
      addressLineOne: null,
      addressLineTwo: null,
      country: null,
      state: null,
      city: null,
      postalCode: null,
    });
    const audit = await lastAudit(t, 'profiles');
    const viewed = expectOk(
      await t.post('GetAuditByCode', { auditCode: audit.auditCode }, admin),
      'Audit Log fetched successfully',
    );
    expect(viewed.data.after.address).toEqual(res.data.address);
    expect(viewed.data.after).toEqual(audit.after);
  });

  it("refuses a missing picture with 'Profile picture is required', also as an empty file part", async () => {
    const user = await newUser();
    const before = await profileCount();
    const none = expectError(
      await postMultipart(t, 'CreateProfile', fields(user.userCode), [], admin),
      400,
      'Profile picture is required',
    );
    expect(none.errors).toEqual([{ field: 'profilePicture', message: 'Profile picture is required' }]);
    expectError(
      await createProfile(user.userCode, picture(Buffer.alloc(0), '')),
      400,
      'Profile picture is required',
    );
    expectError(
      await t.post('CreateProfile', fields(user.userCode), admin),
      400,
      'Profile picture is required',
    );
    expect(await profileCount()).toBe(before);
  });

  it('decides the type by the bytes: a PNG named .jpg is a png, text named .png is refused', async () => {
    const user = await newUser();
    const renamed = expectOk(
      await createProfile(user.userCode, picture(png, 'holiday.jpg', 'image/jpeg')),
      'Profile created successfully',
    );
    expect(renamed.data.profilePicture).toMatchObject({ filename: 'holiday.png', extension: 'png' });
    expect((await storedPicture(renamed.data.profileCode))!.contentType).toBe('image/png');

    const other = await newUser();
    const before = await profileCount();
    for (const file of [
      picture(Buffer.from('just some text, not an image'), 'notes.png', 'image/png'),
      picture(await sharp(png).gif().toBuffer(), 'anim.gif', 'image/gif'),
      picture(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
        'x.png',
        'image/png',
      ),
    ]) {
      const res = expectError(await createProfile(other.userCode, file), 400, TYPE_MESSAGE);
      expect(res.errors).toEqual([{ field: 'profilePicture', message: TYPE_MESSAGE }]);
    }
    expect(await profileCount()).toBe(before);
  });

  it('accepts a picture of several megabytes and refuses one over 5 MB with 413', async () => {
    const user = await newUser();
    const big = await noisyPng(1100, 1000);
    expect(big.length).toBeGreaterThan(3_000_000);
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    const ok = expectOk(
      await createProfile(user.userCode, picture(big, 'big.png')),
      'Profile created successfully',
    );
    const stored = await storedPicture(ok.data.profileCode);
    expect(await sharp(stored!.original).metadata()).toMatchObject({
      width: 1100,
      height: 1000,
      format: 'png',
    });

    const other = await newUser();
    const before = await profileCount();
    const tooBig = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    const res = expectError(
      await createProfile(other.userCode, picture(tooBig)),
      413,
      'File is larger than 5 MB',
    );
    expect(res.errors).toEqual([{ field: 'profilePicture', message: 'File is larger than 5 MB' }]);
    expect(await profileCount()).toBe(before);
  });

  it('refuses an image whose header claims too many pixels, without decoding it', async () => {
    const user = await newUser();
    const before = await profileCount();
    for (const [width, height] of [
      [7000, 6000],
      [20_000, 20_000],
    ] as const) {
      const bomb = hugeHeaderPng(width, height);
      expect(bomb.length).toBeLessThan(2000);
      const res = expectError(
        await createProfile(user.userCode, picture(bomb, 'bomb.png')),
        413,
        'Image is too large: at most 40 megapixels',
      );
      expect(res.errors).toEqual([
        { field: 'profilePicture', message: 'Image is too large: at most 40 megapixels' },
      ]);
    }
    expect(await profileCount()).toBe(before);
  });

  it('strips EXIF metadata from what it stores and serves', async () => {
    const exifJpeg = await jpegWithExif();
    expect(exifJpeg.includes('SecretCopyrightMarker')).toBe(true);
    expect((await sharp(exifJpeg).metadata()).exif).toBeDefined();
    const user = await newUser();
    const res = expectOk(
      await createProfile(user.userCode, picture(exifJpeg, 'camera.jpeg', 'image/jpeg')),
      'Profile created successfully',
    );
    expect(res.data.profilePicture).toMatchObject({ filename: 'camera.jpg', extension: 'jpg' });
    const stored = await storedPicture(res.data.profileCode);
    for (const bytes of [stored!.original, stored!.thumbnail]) {
      expect(bytes.includes('SecretCopyrightMarker')).toBe(false);
      expect(bytes.includes('SecretArtistMarker')).toBe(false);
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    }
    const served = await t.app.inject({
      method: 'GET',
      url: res.data.profilePicture.thumbnail,
      headers: { cookie: admin },
    });
    expect(served.rawPayload.includes('SecretCopyrightMarker')).toBe(false);
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
    const original = await t.app.inject({
      method: 'GET',
      url: `/api/ProfilePicture/${res.data.profileCode}/original`,
      headers: { cookie: admin },
    });
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload.includes('SecretArtistMarker')).toBe(false);
  });

  it('allows one profile per user (409) and checks the address chain', async () => {
    const user = await newUser();
    expectOk(await createProfile(user.userCode), 'Profile created successfully');
    const before = await profileCount();
    const pictures = (await t.handle.db.select().from(profilePictures)).length;
    const dup = expectError(await createProfile(user.userCode), 409, 'This user already has a profile');
    expect(dup.errors).toEqual([{ field: 'userCode', message: 'This user already has a profile' }]);
    expect(await profileCount()).toBe(before);
    expect((await t.handle.db.select().from(profilePictures)).length).toBe(pictures);

    const other = await newUser();
    const wrongCity = expectError(
      await createProfile(other.userCode, picture(png), {
        address: { countryCode: geo.countryCode, stateCode: geo.stateCode, cityCode: geo.otherCityCode },
      }),
      400,
      'Invalid input',
    );
    expect(wrongCity.errors).toEqual([
      { field: 'address.cityCode', message: 'City not found in the chosen state' },
    ]);
    const noCountry = expectError(
      await createProfile(other.userCode, picture(png), { address: { stateCode: geo.stateCode } }),
      400,
      'Invalid input',
    );
    expect(noCountry.errors).toEqual([
      { field: 'address.stateCode', message: 'State not found in the chosen country' },
    ]);
    const badFields = expectError(
      await createProfile(other.userCode, picture(png), {
        firstName: '',
        dob: '1990-02-30',
        genderCode: '',
        social: { linkedin: 'javascript:alert(1)' },
      }),
      400,
      'Invalid input',
    );
    expect(badFields.errors).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'genderCode', message: 'Gender is required' },
      { field: 'dob', message: 'Date of birth must be a real date' },
      {
        field: 'social.linkedin',
        message: 'LinkedIn must be a web address starting with http:// or https://',
      },
    ]);
    const unknownRefs = expectError(
      await createProfile(other.userCode, picture(png), { genderCode: 'GENDER-NOPE', userCode: 'USER-NOPE' }),
      400,
      'Invalid input',
    );
    expect(unknownRefs.errors).toEqual([
      { field: 'genderCode', message: 'Gender not found' },
      { field: 'userCode', message: 'User not found' },
    ]);
    expect(await profileCount()).toBe(before);
  });
});

describe('UpdateProfile', () => {
  it('keeps the picture unless isProfilePictureChanged=true, and replaces it when it is', async () => {
    const user = await newUser();
    const created = expectOk(await createProfile(user.userCode), 'Profile created successfully').data;
    const code = created.profileCode as string;
    const first = await storedPicture(code);
    const blue = await pngImage(90, 90, { r: 0, g: 0, b: 255 });
    const update = (extra: Json, files: FilePart[]) =>
      postMultipart(
        t,
        'UpdateProfile',
        { ...fields(user.userCode), userCode: undefined, profileCode: code, ...extra },
        files,
        admin,
      );

    const kept = expectOk(
      await update({ firstName: 'Augusta', isProfilePictureChanged: 'false' }, [picture(blue, 'blue.png')]),
      'Profile updated successfully',
    );
    expect(kept.data.profilePicture).toEqual(created.profilePicture);
    expect((await storedPicture(code))!.original.equals(first!.original)).toBe(true);
    expect((await lastAudit(t, 'profiles')).changes).toEqual({ firstName: { old: 'Ada', new: 'Augusta' } });

    const noFlag = expectOk(await update({ lastName: 'King' }, []), 'Profile updated successfully');
    expect(noFlag.data.profilePicture).toEqual(created.profilePicture);

    expectError(await update({ isProfilePictureChanged: 'true' }, []), 400, 'Profile picture is required');

    const changed = expectOk(
      await update({ isProfilePictureChanged: 'true', genderCode: otherGenderCode }, [
        picture(blue, 'blue.png'),
      ]),
      'Profile updated successfully',
    );
    expect(changed.data.profilePicture).toEqual({
      thumbnail: `/api/ProfilePicture/${code}/thumbnail?v=2`,
      filename: 'blue.png',
      extension: 'png',
    });
    const second = await storedPicture(code);
    expect(second!.original.equals(first!.original)).toBe(false);
    expect(await sharp(second!.original).metadata()).toMatchObject({ width: 90, height: 90 });
    expect((await lastAudit(t, 'profiles')).changes).toMatchObject({
      'gender.genderName': { old: 'Female', new: 'Male' },
      'profilePicture.filename': { old: 'avatar.png', new: 'blue.png' },
    });
    expect(changed.data.user).toEqual({ userCode: user.userCode, username: user.username });

    expectError(
      await postMultipart(
        t,
        'UpdateProfile',
        { ...fields(user.userCode), profileCode: 'PROFILE-NOPE' },
        [],
        admin,
      ),
      404,
      'Profile not found',
    );
  });
});

describe('profile pictures and lists', () => {
  it('serves the thumbnail only to signed-in users who may see profiles, with nosniff', async () => {
    const user = await newUser();
    const created = expectOk(await createProfile(user.userCode), 'Profile created successfully').data;
    const url = created.profilePicture.thumbnail as string;
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const anonymous = await t.app.inject({ method: 'GET', url });
    expectError(anonymous, 401, 'Not signed in');
    const stranger = await t.userWith(['VIEW_USERS']);
    expectError(
      await t.app.inject({ method: 'GET', url, headers: { cookie: stranger.cookie } }),
      403,
      'You do not have permission to do this',
    );
    const viewer = await t.userWith(['VIEW_PROFILES', 'VIEW_PERSONAL_DATA']);
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie } })).statusCode).toBe(
      200,
    );
    // A picture is personal data: without VIEW_PERSONAL_DATA it is not found, like a missing one.
    const noDetails = await t.userWith(['VIEW_PROFILES']);
    expectError(
      await t.app.inject({ method: 'GET', url, headers: { cookie: noDetails.cookie } }),
      404,
      'Picture not found',
    );
    expectError(
      await t.app.inject({
        method: 'GET',
        url: '/api/ProfilePicture/PROFILE-NOPE/thumbnail',
        headers: { cookie: admin },
      }),
      404,
      'Picture not found',
    );
    expectError(
      await t.app.inject({
        method: 'GET',
        url: `/api/ProfilePicture/${created.profileCode}/secret`,
        headers: { cookie: admin },
      }),
      404,
      'Picture not found',
    );
  });

  it('lists, sorts by gender name, searches by username, and keeps the picture with populate=false', async () => {
    const list = expectOk(
      await t.get('GetProfiles', admin, { sortField: 'gender.genderName', sortValue: 'desc', limit: 100 }),
      'Profiles fetched successfully',
    );
    const genders = list.data.map((p: { gender: { genderName: string } }) => p.gender.genderName);
    expect(genders).toEqual([...genders].sort().reverse());
    expect(new Set(genders).size).toBe(2);
    const found = (await t.get('GetProfiles', admin, { keyword: 'PERSON1' })).json();
    expect(found.data.map((p: { user: { username: string } }) => p.user.username)).toContain('person1');
    const bare = (await t.get('GetProfiles', admin, { keyword: 'person1', populate: 'false' })).json();
    const row = bare.data.find((p: { user: { userCode: string } }) => p.user);
    expect(Object.keys(row.user)).toEqual(['userCode']);
    expect(Object.keys(row.gender)).toEqual(['genderCode']);
    expect(row.profilePicture).toMatchObject({
      extension: 'png',
      thumbnail: expect.stringContaining('/thumbnail?v='),
    });
    expect(names(bare.data, 'firstName').length).toBe(found.data.length);
    expectError(await t.get('GetProfiles', admin, { sortField: 'address.city.name' }), 400, 'Invalid input');
  });

  it('lets the profile form load its selectors as codes and names only', async () => {
    const clerk = await t.userWith(['CREATE_PROFILE']);
    expect(expectOk(await t.get('GetGenders', clerk.cookie), 'Genders fetched successfully').data[0]).toEqual(
      {
        genderCode: expect.any(String),
        genderName: expect.any(String),
      },
    );
    expectOk(
      await t.post('GetCitiesByStateCode', { stateCode: geo.stateCode }, clerk.cookie),
      'Cities fetched successfully',
    );
    const usersList = expectOk(
      await t.get('GetUsers', clerk.cookie, { keyword: 'person1' }),
      'Users fetched successfully',
    );
    expect(Object.keys(usersList.data[0]).sort()).toEqual(['userCode', 'username']);
    expectError(await t.get('GetProfiles', clerk.cookie), 403, 'You do not have permission to do this');
  });

  it('deletes a profile with its picture, and refuses to delete a gender still in use', async () => {
    expectError(
      await t.post('DeleteGender', { genderCode: otherGenderCode }, admin),
      409,
      'Cannot delete this gender: it is still used by 1 profile',
    );
    const user = await newUser();
    const created = expectOk(await createProfile(user.userCode), 'Profile created successfully').data;
    const del = expectOk(
      await t.post('DeleteProfile', { profileCode: created.profileCode }, admin),
      'Profile deleted successfully',
    );
    expect(del.data).toEqual(created);
    expect(
      await t.handle.db.select().from(profiles).where(eq(profiles.profileCode, created.profileCode)),
    ).toEqual([]);
    expect(await storedPicture(created.profileCode)).toBeUndefined();
    const audit = await lastAudit(t, 'profiles');
    expect(audit).toMatchObject({ action: 'DELETE', before: created, after: null });
    expectError(
      await t.app.inject({
        method: 'GET',
        url: created.profilePicture.thumbnail,
        headers: { cookie: admin },
      }),
      404,
      'Picture not found',
    );
    expectError(
      await t.post('DeleteProfile', { profileCode: created.profileCode }, admin),
      404,
      'Profile not found',
    );
    expectError(
      await t.post('GetProfileByUserCode', { userCode: user.userCode }, admin),
      404,
      'Profile not found',
    );
  });
});
