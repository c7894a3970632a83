import { z } from 'zod';

/*
 * A person's access request (docs/privacy.md): everything the console holds about them, as one
 * ZIP of a machine-readable JSON, a readable summary and their picture files.
 */

const code = (label: string) =>
  z.string().trim().min(1, `${label} is required`).max(64, `${label} is not a valid code`).optional();

/**
 * Whose data, by the code of any record about them that has personal fields (`personal` in its
 * definition): a user, their profile, or an employee (a person without a user is their employee
 * record alone). The view of each such record offers the export with its own code.
 */
export const exportPersonalDataSchema = z
  .strictObject({
    userCode: code('User code'),
    profileCode: code('Profile code'),
    employeeCode: code('Employee code'),
  })
  .refine((b) => [b.userCode, b.profileCode, b.employeeCode].filter((c) => c !== undefined).length === 1, {
    message: 'Give one of userCode, profileCode or employeeCode',
  });

export type ExportPersonalDataBody = z.output<typeof exportPersonalDataSchema>;

/**
 * An erasure: whom (as for an export) and the actor's own password again. The screen also asks for
 * the person's name to be typed; the password is what the server checks.
 */
export const erasePersonalDataSchema = z
  .strictObject({
    userCode: code('User code'),
    profileCode: code('Profile code'),
    employeeCode: code('Employee code'),
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(1024),
  })
  .refine((b) => [b.userCode, b.profileCode, b.employeeCode].filter((c) => c !== undefined).length === 1, {
    message: 'Give one of userCode, profileCode or employeeCode',
  });

export type ErasePersonalDataBody = z.output<typeof erasePersonalDataSchema>;

/** What an erased value reads as in the audit log: the entry stays, the value does not. */
export const ERASED = '[erased]';

/** The name an employee record kept for team statistics carries after its person is erased. */
export const erasedEmployeeName = (n: number) => `Erased employee ${n}`;

export const ERASURE_MESSAGES = {
  done: 'Personal data erased',
  onlyAdministrator: 'This person is the only user who can manage roles: give that to someone else first',
  notYourself: 'You cannot erase your own personal data: ask another administrator',
} as const;

/** The files of the ZIP: the data, the summary, and each picture under this folder. */
export const PERSONAL_DATA_FILES = {
  data: 'personal-data.json',
  summary: 'summary.html',
  pictures: 'pictures/',
} as const;

/** `personal-data-USER-3F2A-2026-11-27.zip`: whose and when, for the person's own records. */
export const personalDataFileName = (personCode: string, day: string) =>
  `personal-data-${personCode}-${day}.zip`;
