import { z } from 'zod';
import {
  codeRef,
  formBoolean,
  isoDate,
  optionalCodeRef,
  optionalText,
  optionalUrl,
  requiredText,
} from '../fields.ts';
import { userResource } from './access.ts';
import {
  cascadeFrom,
  defineResource,
  type FormFieldDef,
  type ResourceDef,
  selectField,
  TIMESTAMP_COLUMNS,
} from './define.ts';
import { cityResource, countryResource, stateResource } from './geography.ts';
import { nullableText, referenceSchema, text, versioned, versionedNotPersonal } from './record-parts.ts';
import { departmentResource, genderResource } from './reference.ts';

export const employeeRecordSchema = z.strictObject({
  employeeCode: text,
  employeeId: text,
  name: text,
  department: referenceSchema('departmentCode', 'name'),
  joinDate: z.iso.date(),
  user: referenceSchema('userCode', 'username').nullable(),
  ...versioned,
});

export const profileRecordSchema = z.strictObject({
  profileCode: text,
  firstName: text,
  lastName: text,
  profilePicture: z.strictObject({ thumbnail: text, filename: text, extension: text }).nullable(),
  dob: z.iso.date(),
  gender: referenceSchema('genderCode', 'genderName'),
  phoneNumber: nullableText,
  address: z.strictObject({
    addressLineOne: nullableText,
    addressLineTwo: nullableText,
    country: referenceSchema('countryCode', 'name').nullable(),
    state: referenceSchema('stateCode', 'name').nullable(),
    city: referenceSchema('cityCode', 'name').nullable(),
    postalCode: nullableText,
  }),
  social: z.strictObject({
    linkedin: nullableText,
    twitter: nullableText,
    facebook: nullableText,
    instagram: nullableText,
    websitePortfolioUrl: nullableText,
  }),
  notification: z.strictObject({ email: z.boolean(), sms: z.boolean(), push: z.boolean() }),
  user: referenceSchema('userCode', 'username'),
  ...versioned,
});

export type ProfileRecord = z.output<typeof profileRecordSchema>;

const employeeFields = {
  employeeId: z
    .string({ error: 'Employee Id is required' })
    .trim()
    .min(1, 'Employee Id is required')
    .max(50, 'Employee Id must be at most 50 characters'),
  name: requiredText('Name', 150),
  departmentCode: codeRef('Department'),
  joinDate: isoDate('Join date'),
  userCode: optionalCodeRef('User'),
};
export const employeeCreateSchema = z.object(employeeFields);
export const employeeUpdateSchema = z.object({ employeeCode: codeRef('Employee code'), ...employeeFields });

export const employeeResource = defineResource({
  key: 'employee',
  import: { key: ['employeeId'] },
  recordSchema: employeeRecordSchema,
  label: 'Employee',
  plural: 'Employees',
  listedBy: [{ parent: 'department', screen: false }],
  prefix: 'EMP-',
  nameField: 'name',
  createSchema: employeeCreateSchema,
  updateSchema: employeeUpdateSchema,
  columns: [
    { path: 'employeeId', label: 'Employee Id', sortable: true },
    { path: 'name', label: 'Name', sortable: true },
    { path: 'department.name', label: 'Department', sortable: true },
    { path: 'joinDate', label: 'Join Date', sortable: true, format: 'date' },
    { path: 'user.username', label: 'User', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  filters: [
    {
      param: 'departmentCode',
      label: 'Department',
      path: 'department.departmentCode',
      match: 'equals',
      source: 'department',
    },
    { param: 'joinedFrom', label: 'Joined from', path: 'joinDate', match: 'from' },
    { param: 'joinedTo', label: 'Joined to', path: 'joinDate', match: 'to' },
  ],
  formFields: [
    { name: 'employeeId', label: 'Employee Id', kind: 'text' },
    { name: 'name', label: 'Name', kind: 'text' },
    selectField(departmentResource),
    { name: 'joinDate', label: 'Join Date', kind: 'date' },
    selectField(userResource),
  ],
  bulkChange: ['departmentCode'],
  personal: {
    owner: 'user.userCode',
    fields: {
      employeeCode: false,
      employeeId: 'name',
      name: 'name',
      department: false,
      joinDate: 'detail',
      user: false,
      ...versionedNotPersonal,
    },
  },
});

/** A selector of the profile's address, which nests its references under `address`. */
const addressSelect = (source: ResourceDef, more: Partial<FormFieldDef> = {}) =>
  selectField(source, {
    name: `address.${source.code}`,
    valuePath: `address.${source.key}.${source.code}`,
    labelPath: `address.${source.key}.${source.nameField}`,
    ...more,
  });

export const PROFILE_PICTURE_TYPES = ['jpg', 'jpeg', 'png', 'webp'] as const;
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
/** Said by the server and by the drop zone alike: in the extensions people see, not MIME types. */
export const PICTURE_TYPE_MESSAGE = 'File type must be jpg, jpeg, png or webp';
export const PICTURE_SIZE_MESSAGE = 'File is larger than 5 MB';
export const PROFILE_PICTURE_MAX_PIXELS = 40_000_000;
export const PROFILE_PICTURE_REQUIRED = 'Profile picture is required';

const profileFields = {
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  phoneNumber: optionalText('Phone number', 30).refine(
    (v) => v === null || /^\+?[0-9 ()-]{4,30}$/.test(v),
    'Phone number may hold digits, spaces, brackets, dashes and a leading +',
  ),
  genderCode: codeRef('Gender'),
  dob: isoDate('Date of birth'),
  address: z
    .object({
      addressLineOne: optionalText('Address line one', 200),
      addressLineTwo: optionalText('Address line two', 200),
      countryCode: optionalCodeRef('Country'),
      stateCode: optionalCodeRef('State'),
      cityCode: optionalCodeRef('City'),
      postalCode: optionalText('Postal code', 20),
    })
    .optional()
    .transform(
      (a) =>
        a ?? {
          addressLineOne: null,
          addressLineTwo: null,
          countryCode: null,
          stateCode: null,
          cityCode: null,
          postalCode: null,
        },
    ),
  social: z
    .object({
      linkedin: optionalUrl('LinkedIn'),
      twitter: optionalUrl('Twitter'),
      facebook: optionalUrl('Facebook'),
      instagram: optionalUrl('Instagram'),
      websitePortfolioUrl: optionalUrl('Website / portfolio'),
    })
    .optional()
    .transform(
      (s) =>
        s ?? { linkedin: null, twitter: null, facebook: null, instagram: null, websitePortfolioUrl: null },
    ),
  notification: z
    .object({ email: formBoolean, sms: formBoolean, push: formBoolean })
    .optional()
    .transform((n) => n ?? { email: false, sms: false, push: false }),
};
export const profileCreateSchema = z.object({ ...profileFields, userCode: codeRef('User') });
export const profileUpdateSchema = z.object({
  ...profileFields,
  profileCode: codeRef('Profile code'),
  isProfilePictureChanged: formBoolean,
});

/**
 * The fields of their own profile a person may change on My profile, where their role holds
 * UPDATE_PROFILE for `own` records only (docs/product.md section 6): the company's choice, made
 * here alone. The server refuses an own-scope update that changes any other field.
 */
export const SELF_SERVICE_PROFILE_FIELDS = [
  'phoneNumber',
  'address',
  'social',
  'notification',
  'profilePicture',
] as const satisfies readonly (keyof typeof profileFields | 'profilePicture')[];

/** The fields of a profile update body that My profile shows read-only. */
export const SELF_SERVICE_READ_ONLY_FIELDS = [
  'firstName',
  'lastName',
  'dob',
  'genderCode',
] as const satisfies readonly Exclude<
  keyof typeof profileFields,
  (typeof SELF_SERVICE_PROFILE_FIELDS)[number]
>[];

export const profileResource = defineResource({
  key: 'profile',
  // A person has one profile: a file names it by its user. The form lays these fields out by hand.
  import: {
    key: ['userCode'],
    fields: [
      { name: 'firstName', label: 'First Name', kind: 'text' },
      { name: 'lastName', label: 'Last Name', kind: 'text' },
      { name: 'dob', label: 'Date of Birth', kind: 'date' },
      { name: 'phoneNumber', label: 'Phone Number', kind: 'text' },
      { name: 'address.addressLineOne', label: 'Address Line One', kind: 'text' },
      { name: 'address.addressLineTwo', label: 'Address Line Two', kind: 'text' },
      { name: 'address.postalCode', label: 'Postal Code', kind: 'text' },
      { name: 'social.linkedin', label: 'LinkedIn', kind: 'text' },
      { name: 'social.twitter', label: 'Twitter', kind: 'text' },
      { name: 'social.facebook', label: 'Facebook', kind: 'text' },
      { name: 'social.instagram', label: 'Instagram', kind: 'text' },
      { name: 'social.websitePortfolioUrl', label: 'Website / Portfolio', kind: 'text' },
      { name: 'notification.email', label: 'Email Notifications', kind: 'switch' },
      { name: 'notification.sms', label: 'SMS Notifications', kind: 'switch' },
      { name: 'notification.push', label: 'Push Notifications', kind: 'switch' },
    ],
  },
  recordSchema: profileRecordSchema,
  label: 'Profile',
  plural: 'Profiles',
  nameField: 'firstName',
  createSchema: profileCreateSchema,
  updateSchema: profileUpdateSchema,
  columns: [
    { path: 'firstName', label: 'First Name', sortable: true },
    { path: 'lastName', label: 'Last Name', sortable: true },
    { path: 'gender.genderName', label: 'Gender', sortable: true },
    { path: 'phoneNumber', label: 'Phone Number', sortable: true },
    { path: 'user.username', label: 'User', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  filters: [
    { param: 'genderCode', label: 'Gender', path: 'gender.genderCode', match: 'equals', source: 'gender' },
  ],
  moreSortFields: ['dob'],
  // Everything an import reads back, so that an exported file holds the whole profile but its picture.
  exportColumns: [
    { path: 'firstName', label: 'First Name' },
    { path: 'lastName', label: 'Last Name' },
    { path: 'gender.genderName', label: 'Gender' },
    { path: 'dob', label: 'Date of Birth' },
    { path: 'phoneNumber', label: 'Phone Number' },
    { path: 'user.username', label: 'User' },
    { path: 'address.addressLineOne', label: 'Address Line One' },
    { path: 'address.addressLineTwo', label: 'Address Line Two' },
    { path: 'address.country.name', label: 'Country' },
    { path: 'address.state.name', label: 'State' },
    { path: 'address.city.name', label: 'City' },
    { path: 'address.postalCode', label: 'Postal Code' },
    { path: 'social.linkedin', label: 'LinkedIn' },
    { path: 'social.twitter', label: 'Twitter' },
    { path: 'social.facebook', label: 'Facebook' },
    { path: 'social.instagram', label: 'Instagram' },
    { path: 'social.websitePortfolioUrl', label: 'Website / Portfolio' },
    { path: 'notification.email', label: 'Email Notifications' },
    { path: 'notification.sms', label: 'SMS Notifications' },
    { path: 'notification.push', label: 'Push Notifications' },
    ...TIMESTAMP_COLUMNS,
  ],
  // The profile form is laid out by hand (picture, nested address); its selectors are declared
  // here so that their lookups and cascades follow from the definition like every other form's.
  formFields: [
    selectField(genderResource),
    selectField(userResource, { modes: ['create'] }),
    addressSelect(countryResource),
    addressSelect(stateResource, { dependsOn: cascadeFrom(stateResource, 'country', 'address.countryCode') }),
    addressSelect(cityResource, { dependsOn: cascadeFrom(cityResource, 'state', 'address.stateCode') }),
  ],
  personal: {
    owner: 'user.userCode',
    fields: {
      profileCode: false,
      firstName: 'name',
      lastName: 'name',
      profilePicture: 'detail',
      dob: 'detail',
      gender: 'detail',
      phoneNumber: 'detail',
      address: 'detail',
      social: 'detail',
      notification: 'detail',
      user: false,
      ...versionedNotPersonal,
    },
  },
});
