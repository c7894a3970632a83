import { z } from 'zod';
import {
  codeList,
  codeRef,
  emailField,
  optionalSwitch,
  optionalText,
  PASSWORD_HELP,
  passwordRule,
  requiredText,
} from '../fields.ts';
import { ALL_PERMISSION_NAMES } from '../permissions.ts';
import { permissionScopeSchema, permissionScopesSchema } from '../scopes.ts';
import { defineResource, selectField, TIMESTAMP_COLUMNS } from './define.ts';
import {
  nullableText,
  referenceSchema,
  text,
  timestamp,
  versioned,
  versionedNotPersonal,
} from './record-parts.ts';

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
  roleDescription: nullableText,
  /** Its users must sign in with a second factor (docs/product.md, My account). */
  requireMfa: z.boolean(),
  /** The identity provider's id for the group the role stands for (provisioning). */
  externalId: nullableText,
  rolePermissions: z.array(permissionRefSchema),
  /** How far the role holds each of its permissions, by permission code (`all` where unscopable). */
  permissionScopes: z.record(text, permissionScopeSchema),
  ...versioned,
});

export const userRecordSchema = z.strictObject({
  userCode: text,
  username: text,
  email: text,
  role: referenceSchema('roleCode', 'roleName'),
  /** A disabled user cannot sign in; their sessions and API tokens stop working. */
  active: z.boolean(),
  /** The identity provider's id for the user, kept from provisioning. */
  externalId: nullableText,
  ...versioned,
});

const changeSchema = z.strictObject({ old: z.unknown(), new: z.unknown() });

export const auditRecordSchema = z.strictObject({
  auditCode: text,
  action: text,
  collection: text,
  /** The code of the record the entry is about; null for sign-in and other events. */
  recordCode: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  changes: z.record(z.string(), changeSchema).nullable(),
  /** Who acted; a failed sign-in names the username tried, which may belong to nobody. */
  user: z
    .strictObject({ userCode: z.string().nullable(), username: z.string().nullable().optional() })
    .nullable(),
  createdAt: timestamp,
});

export const permissionResource = defineResource({
  key: 'permission',
  // Named in a role's Permissions column; permissions themselves are not imported.
  import: { key: ['permissionName'] },
  recordSchema: permissionRecordSchema,
  label: 'Permission',
  plural: 'Permissions',
  prefix: 'PERM-',
  nameField: 'permissionName',
  actions: [],
  listedBy: ['role'],
  columns: [
    { path: 'permissionName', label: 'Name', sortable: true },
    { path: 'permissionDescription', label: 'Description', sortable: true },
    { path: 'createdAt', label: 'Created At', sortable: true, format: 'datetime' },
  ],
  formFields: [
    { name: 'permissionName', label: 'Name', kind: 'text' },
    { name: 'permissionDescription', label: 'Description', kind: 'textarea' },
  ],
  defaultBack: '/registry/audit-logs',
});

/** Every action the audit log records; the server's recorder accepts no other. */
export const AUDIT_ACTIONS = [
  'CREATE',
  'UPDATE',
  'DELETE',
  'IMPORT',
  'LOGIN',
  'LOGIN_FAILED',
  'LOGOUT',
  'PASSWORD_CHANGED',
  'SESSION_ENDED',
  'MFA_ENABLED',
  'MFA_DISABLED',
  'MFA_RESET',
  'SSO_FAILED',
  'SSO_LINKED',
  'SSO_UNLINKED',
  'SSO_LINKING_CHANGED',
  'ACCESS_DENIED',
  'UNAUTHENTICATED',
  'PERSONAL_DATA_EXPORTED',
  'ERASURE',
  'API_TOKEN_CREATED',
  'API_TOKEN_REVOKED',
  'RESTORE',
  'PURGE',
  'RETENTION_PURGE',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The modules audit records name: each registry module's list segment (a test checks that every
 * written one is here), sign-in, refused requests, the performance grid, the demo data load and the
 * retention purge.
 */
export const AUDIT_MODULES = [
  'auth',
  'security',
  'roles',
  'users',
  'genders',
  'countries',
  'states',
  'cities',
  'profiles',
  'departments',
  'skills',
  'employees',
  'performances',
  'demo data',
  'api tokens',
  'webhooks',
  'retention',
] as const;

export const auditResource = defineResource({
  key: 'audit',
  recordSchema: auditRecordSchema,
  label: 'Audit Log',
  plural: 'Audit Logs',
  moduleTitle: 'Audits Logs',
  nameField: 'action',
  actions: [],
  endpoints: { list: 'GetAudits', export: 'ExportAudits' },
  viewPermission: 'VIEW_AUDITS',
  columns: [
    { path: 'action', label: 'Action', sortable: true },
    { path: 'collection', label: 'Module', sortable: true },
    { path: 'recordCode', label: 'Record' },
    { path: 'user.username', label: 'User', sortable: true },
    { path: 'createdAt', label: 'Created At', sortable: true, format: 'datetime' },
  ],
  formFields: [
    { name: 'action', label: 'Action', kind: 'text' },
    { name: 'collection', label: 'Module', kind: 'text' },
    { name: 'before', label: 'Before', kind: 'json' },
    { name: 'after', label: 'After', kind: 'json' },
    { name: 'changes', label: 'Changes', kind: 'json' },
  ],
  filters: [
    { param: 'username', label: 'User', path: 'user.username', match: 'contains' },
    { param: 'collection', label: 'Module', path: 'collection', match: 'equals', choices: AUDIT_MODULES },
    { param: 'action', label: 'Action', path: 'action', match: 'equals', choices: AUDIT_ACTIONS },
    { param: 'recordCode', label: 'Record', path: 'recordCode', match: 'equals' },
    { param: 'from', label: 'From', path: 'createdAt', match: 'from' },
    { param: 'to', label: 'To', path: 'createdAt', match: 'to' },
  ],
  exportColumns: [
    { path: 'createdAt', label: 'Created At', format: 'datetime' },
    { path: 'action', label: 'Action' },
    { path: 'collection', label: 'Module' },
    { path: 'recordCode', label: 'Record Code' },
    { path: 'user.username', label: 'User' },
    { path: 'auditCode', label: 'Audit Code' },
    { path: 'changes', label: 'Changes' },
    { path: 'before', label: 'Before' },
    { path: 'after', label: 'After' },
  ],
  messages: { viewError: 'Error loading audit logs' },
});

/**
 * The Administrator keeps every right: whoever holds the whole catalogue passes every delegation
 * rule, and may also change their own role (the rule that someone must still manage roles stays).
 */
export const holdsEveryPermission = (held: ReadonlySet<string>): boolean =>
  ALL_PERMISSION_NAMES.every((p) => held.has(p));

/**
 * What the user-management calls refuse to do to the caller's own user, whoever the caller (the
 * Administrator too): My account does it, asking for the current password (and, to turn
 * two-factor off, a code), so that a session left open cannot lock its owner out. Each value is
 * the refusal, which says where to go instead.
 */
export const OWN_ACCOUNT_ELSEWHERE = {
  password: 'Change your own password in My account, which asks for the current one',
  secondFactor: 'Turn off your own two-factor sign-in in My account, which asks for your password and a code',
  sessions: 'End your own other sessions in My account',
} as const;

export type OwnAccountChange = keyof typeof OWN_ACCOUNT_ELSEWHERE;

/**
 * Why `actorCode` may not make `change` to the user `targetCode` through user management: the
 * refusal when the user is the actor's own, else undefined (`change` undefined: nothing of the
 * kind is asked).
 */
export const ownAccountRefusal = (
  actorCode: string,
  targetCode: string,
  change: OwnAccountChange | undefined,
): string | undefined =>
  change !== undefined && actorCode === targetCode ? OWN_ACCOUNT_ELSEWHERE[change] : undefined;

/** GetRoles?assignable=true: only the roles whose permissions the caller holds, all of them. */
export const ASSIGNABLE_FLAG = 'assignable';

const roleFields = {
  roleName: requiredText('Role name', 100),
  roleDescription: optionalText('Role description', 500),
  rolePermissions: codeList('Role permissions'),
  /** By permission code; a permission it does not name is held for all records. */
  permissionScopes: permissionScopesSchema.optional().transform((s) => s ?? {}),
  requireMfa: optionalSwitch,
};
export const roleCreateSchema = z.object(roleFields);
export const roleUpdateSchema = z.object({ roleCode: codeRef('Role code'), ...roleFields });

export const roleResource = defineResource({
  key: 'role',
  import: { key: ['roleName'] },
  recordSchema: roleRecordSchema,
  label: 'Role',
  plural: 'Roles',
  nameField: 'roleName',
  createSchema: roleCreateSchema,
  updateSchema: roleUpdateSchema,
  columns: [
    { path: 'roleName', label: 'Name', sortable: true },
    { path: 'roleDescription', label: 'Description', sortable: true },
    { path: 'rolePermissions', label: 'Permissions', format: 'count' },
    ...TIMESTAMP_COLUMNS,
  ],
  // The list's, and whether the role asks for two-factor sign-in, which an import reads back.
  exportColumns: [
    { path: 'roleName', label: 'Name' },
    { path: 'roleDescription', label: 'Description' },
    { path: 'rolePermissions', label: 'Permissions' },
    { path: 'requireMfa', label: 'Require two-factor sign-in' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'roleName', label: 'Role Name', kind: 'text' },
    { name: 'roleDescription', label: 'Role Description', kind: 'textarea' },
    {
      name: 'requireMfa',
      label: 'Require two-factor sign-in',
      kind: 'switch',
      help: 'Users of this role must set up two-factor sign-in before they can do anything else.',
    },
    {
      name: 'rolePermissions',
      label: 'Permissions',
      kind: 'multiselect',
      source: 'permission',
      valuePath: 'rolePermissions[].permissionCode',
      labelPath: 'rolePermissions[].permissionName',
      modes: ['create', 'update'],
      delegation: { heldOnly: 'Permissions you do not hold cannot be added' },
    },
    {
      name: 'permissionScopes',
      label: 'Scopes',
      kind: 'scopes',
      scopesOf: 'rolePermissions',
      valuePath: 'permissionScopes',
      modes: ['create', 'update'],
      help: 'How far each permission on people and scores reaches: every record, the team of the departments the user manages, or the user’s own record.',
      delegation: { heldOnly: 'A permission cannot be given for more records than you hold it for' },
    },
  ],
});

const usernameRule = z
  .string({ error: 'Username is required' })
  .trim()
  // Empty is missing, not short: the form says so as it does for every required field.
  .min(1, { error: 'Username is required', abort: true })
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may hold letters, digits, dots, dashes and underscores only');

/** The refusal of a sign-in (password, second factor or single sign-on) as a disabled user (403). */
export const DISABLED_USER_MESSAGE = 'This user is disabled. Ask an administrator to enable it.';

/** What user management refuses about the `active` switch. */
export const USER_ACTIVE_MESSAGES = {
  /** 403: nobody disables their own user, the Administrator neither (nobody could enable it again). */
  self: 'You cannot disable your own user',
} as const;

const ACTIVE_HELP = 'A disabled user cannot sign in; their sessions end and their API tokens stop working';

export const userCreateSchema = z.object({
  username: usernameRule,
  email: emailField,
  password: passwordRule,
  roleCode: codeRef('Role'),
  // Absent: active, as the column's default.
  active: optionalSwitch,
});
export const userUpdateSchema = z.object({
  userCode: codeRef('User code'),
  username: usernameRule,
  email: emailField,
  // An empty password on update keeps the current one.
  password: z.union([z.literal(''), passwordRule]).optional(),
  roleCode: codeRef('Role'),
  // Absent: the user stays as they are (API clients written before the switch existed).
  active: optionalSwitch,
});

export const userResource = defineResource({
  key: 'user',
  import: { key: ['username'] },
  recordSchema: userRecordSchema,
  label: 'User',
  plural: 'Users',
  nameField: 'username',
  // The historical names of the user calls, which API clients already use.
  endpoints: { get: 'GetUserById', create: 'register' },
  createSchema: userCreateSchema,
  updateSchema: userUpdateSchema,
  columns: [
    { path: 'username', label: 'Username', sortable: true },
    { path: 'email', label: 'Email', sortable: true },
    { path: 'role.roleName', label: 'Role', sortable: true },
    {
      path: 'active',
      label: 'Status',
      sortable: true,
      format: 'switch',
      switchLabels: { on: 'Active', off: 'Disabled' },
    },
    ...TIMESTAMP_COLUMNS,
  ],
  activeFlag: { field: 'active', offLabel: 'disabled' },
  filters: [{ param: 'roleCode', label: 'Role', path: 'role.roleCode', match: 'equals', source: 'role' }],
  formFields: [
    { name: 'username', label: 'Username', kind: 'text' },
    { name: 'email', label: 'Email', kind: 'email' },
    {
      name: 'password',
      label: 'Password',
      kind: 'password',
      help: PASSWORD_HELP,
      updateHelp: `Leave blank to keep the current password. ${PASSWORD_HELP}`,
      modes: ['create', 'update'],
      delegation: { offOnSelf: OWN_ACCOUNT_ELSEWHERE.password },
    },
    selectField(roleResource, {
      delegation: { listFlag: ASSIGNABLE_FLAG, lockedOnSelf: 'You cannot change your own role' },
    }),
    // A new user is active: the create form has no switch, which would start off.
    {
      name: 'active',
      label: 'Active',
      kind: 'switch',
      help: ACTIVE_HELP,
      modes: ['view', 'update'],
      delegation: { offOnSelf: USER_ACTIVE_MESSAGES.self },
    },
  ],
  bulkChange: ['roleCode'],
  personal: {
    owner: 'userCode',
    fields: {
      userCode: false,
      username: 'name',
      email: 'detail',
      role: false,
      active: false,
      // The identity provider's id says nothing of the person beyond the username.
      externalId: false,
      ...versionedNotPersonal,
    },
  },
});
