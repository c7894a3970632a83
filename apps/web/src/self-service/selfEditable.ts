import { SELF_SERVICE_PROFILE_FIELDS } from '@wfc/contract';

export type SelfEditableField = (typeof SELF_SERVICE_PROFILE_FIELDS)[number];

/** How My profile names each field a person may change (the list itself is the contract's). */
const NAMES: Record<SelfEditableField, string> = {
  phoneNumber: 'phone number',
  address: 'address',
  social: 'social links',
  notification: 'notification settings',
  profilePicture: 'picture',
};

/** Pure: 'a, b and c'. */
const listed = (words: readonly string[]) =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** 'You can change your phone number, ... and picture; ...': said on the view and on the form. */
export const SELF_EDITABLE_TEXT = `You can change your ${listed(
  SELF_SERVICE_PROFILE_FIELDS.map((f) => NAMES[f]),
)}. Everything else is kept by HR: ask them to correct it.`;

export const isSelfEditable = (field: SelfEditableField) => SELF_SERVICE_PROFILE_FIELDS.includes(field);
