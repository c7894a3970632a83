import { dictionary } from '@zxcvbn-ts/language-common';

/*
 * In the lowest layer because the configuration applies it too (ADMIN_PASSWORD), besides every
 * route that sets a password.
 */

/** ASVS 6.2.4: the answer on every path that sets a password, and the field error it carries. */
export const COMMON_PASSWORD_MESSAGE = 'This password is too common';

let common: Set<string> | undefined;

/**
 * Whether a password is on zxcvbn-ts's list of about 49,000 common and breached passwords, shipped
 * with the package: nothing leaves the machine. The list is lower case, so the check ignores case.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}
