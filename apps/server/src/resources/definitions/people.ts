import {
  employeeResource,
  PROFILE_PICTURE_REQUIRED,
  profileResource,
  SELF_SERVICE_READ_ONLY_FIELDS,
} from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { employeeRelation, userRelation } from '../../auth/scopes.ts';
import {
  cities,
  countries,
  employees,
  performances,
  profilePictures,
  profiles,
  states,
} from '../../db/schema/index.ts';
import { ApiError, badRequest } from '../../http/envelope.ts';
import { processPicture, thumbnailUrl } from '../pictures.ts';
import { defineServerResource, fieldsAt, textAt } from '../server-resource.ts';
import { users$ } from './access.ts';
import { cities$, countries$, states$ } from './geography.ts';
import { departments$, genders$ } from './reference.ts';

export const employees$ = defineServerResource({
  def: employeeResource,
  table: employees,
  references: [
    { to: departments$, via: employees.departmentCode },
    { to: users$, via: employees.userCode, optional: true },
  ],
  search: ['employeeId', 'name', 'department.name', 'user.username'],
  searchFields: ['name', 'employeeId'],
  unique: [
    {
      constraint: 'employees_employee_id_unique',
      field: 'employeeId',
      message: 'This Employee Id is already in use',
    },
    {
      constraint: 'employees_user_unique',
      field: 'userCode',
      message: 'This user is already linked to an employee',
    },
  ],
  dependents: [{ column: performances.employeeCode, one: 'performance record', many: 'performance records' }],
  getters: [{ endpoint: 'GetEmployeeByUserCode', param: 'userCode', column: employees.userCode }],
  // Mine: the employee linked to me; my team's: the employees of the departments I manage.
  scope: employeeRelation({ userCode: employees.userCode, departmentCode: employees.departmentCode }),
});

/** Where a profile record holds each field My profile shows read-only. */
const READ_ONLY_PATHS: Record<(typeof SELF_SERVICE_READ_ONLY_FIELDS)[number], string> = {
  firstName: 'firstName',
  lastName: 'lastName',
  dob: 'dob',
  genderCode: 'gender.genderCode',
};

export const profiles$ = defineServerResource({
  def: profileResource,
  table: profiles,
  multipart: true,
  references: [
    { to: genders$, via: profiles.genderCode },
    { to: users$, via: profiles.userCode },
    { to: countries$, via: profiles.countryCode, optional: true },
    { to: states$, via: profiles.stateCode, optional: true },
    { to: cities$, via: profiles.cityCode, optional: true },
  ],
  moreShape: {
    picture: {
      filename: profilePictures.filename,
      extension: profilePictures.extension,
      version: profilePictures.version,
    },
  },
  joins: [
    { table: profilePictures, on: eq(profilePictures.profileCode, profiles.profileCode), optional: true },
  ],
  search: ['firstName', 'lastName', 'phoneNumber', 'gender.genderName', 'user.username'],
  searchFields: ['firstName', 'lastName'],
  unique: [
    { constraint: 'profiles_user_unique', field: 'userCode', message: 'This user already has a profile' },
  ],
  getters: [{ endpoint: 'GetProfileByUserCode', param: 'userCode', column: profiles.userCode }],
  // Mine: my user's profile; my team's: the profiles of the users of my team's employees.
  scope: userRelation(profiles.userCode),
  /**
   * Whoever may change only their own profile changes only the self-service fields
   * (`SELF_SERVICE_PROFILE_FIELDS`); the others must come back as they are.
   */
  async authorize(input, { scope }, existing) {
    if (scope !== 'own' || !input || !existing) return;
    const fields = new Map(Object.entries(input));
    const changed = SELF_SERVICE_READ_ONLY_FIELDS.filter(
      (f) => fields.get(f) !== textAt(existing, READ_ONLY_PATHS[f]),
    );
    if (changed.length) {
      throw new ApiError(403, `You cannot change these fields of your own profile: ${changed.join(', ')}`);
    }
  },
  /** A profile nests its address, social links, notifications and picture; the query gives them flat. */
  present(r) {
    const picture = fieldsAt(r, 'picture');
    const code = textAt(r, 'profileCode') ?? '';
    return {
      profileCode: r.profileCode,
      firstName: r.firstName,
      lastName: r.lastName,
      profilePicture: picture.size
        ? {
            thumbnail: thumbnailUrl(code, Number(picture.get('version'))),
            filename: picture.get('filename'),
            extension: picture.get('extension'),
          }
        : null,
      dob: r.dob,
      gender: r.gender,
      phoneNumber: r.phoneNumber,
      address: {
        addressLineOne: r.addressLineOne,
        addressLineTwo: r.addressLineTwo,
        country: r.country,
        state: r.state,
        city: r.city,
        postalCode: r.postalCode,
      },
      social: {
        linkedin: r.linkedin,
        twitter: r.twitter,
        facebook: r.facebook,
        instagram: r.instagram,
        websitePortfolioUrl: r.websitePortfolioUrl,
      },
      notification: { email: r.notifyEmail, sms: r.notifySms, push: r.notifyPush },
      user: r.user,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      version: r.version,
    };
  },
  /** A create always brings a picture; an update only when it says the picture changed. */
  async prepare(input, upload, mode) {
    if (mode === 'update' && !('isProfilePictureChanged' in input && input.isProfilePictureChanged)) {
      return undefined;
    }
    if (!upload)
      throw badRequest(PROFILE_PICTURE_REQUIRED, [
        { field: 'profilePicture', message: PROFILE_PICTURE_REQUIRED },
      ]);
    return processPicture(upload);
  },
  async validate(input, { tx }) {
    const { countryCode, stateCode, cityCode } = input.address;
    const errors: { field: string; message: string }[] = [];
    if (countryCode) {
      const [country] = await tx
        .select({ c: countries.countryCode })
        .from(countries)
        .where(eq(countries.countryCode, countryCode));
      if (!country) errors.push({ field: 'address.countryCode', message: 'Country not found' });
    }
    if (stateCode) {
      const [state] = await tx
        .select({ country: states.countryCode })
        .from(states)
        .where(eq(states.stateCode, stateCode));
      if (!state || !countryCode || state.country !== countryCode)
        errors.push({ field: 'address.stateCode', message: 'State not found in the chosen country' });
    }
    if (cityCode) {
      const [city] = await tx
        .select({ state: cities.stateCode })
        .from(cities)
        .where(eq(cities.cityCode, cityCode));
      if (!city || city.state !== stateCode)
        errors.push({ field: 'address.cityCode', message: 'City not found in the chosen state' });
    }
    if (errors.length) throw badRequest('Invalid input', errors);
  },
  async toRow(input) {
    const { address: a, social: s, notification: n } = input;
    return {
      firstName: input.firstName,
      lastName: input.lastName,
      dob: input.dob,
      genderCode: input.genderCode,
      phoneNumber: input.phoneNumber,
      addressLineOne: a.addressLineOne,
      addressLineTwo: a.addressLineTwo,
      countryCode: a.countryCode,
      stateCode: a.stateCode,
      cityCode: a.cityCode,
      postalCode: a.postalCode,
      linkedin: s.linkedin,
      twitter: s.twitter,
      facebook: s.facebook,
      instagram: s.instagram,
      websitePortfolioUrl: s.websitePortfolioUrl,
      notifyEmail: n.email,
      notifySms: n.sms,
      notifyPush: n.push,
      ...('userCode' in input ? { userCode: input.userCode } : {}),
    };
  },
  async afterWrite(code, _input, { tx, prepared: picture }) {
    if (!picture) return;
    await tx
      .insert(profilePictures)
      .values({ profileCode: code, ...picture })
      .onConflictDoUpdate({
        target: profilePictures.profileCode,
        set: { ...picture, version: sql`${profilePictures.version} + 1`, updatedAt: new Date() },
      });
  },
});
