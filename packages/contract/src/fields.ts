import { z } from 'zod';

/** Shared field rules: the server enforces them and the client shows the same messages inline. */

export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Optional text: forms send '' for a missing value; stored as null. */
export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));

/** A reference to another record, by its code. */
export const codeRef = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(64, `${label} is not a valid code`);

export const optionalCodeRef = (label: string) =>
  z
    .string()
    .trim()
    .max(64, `${label} is not a valid code`)
    .optional()
    .transform((v) => (v ? v : null));

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Email must be a valid email address'));

export const PASSWORD_HELP =
  'At least 12 characters, with at least 1 lowercase letter and 1 number; optionally 1 uppercase letter or a special character.';

export const passwordRule = z
  .string({ error: 'Password is required' })
  .min(12, 'Password must be at least 12 characters')
  .max(128, 'Password must be at most 128 characters')
  .regex(/[a-z]/, 'Password must contain a lowercase letter')
  .regex(/[0-9]/, 'Password must contain a number');

/** YYYY-MM-DD that is a real calendar date. */
export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    // Forms send an empty date as ''; like any other required field it is said to be required.
    .min(1, { error: `${label} is required`, abort: true })
    // A value that is no date at all gets one message, not also 'must be a real date'.
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, `${label} must be a real date`);

export const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(300, `${label} must be at most 300 characters`)
    .optional()
    .refine(
      (v) => !v || /^https?:\/\/[^\s]+$/i.test(v),
      `${label} must be a web address starting with http:// or https://`,
    )
    .transform((v) => (v ? v : null));

/** Form bodies carry booleans as the strings 'true' / 'false'. */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on');

/**
 * A switch an update may leave out: absent keeps what the record has (API clients written before
 * the switch existed), so it is `undefined` rather than false.
 */
export const optionalSwitch = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', ''])])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === true || v === 'true' || v === 'on'));

/** Forms send an empty list as nothing at all; a single value may arrive as a string. */
export const codeList = (label: string, max = 500) =>
  z
    .union([z.array(z.string()), z.string()])
    // An absent key is only optional in an object when the schema itself is `.optional()`.
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : v === '' ? [] : [v]))
    .pipe(z.array(z.string().trim().min(1).max(64)).max(max, `${label} may hold at most ${max} entries`));

export const VERSION_MESSAGE = 'Version must be a whole number of at least 1';

/**
 * The version of a record as the writer read it (optimistic concurrency). Optional: a call that
 * does not name one is not checked, so API clients written before versions keep working. Forms
 * send numbers as text; an empty value counts as none.
 */
export const recordVersion = z
  .union([z.number(), z.string().trim()])
  .optional()
  .transform((v) => (v === '' || v === undefined ? undefined : Number(v)))
  .pipe(z.number({ error: VERSION_MESSAGE }).int(VERSION_MESSAGE).min(1, VERSION_MESSAGE).optional());
