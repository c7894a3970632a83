import { employeeResource, PROFILE_PICTURE_REQUIRED, profileResource } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import {
  cities,
  countries,
  departments,
  employees,
  genders,
  performances,
  profilePictures,
  profiles,
  states,
  users,
} from '../../db/schema/index.ts';
import { badRequest } from '../../http/envelope.ts';
import { type ProcessedPicture, processPicture, thumbnailUrl } from '../pictures.ts';
import type { ServerResource } from '../server-resource.ts';

export const employees$: ServerResource = {
  def: employeeResource,
  table: employees,
  idColumn: employees.id,
  codeColumn: employees.employeeCode,
  updatedAtColumn: employees.updatedAt,
  shape: {
    employeeCode: employees.employeeCode,
    employeeId: employees.employeeId,
    name: employees.name,
    department: { departmentCode: departments.departmentCode, name: departments.name },
    joinDate: employees.joinDate,
    user: { userCode: users.userCode, username: users.username },
    createdAt: employees.createdAt,
    updatedAt: employees.updatedAt,
  },
  joins: [
    { table: departments, on: eq(departments.departmentCode, employees.departmentCode) },
    { table: users, on: eq(users.userCode, employees.userCode), optional: true },
  ],
  search: ['employeeId', 'name', 'department.name', 'user.username'],
  refs: [
    { field: 'departmentCode', column: departments.departmentCode, label: 'Department' },
    { field: 'userCode', column: users.userCode, label: 'User' },
  ],
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
  subLists: [
    {
      endpoint: 'GetEmployeesByDepartmentCode',
      param: 'departmentCode',
      parent: { column: departments.departmentCode, notFound: 'Department not found' },
      where: (code) => eq(employees.departmentCode, code),
    },
  ],
  getters: [{ endpoint: 'GetEmployeeByUserCode', param: 'userCode', column: employees.userCode }],
};

type Obj = Record<string, unknown>;

export const profiles$: ServerResource = {
  def: profileResource,
  table: profiles,
  idColumn: profiles.id,
  codeColumn: profiles.profileCode,
  updatedAtColumn: profiles.updatedAt,
  multipart: true,
  shape: {
    profileCode: profiles.profileCode,
    firstName: profiles.firstName,
    lastName: profiles.lastName,
    picture: {
      filename: profilePictures.filename,
      extension: profilePictures.extension,
      version: profilePictures.version,
    },
    dob: profiles.dob,
    gender: { genderCode: genders.genderCode, genderName: genders.genderName },
    phoneNumber: profiles.phoneNumber,
    addressLineOne: profiles.addressLineOne,
    addressLineTwo: profiles.addressLineTwo,
    country: { countryCode: countries.countryCode, name: countries.name },
    state: { stateCode: states.stateCode, name: states.name },
    city: { cityCode: cities.cityCode, name: cities.name },
    postalCode: profiles.postalCode,
    linkedin: profiles.linkedin,
    twitter: profiles.twitter,
    facebook: profiles.facebook,
    instagram: profiles.instagram,
    websitePortfolioUrl: profiles.websitePortfolioUrl,
    notifyEmail: profiles.notifyEmail,
    notifySms: profiles.notifySms,
    notifyPush: profiles.notifyPush,
    user: { userCode: users.userCode, username: users.username },
    createdAt: profiles.createdAt,
    updatedAt: profiles.updatedAt,
  },
  joins: [
    { table: genders, on: eq(genders.genderCode, profiles.genderCode) },
    { table: users, on: eq(users.userCode, profiles.userCode) },
    { table: countries, on: eq(countries.countryCode, profiles.countryCode), optional: true },
    { table: states, on: eq(states.stateCode, profiles.stateCode), optional: true },
    { table: cities, on: eq(cities.cityCode, profiles.cityCode), optional: true },
    { table: profilePictures, on: eq(profilePictures.profileCode, profiles.profileCode), optional: true },
  ],
  search: ['firstName', 'lastName', 'phoneNumber', 'gender.genderName', 'user.username'],
  refs: [
    { field: 'genderCode', column: genders.genderCode, label: 'Gender' },
    { field: 'userCode', column: users.userCode, label: 'User' },
  ],
  unique: [
    { constraint: 'profiles_user_unique', field: 'userCode', message: 'This user already has a profile' },
  ],
  getters: [{ endpoint: 'GetProfileByUserCode', param: 'userCode', column: profiles.userCode }],
  /** SPEC.md section 3 nests address, social, notification and the picture; the query gives them flat. */
  present(r) {
    const picture = r.picture as Obj | null;
    return {
      profileCode: r.profileCode,
      firstName: r.firstName,
      lastName: r.lastName,
      profilePicture: picture
        ? {
            thumbnail: thumbnailUrl(r.profileCode as string, picture.version as number),
            filename: picture.filename,
            extension: picture.extension,
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
    };
  },
  /** A create always brings a picture; an update only when it says the picture changed. */
  async prepare(input, upload, mode) {
    if (mode === 'update' && input.isProfilePictureChanged !== true) return undefined;
    if (!upload)
      throw badRequest(PROFILE_PICTURE_REQUIRED, [
        { field: 'profilePicture', message: PROFILE_PICTURE_REQUIRED },
      ]);
    return processPicture(upload);
  },
  async validate(input, { tx }) {
    const address = input.address as Obj;
    const errors: { field: string; message: string }[] = [];
    const check = async (field: string, value: unknown, ok: () => Promise<unknown[]>, message: string) => {
      if (value && (await ok()).length === 0) errors.push({ field, message });
    };
    await check(
      'address.countryCode',
      address.countryCode,
      () =>
        tx
          .select({ c: countries.countryCode })
          .from(countries)
          .where(eq(countries.countryCode, address.countryCode as string)),
      'Country not found',
    );
    await check(
      'address.stateCode',
      address.stateCode,
      () =>
        tx
          .select({ c: states.stateCode })
          .from(states)
          .where(eq(states.stateCode, address.stateCode as string))
          .then((rows) => (address.countryCode ? rows : [])),
      'State not found in the chosen country',
    );
    await check(
      'address.cityCode',
      address.cityCode,
      () =>
        tx
          .select({ s: cities.stateCode })
          .from(cities)
          .where(eq(cities.cityCode, address.cityCode as string))
          .then((rows) => rows.filter((r) => r.s === address.stateCode)),
      'City not found in the chosen state',
    );
    if (address.stateCode && address.countryCode) {
      const [st] = await tx
        .select({ c: states.countryCode })
        .from(states)
        .where(eq(states.stateCode, address.stateCode as string));
      if (st && st.c !== address.countryCode)
        errors.push({ field: 'address.stateCode', message: 'State not found in the chosen country' });
    }
    if (errors.length) throw badRequest('Invalid input', errors);
  },
  async toRow(input) {
    const a = input.address as Obj;
    const s = input.social as Obj;
    const n = input.notification as Obj;
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
      ...(input.userCode ? { userCode: input.userCode } : {}),
    };
  },
  async afterWrite(code, _input, { tx, prepared }) {
    if (!prepared) return;
    const picture = prepared as ProcessedPicture;
    await tx
      .insert(profilePictures)
      .values({ profileCode: code, ...picture })
      .onConflictDoUpdate({
        target: profilePictures.profileCode,
        set: { ...picture, version: sql`${profilePictures.version} + 1`, updatedAt: new Date() },
      });
  },
};
