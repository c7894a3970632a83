import { z } from 'zod';
import { codeRef, passwordRule } from './fields.ts';
import { text, timestamp } from './resources/record-parts.ts';
import { sessionUserSchema } from './session.ts';

/*
 * My account: a user's own password, sessions and second factor, the second step of a two-factor
 * sign-in, and what administrators do about another user's sessions and second factor.
 */

/** The password the user signs in with, to confirm a sensitive change: checked as received. */
export const currentPasswordField = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(200, 'Current password is too long');

/** A TOTP code as an authenticator app shows it (spaces allowed: some apps group the digits). */
export const totpCodeField = z
  .string({ error: 'Code is required' })
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

export const RECOVERY_CODE_COUNT = 10;

/** The 403 a session gets while its role requires a second factor the user has not set up. */
export const MFA_SETUP_REQUIRED_MESSAGE = 'Two-factor sign-in must be set up';

/** A recovery code as shown (`XXXXX-XXXXX`); case, spaces and dashes do not matter. */
export const recoveryCodeField = z
  .string({ error: 'Recovery code is required' })
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-Z]{10}$/, 'A recovery code has 10 letters and digits'));

export const changeMyPasswordSchema = z.object({
  currentPassword: currentPasswordField,
  newPassword: passwordRule,
});

export const endMySessionSchema = z.object({ sessionCode: codeRef('Session code') });

export const userCodeSchema = z.object({ userCode: codeRef('User code') });

export const startMfaEnrollmentSchema = z.object({ currentPassword: currentPasswordField });
export const confirmMfaEnrollmentSchema = z.object({ code: totpCodeField });
export const disableMfaSchema = z.object({ currentPassword: currentPasswordField, code: totpCodeField });

/** The second step of a sign-in: a code from the app, or one of the recovery codes. */
export const verifyMfaSchema = z
  .object({ code: totpCodeField.optional(), recoveryCode: recoveryCodeField.optional() })
  .refine((b) => b.code !== undefined || b.recoveryCode !== undefined, {
    message: 'Enter the 6-digit code or a recovery code',
    path: ['code'],
  });

/** A session as its own user sees it: never its id nor the id's hash. */
export const mySessionRecordSchema = z.strictObject({
  sessionCode: text,
  createdAt: timestamp,
  lastSeenAt: timestamp,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
});

/**
 * Another user's session as a user manager sees it: where it signed in from and with what browser
 * is personal data (docs/privacy.md), absent for a manager who does not hold VIEW_PERSONAL_DATA.
 */
export const userSessionRecordSchema = mySessionRecordSchema.extend({
  ipAddress: z.string().nullable().optional(),
  userAgent: z.string().nullable().optional(),
});

export const mfaEnrollmentSchema = z.strictObject({
  /** Base-32, for typing into an authenticator app. */
  secret: text,
  /** `otpauth://totp/...`, which the page shows as a QR code. */
  otpauthUrl: text,
});

export const recoveryCodesSchema = z.strictObject({ recoveryCodes: z.array(text) });

/** The login answer when the password was right and a second factor is awaited: no session yet. */
export const mfaRequiredSchema = z.strictObject({ mfaRequired: z.literal(true) });

/** The login answer: the signed-in user, or word that a second factor is awaited. */
export const loginAnswerSchema = z.union([sessionUserSchema, mfaRequiredSchema]);

/** What the sign-in page offers besides the password: single sign-on when configured. */
export const signInOptionsSchema = z.strictObject({
  sso: z.strictObject({ label: text, loginUrl: text }).nullable(),
});

export type ChangeMyPasswordInput = z.input<typeof changeMyPasswordSchema>;
export type MySessionRecord = z.output<typeof mySessionRecordSchema>;
export type MfaEnrollment = z.output<typeof mfaEnrollmentSchema>;
export type LoginAnswer = z.output<typeof loginAnswerSchema>;
export type SignInOptions = z.output<typeof signInOptionsSchema>;

z.globalRegistry.add(mySessionRecordSchema, { id: 'MySessionRecord' });
z.globalRegistry.add(mfaEnrollmentSchema, { id: 'MfaEnrollment' });
z.globalRegistry.add(recoveryCodesSchema, { id: 'RecoveryCodes' });
z.globalRegistry.add(mfaRequiredSchema, { id: 'MfaRequired' });
z.globalRegistry.add(loginAnswerSchema, { id: 'LoginAnswer' });
z.globalRegistry.add(signInOptionsSchema, { id: 'SignInOptions' });

/**
 * Whether a first single sign-on may link a provider account to a console user by its name:
 * `role` decides by the user's role at that moment (not for a role that manages access).
 */
export const SSO_LINKING = ['role', 'allowed', 'refused'] as const;
export type SsoLinking = (typeof SSO_LINKING)[number];

/** A provider account linked to a console user, as a user manager sees it. */
export const ssoIdentityRecordSchema = z.strictObject({
  issuer: text,
  subject: text,
  /** The provider's name for the account when it was last used. */
  providerUsername: z.string().nullable(),
  linkedAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});

/** A user's single sign-on: the linking rule, what it means for them now, and their linked accounts. */
export const userSsoSchema = z.strictObject({
  linking: z.enum(SSO_LINKING),
  /** Whether their next first single sign-on may link an account by name, as the rule stands today. */
  linkingAllowedNow: z.boolean(),
  identities: z.array(ssoIdentityRecordSchema),
});

const subjectField = z
  .string({ error: 'Subject is required' })
  .trim()
  .min(1, 'Subject is required')
  .max(255, 'Subject is at most 255 characters');

export const linkSsoIdentitySchema = z.object({ userCode: codeRef('User code'), subject: subjectField });
export const unlinkSsoIdentitySchema = z.object({
  userCode: codeRef('User code'),
  issuer: z.string({ error: 'Issuer is required' }).min(1, 'Issuer is required').max(2000),
  subject: subjectField,
});
export const setSsoLinkingSchema = z.object({
  userCode: codeRef('User code'),
  linking: z.enum(SSO_LINKING, { error: 'Choose role, allowed or refused' }),
});

export type SsoIdentityRecord = z.output<typeof ssoIdentityRecordSchema>;
export type UserSso = z.output<typeof userSsoSchema>;
