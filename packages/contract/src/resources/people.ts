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
import { defineResource, TIMESTAMP_COLUMNS } from './define.ts';

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
  label: 'Employee',
  plural: 'Employees',
  listSegment: 'employees',
  itemSegment: 'employee',
  code: 'employeeCode',
  prefix: 'EMP-',
  nameField: 'name',
  permissions: {
    view: 'VIEW_EMPLOYEES',
    create: 'CREATE_EMPLOYEE',
    update: 'UPDATE_EMPLOYEE',
    delete: 'DELETE_EMPLOYEE',
  },
  endpoints: {
    list: 'GetEmployees',
    get: 'GetEmployeeByCode',
    create: 'CreateEmployee',
    update: 'UpdateEmployee',
    delete: 'DeleteEmployee',
  },
  createSchema: employeeCreateSchema,
  updateSchema: employeeUpdateSchema,
  sortFields: [
    'employeeId',
    'name',
    'department.name',
    'joinDate',
    'user.username',
    'createdAt',
    'updatedAt',
  ],
  columns: [
    { path: 'employeeId', label: 'Employee Id', sortField: 'employeeId' },
    { path: 'name', label: 'Name', sortField: 'name' },
    { path: 'department.name', label: 'Department', sortField: 'department.name' },
    { path: 'joinDate', label: 'Join Date', sortField: 'joinDate', format: 'date' },
    { path: 'user.username', label: 'User', sortField: 'user.username' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'employeeId', label: 'Employee Id', kind: 'text' },
    { name: 'name', label: 'Name', kind: 'text' },
    {
      name: 'departmentCode',
      label: 'Department',
      kind: 'select',
      source: 'department',
      valuePath: 'department.departmentCode',
      labelPath: 'department.name',
    },
    { name: 'joinDate', label: 'Join Date', kind: 'date' },
    {
      name: 'userCode',
      label: 'User',
      kind: 'select',
      source: 'user',
      valuePath: 'user.userCode',
      labelPath: 'user.username',
    },
  ],
});

export const PROFILE_PICTURE_TYPES = ['jpg', 'jpeg', 'png', 'webp'] as const;
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
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

export const profileResource = defineResource({
  key: 'profile',
  label: 'Profile',
  plural: 'Profiles',
  listSegment: 'profiles',
  itemSegment: 'profile',
  code: 'profileCode',
  prefix: 'PROFILE-',
  nameField: 'firstName',
  permissions: {
    view: 'VIEW_PROFILES',
    create: 'CREATE_PROFILE',
    update: 'UPDATE_PROFILE',
    delete: 'DELETE_PROFILE',
  },
  endpoints: {
    list: 'GetProfiles',
    get: 'GetProfileByCode',
    create: 'CreateProfile',
    update: 'UpdateProfile',
    delete: 'DeleteProfile',
  },
  createSchema: profileCreateSchema,
  updateSchema: profileUpdateSchema,
  sortFields: [
    'firstName',
    'lastName',
    'phoneNumber',
    'dob',
    'gender.genderName',
    'user.username',
    'createdAt',
    'updatedAt',
  ],
  columns: [
    { path: 'firstName', label: 'First Name', sortField: 'firstName' },
    { path: 'lastName', label: 'Last Name', sortField: 'lastName' },
    { path: 'gender.genderName', label: 'Gender', sortField: 'gender.genderName' },
    { path: 'phoneNumber', label: 'Phone Number', sortField: 'phoneNumber' },
    { path: 'user.username', label: 'User', sortField: 'user.username' },
    ...TIMESTAMP_COLUMNS,
  ],
  // The profile form is custom (picture, cascading address); these drive validation messages only.
  formFields: [],
});
