import { z } from 'zod';
import { roleRecordSchema } from './resources/access.ts';
import { text, timestamps } from './resources/record-parts.ts';

/**
 * The session's timing as the server sees it when it answers, in milliseconds from that moment, so
 * that the browser can warn before the idle expiry whatever its clock says. The server writes a
 * session's last-seen time at most once per `touchIntervalMs`, so a request extends the idle
 * expiry to at least `idleMs - touchIntervalMs` after it.
 */
export const sessionTimingSchema = z.strictObject({
  idleMs: z.number().int().positive(),
  touchIntervalMs: z.number().int().nonnegative(),
  idleExpiresInMs: z.number().int(),
  absoluteExpiresInMs: z.number().int(),
});

/** The signed-in user: login and GetSession answers, with the session's timing (`session`). */
export const sessionUserSchema = z.strictObject({
  userCode: text,
  username: text,
  email: text,
  role: roleRecordSchema
    .omit({ version: true })
    .extend({ rolePermissions: z.array(z.strictObject({ permissionCode: text, permissionName: text })) })
    .nullable(),
  ...timestamps,
  /** Whether the user signs in with a second factor (see `role.requireMfa`). */
  mfaEnabled: z.boolean(),
  /** The employee linked to the user ("me" of the own and team scopes), or null. */
  employee: z.strictObject({ employeeCode: text, name: text, departmentCode: text }).nullable(),
  session: sessionTimingSchema.optional(),
});

export type SessionUser = z.output<typeof sessionUserSchema>;
export type SessionTiming = z.output<typeof sessionTimingSchema>;

z.globalRegistry.add(sessionUserSchema, { id: 'SessionUser' });
