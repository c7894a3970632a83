import { hiddenIn, type ProfileRecord, profileResource, profileUpdateSchema } from '@wfc/contract';
import type { FieldPath } from 'react-hook-form';
import { type ComparedField, compareFields, type FieldChange } from '../conflict/conflict';
import type { FormMode } from '../record/formValues';
import type { Option } from '../select/ResourceSelect';

/** Form state mirrors the request body's keys, so schema and server errors land on their fields. */
export interface ProfileValues {
  firstName: string;
  lastName: string;
  profilePicture: File | null;
  dob: string;
  genderCode: Option | null;
  phoneNumber: string;
  userCode: Option | null;
  address: {
    addressLineOne: string;
    addressLineTwo: string;
    countryCode: Option | null;
    stateCode: Option | null;
    cityCode: Option | null;
    postalCode: string;
  };
  social: {
    linkedin: string;
    twitter: string;
    facebook: string;
    instagram: string;
    websitePortfolioUrl: string;
  };
  notification: { email: boolean; sms: boolean; push: boolean };
}

export type ProfileField = FieldPath<ProfileValues>;

export const SOCIAL: { name: keyof ProfileValues['social']; label: string }[] = [
  { name: 'linkedin', label: 'LinkedIn' },
  { name: 'twitter', label: 'Twitter' },
  { name: 'facebook', label: 'Facebook' },
  { name: 'instagram', label: 'Instagram' },
  { name: 'websitePortfolioUrl', label: 'Website / Portfolio URL' },
];

export const NOTIFICATIONS: { name: keyof ProfileValues['notification']; label: string }[] = [
  { name: 'email', label: 'Email' },
  { name: 'sms', label: 'SMS' },
  { name: 'push', label: 'Push' },
];

/** Every field a server error may name, as dotted body keys. */
export const PROFILE_FIELDS: ProfileField[] = [
  'firstName',
  'lastName',
  'profilePicture',
  'dob',
  'genderCode',
  'phoneNumber',
  'userCode',
  'address.addressLineOne',
  'address.addressLineTwo',
  'address.countryCode',
  'address.stateCode',
  'address.cityCode',
  'address.postalCode',
  ...SOCIAL.map((s) => `social.${s.name}` as const),
  ...NOTIFICATIONS.map((n) => `notification.${n.name}` as const),
];

/** The id of a field's input: `profile-address-cityCode`, `profile-social-linkedin`. */
export const profileInputId = (name: ProfileField) => `profile-${name.replace('.', '-')}`;

const text = (v: string | null | undefined) => v ?? '';
const option = (value: string | undefined, label: string | undefined): Option | null =>
  value ? { value, label: label || value } : null;

export function initialProfileValues(record?: ProfileRecord, picture: File | null = null): ProfileValues {
  const a = record?.address;
  const s = record?.social;
  return {
    firstName: text(record?.firstName),
    lastName: text(record?.lastName),
    profilePicture: picture,
    dob: text(record?.dob),
    genderCode: option(record?.gender?.genderCode, record?.gender?.genderName),
    phoneNumber: text(record?.phoneNumber),
    userCode: option(record?.user?.userCode, record?.user?.username),
    address: {
      addressLineOne: text(a?.addressLineOne),
      addressLineTwo: text(a?.addressLineTwo),
      countryCode: option(a?.country?.countryCode, a?.country?.name),
      stateCode: option(a?.state?.stateCode, a?.state?.name),
      cityCode: option(a?.city?.cityCode, a?.city?.name),
      postalCode: text(a?.postalCode),
    },
    social: {
      linkedin: text(s?.linkedin),
      twitter: text(s?.twitter),
      facebook: text(s?.facebook),
      instagram: text(s?.instagram),
      websitePortfolioUrl: text(s?.websitePortfolioUrl),
    },
    notification: {
      email: record?.notification?.email ?? false,
      sms: record?.notification?.sms ?? false,
      push: record?.notification?.push ?? false,
    },
  };
}

/** A form field a profile's hidden record key stands for: a reference is sent by its code. */
export type HiddenProfileField = Exclude<keyof ProfileValues, 'firstName' | 'lastName' | 'userCode'>;

/**
 * The form fields of a profile that came without its personal details (need-to-know): a record
 * key is sent as its selector sends it (`gender` as `genderCode`), else under its own name. None
 * for a create form, which has no record yet.
 */
export function hiddenProfileFields(record: ProfileRecord | undefined): HiddenProfileField[] {
  if (!record) return [];
  return hiddenIn(profileResource, record).map((key) => {
    const selector = profileResource.formFields.find((f) => f.valuePath?.startsWith(`${key}.`));
    return (selector?.name.split('.')[0] ?? key) as HiddenProfileField;
  });
}

/**
 * The update schema without the fields the form does not show: they are neither asked for nor
 * sent, and the server keeps them as stored.
 */
export function shownUpdateSchema(hidden: readonly HiddenProfileField[]) {
  // The picture is a file beside the body, which the schema does not describe.
  const mask: { [K in Exclude<HiddenProfileField, 'profilePicture'>]?: true } = {};
  for (const key of hidden) if (key !== 'profilePicture') mask[key] = true;
  return profileUpdateSchema.omit(mask);
}

/** The multipart body of CreateProfile / UpdateProfile, bracket keys made by the API client. */
export function profileBody(
  values: ProfileValues,
  mode: FormMode,
  profileCode: string,
  pictureChanged: boolean,
  /** On update, the version the form stands on (optimistic concurrency). */
  version?: number,
  /** Fields the form does not show: left out rather than sent empty. */
  hidden: readonly HiddenProfileField[] = [],
): Record<string, unknown> {
  const body = fullProfileBody(values, mode, profileCode, pictureChanged, version);
  for (const key of hidden) delete body[key];
  return body;
}

function fullProfileBody(
  values: ProfileValues,
  mode: FormMode,
  profileCode: string,
  pictureChanged: boolean,
  version?: number,
): Record<string, unknown> {
  const bool = (b: boolean) => (b ? 'true' : 'false');
  const sendPicture = mode === 'create' || pictureChanged;
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    ...(sendPicture && values.profilePicture ? { profilePicture: values.profilePicture } : {}),
    phoneNumber: values.phoneNumber,
    genderCode: values.genderCode?.value ?? '',
    dob: values.dob,
    address: {
      addressLineOne: values.address.addressLineOne,
      addressLineTwo: values.address.addressLineTwo,
      countryCode: values.address.countryCode?.value ?? '',
      stateCode: values.address.stateCode?.value ?? '',
      cityCode: values.address.cityCode?.value ?? '',
      postalCode: values.address.postalCode,
    },
    social: { ...values.social },
    notification: {
      email: bool(values.notification.email),
      sms: bool(values.notification.sms),
      push: bool(values.notification.push),
    },
    ...(mode === 'create'
      ? { userCode: values.userCode?.value ?? '' }
      : { profileCode, isProfilePictureChanged: bool(pictureChanged), version }),
  };
}

/** The profile's fields as a conflict compares them, with the form's labels. */
export const PROFILE_COMPARED: ComparedField[] = [
  { name: 'profilePicture', label: 'Profile Picture' },
  { name: 'firstName', label: 'First Name' },
  { name: 'lastName', label: 'Last Name' },
  { name: 'dob', label: 'Date of Birth' },
  { name: 'genderCode', label: 'Gender' },
  { name: 'phoneNumber', label: 'Phone Number' },
  { name: 'userCode', label: 'User' },
  { name: 'address.addressLineOne', label: 'Address Line One' },
  { name: 'address.addressLineTwo', label: 'Address Line Two' },
  { name: 'address.countryCode', label: 'Country' },
  { name: 'address.stateCode', label: 'State' },
  { name: 'address.cityCode', label: 'City' },
  { name: 'address.postalCode', label: 'Postal Code' },
  ...SOCIAL.map((s) => ({ name: `social.${s.name}`, label: s.label })),
  ...NOTIFICATIONS.map((n) => ({ name: `notification.${n.name}`, label: `${n.label} notifications` })),
];

/** The compared fields but those hidden from the viewer: both sides lack them, which is no change. */
export const comparedShown = (hidden: readonly HiddenProfileField[]): ComparedField[] =>
  PROFILE_COMPARED.filter((f) => !hidden.includes(f.name.split('.')[0] as HiddenProfileField));

/** A saved picture as a conflict compares it: by its thumbnail (which names its version), shown by file name. */
const savedPicture = (record: ProfileRecord | null | undefined): Option | null =>
  record?.profilePicture
    ? { value: record.profilePicture.thumbnail, label: record.profilePicture.filename || 'A picture' }
    : null;

/**
 * A profile's form values as a conflict compares them: the picture stands for the saved one,
 * unless `newPicture` was chosen in the form.
 */
export function comparableProfile(
  values: ProfileValues,
  record: ProfileRecord | null | undefined,
  newPicture?: File | null,
): Record<string, unknown> {
  const picture = newPicture
    ? {
        value: `new:${newPicture.name}:${newPicture.size}:${newPicture.lastModified}`,
        label: `${newPicture.name} (new)`,
      }
    : savedPicture(record);
  return { ...values, profilePicture: picture };
}

/** What changed between the profile a stale delete was asked for and the profile as it now stands. */
export function profileChangesSince(row: ProfileRecord, theirs: ProfileRecord): FieldChange[] {
  const base = comparableProfile(initialProfileValues(row), row);
  const hidden = [...new Set([...hiddenProfileFields(row), ...hiddenProfileFields(theirs)])];
  return compareFields(
    comparedShown(hidden),
    base,
    comparableProfile(initialProfileValues(theirs), theirs),
    base,
  );
}
