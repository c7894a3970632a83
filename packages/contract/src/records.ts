import { z } from 'zod';

/*
 * The records the API answers with (docs/product.md section 4), as schemas: the types below are
 * inferred from them, the OpenAPI description is drawn from them, and the API tests parse every
 * answer with them strictly, so the server's shapes and these cannot drift apart. Dates are ISO
 * strings; a record names another one it refers to by `{code, name}`.
 */

const text = z.string();
const optionalText = z.string().nullable();
const timestamp = z.iso.datetime({ offset: true });
const timestamps = { createdAt: timestamp, updatedAt: timestamp };
/** What every editable record carries: its times and its version (1, then one more per update). */
const versioned = { ...timestamps, version: z.number().int().min(1) };

/**
 * How a record names another one: `{departmentCode, name}`. The keys are the referenced
 * resource's code and name fields, so the two literal arguments give the schema its exact type.
 * A list asked with `populate=false` sends the code alone.
 */
export function referenceSchema<C extends string, N extends string>(code: C, name: N) {
  const shape: Record<string, z.ZodType> = {
    [code]: z.string(),
    [name]: z.string().optional().meta({ description: 'Absent when the list was asked with populate=false' }),
  };
  // A computed key widens to `string` in TypeScript; the two keys are exactly C and N.
  return z.strictObject(shape as { [K in C]: z.ZodString } & { [K in N]: z.ZodOptional<z.ZodString> });
}

/** What a list sends a caller who may only pick from it (a form's selector): code and name. */
export const lookupSchema = (code: string, name: string) =>
  z.strictObject({ [code]: z.string(), [name]: z.string() });

export const permissionRefSchema = referenceSchema('permissionCode', 'permissionName');

export const permissionRecordSchema = z.strictObject({
  permissionCode: text,
  permissionName: text,
  permissionDescription: text,
  createdAt: timestamp,
});

export const roleRecordSchema = z.strictObject({
  roleCode: text,
  roleName: text,
  roleDescription: optionalText,
  rolePermissions: z.array(permissionRefSchema),
  ...versioned,
});

export const userRecordSchema = z.strictObject({
  userCode: text,
  username: text,
  email: text,
  role: referenceSchema('roleCode', 'roleName'),
  ...versioned,
});

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
  session: sessionTimingSchema.optional(),
});

const changeSchema = z.strictObject({ old: z.unknown(), new: z.unknown() });

export const auditRecordSchema = z.strictObject({
  auditCode: text,
  action: text,
  collection: text,
  before: z.unknown(),
  after: z.unknown(),
  changes: z.record(z.string(), changeSchema).nullable(),
  /** Who acted; a failed sign-in names the username tried, which may belong to nobody. */
  user: z
    .strictObject({ userCode: z.string().nullable(), username: z.string().nullable().optional() })
    .nullable(),
  createdAt: timestamp,
});

export const genderRecordSchema = z.strictObject({ genderCode: text, genderName: text, ...versioned });

export const countryRecordSchema = z.strictObject({
  countryCode: text,
  name: text,
  iso2: text,
  iso3: text,
  ...versioned,
});

const countryRef = referenceSchema('countryCode', 'name');
const stateRef = referenceSchema('stateCode', 'name');

export const stateRecordSchema = z.strictObject({
  stateCode: text,
  name: text,
  iso: text,
  country: countryRef,
  ...versioned,
});

export const cityRecordSchema = z.strictObject({
  cityCode: text,
  name: text,
  state: stateRef,
  country: countryRef,
  ...versioned,
});

export const departmentRecordSchema = z.strictObject({ departmentCode: text, name: text, ...versioned });

export const skillRecordSchema = z.strictObject({
  skillCode: text,
  title: text,
  description: optionalText,
  ...versioned,
});

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
  phoneNumber: optionalText,
  address: z.strictObject({
    addressLineOne: optionalText,
    addressLineTwo: optionalText,
    country: countryRef.nullable(),
    state: stateRef.nullable(),
    city: referenceSchema('cityCode', 'name').nullable(),
    postalCode: optionalText,
  }),
  social: z.strictObject({
    linkedin: optionalText,
    twitter: optionalText,
    facebook: optionalText,
    instagram: optionalText,
    websitePortfolioUrl: optionalText,
  }),
  notification: z.strictObject({ email: z.boolean(), sms: z.boolean(), push: z.boolean() }),
  user: referenceSchema('userCode', 'username'),
  ...versioned,
});

export type PermissionRef = z.output<typeof permissionRefSchema>;
export type PermissionRecord = z.output<typeof permissionRecordSchema>;
export type RoleRecord = z.output<typeof roleRecordSchema>;
export type UserRecord = z.output<typeof userRecordSchema>;
export type SessionUser = z.output<typeof sessionUserSchema>;
export type SessionTiming = z.output<typeof sessionTimingSchema>;
export type AuditRecord = z.output<typeof auditRecordSchema>;
export type GenderRecord = z.output<typeof genderRecordSchema>;
export type CountryRecord = z.output<typeof countryRecordSchema>;
export type StateRecord = z.output<typeof stateRecordSchema>;
export type CityRecord = z.output<typeof cityRecordSchema>;
export type DepartmentRecord = z.output<typeof departmentRecordSchema>;
export type SkillRecord = z.output<typeof skillRecordSchema>;
export type EmployeeRecord = z.output<typeof employeeRecordSchema>;
export type ProfileRecord = z.output<typeof profileRecordSchema>;

/*
 * Named for the API description: each becomes a component schema that operations refer to, and
 * that a generated client turns into a named type.
 */
const NAMED_RECORDS = {
  PermissionRecord: permissionRecordSchema,
  RoleRecord: roleRecordSchema,
  UserRecord: userRecordSchema,
  SessionUser: sessionUserSchema,
  AuditRecord: auditRecordSchema,
  GenderRecord: genderRecordSchema,
  CountryRecord: countryRecordSchema,
  StateRecord: stateRecordSchema,
  CityRecord: cityRecordSchema,
  DepartmentRecord: departmentRecordSchema,
  SkillRecord: skillRecordSchema,
  EmployeeRecord: employeeRecordSchema,
  ProfileRecord: profileRecordSchema,
};
for (const [id, schema] of Object.entries(NAMED_RECORDS)) {
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
}
