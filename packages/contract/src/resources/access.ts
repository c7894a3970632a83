import { z } from 'zod';
import {
  codeList,
  codeRef,
  emailField,
  optionalText,
  PASSWORD_HELP,
  passwordRule,
  requiredText,
} from '../fields.ts';
import { ALL_PERMISSION_NAMES } from '../permissions.ts';
import { defineResource, selectField, TIMESTAMP_COLUMNS } from './define.ts';
import { nullableText, referenceSchema, text, timestamp, versioned } from './record-parts.ts';

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

export type PermissionRef = z.output<typeof permissionRefSchema>;
export type PermissionRecord = z.output<typeof permissionRecordSchema>;
export type RoleRecord = z.output<typeof roleRecordSchema>;
export type UserRecord = z.output<typeof userRecordSchema>;
export type AuditRecord = z.output<typeof auditRecordSchema>;

export const permissionResource = defineResource({
  key: 'permission',
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

export const auditResource = defineResource({
  key: 'audit',
  recordSchema: auditRecordSchema,
  label: 'Audit Log',
  plural: 'Audit Logs',
  moduleTitle: 'Audits Logs',
  nameField: 'action',
  actions: [],
  endpoints: { list: 'GetAudits' },
  viewPermission: 'VIEW_AUDITS',
  columns: [
    { path: 'action', label: 'Action', sortable: true },
    { path: 'collection', label: 'Module', sortable: true },
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
  messages: { viewError: 'Error loading audit logs' },
});

/**
 * The Administrator keeps every right: whoever holds the whole catalogue passes every delegation
 * rule, and may also change their own role (the rule that someone must still manage roles stays).
 */
export const holdsEveryPermission = (held: ReadonlySet<string>): boolean =>
  ALL_PERMISSION_NAMES.every((p) => held.has(p));

/** GetRoles?assignable=true: only the roles whose permissions the caller holds, all of them. */
export const ASSIGNABLE_FLAG = 'assignable';

const roleFields = {
  roleName: requiredText('Role name', 100),
  roleDescription: optionalText('Role description', 500),
  rolePermissions: codeList('Role permissions'),
};
export const roleCreateSchema = z.object(roleFields);
export const roleUpdateSchema = z.object({ roleCode: codeRef('Role code'), ...roleFields });

export const roleResource = defineResource({
  key: 'role',
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
  formFields: [
    { name: 'roleName', label: 'Role Name', kind: 'text' },
    { name: 'roleDescription', label: 'Role Description', kind: 'textarea' },
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
  ],
});

const usernameRule = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may hold letters, digits, dots, dashes and underscores only');

export const userCreateSchema = z.object({
  username: usernameRule,
  email: emailField,
  password: passwordRule,
  roleCode: codeRef('Role'),
});
export const userUpdateSchema = z.object({
  userCode: codeRef('User code'),
  username: usernameRule,
  email: emailField,
  // An empty password on update keeps the current one.
  password: z.union([z.literal(''), passwordRule]).optional(),
  roleCode: codeRef('Role'),
});

export const userResource = defineResource({
  key: 'user',
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
    ...TIMESTAMP_COLUMNS,
  ],
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
    },
    selectField(roleResource, {
      delegation: { listFlag: ASSIGNABLE_FLAG, lockedOnSelf: 'You cannot change your own role' },
    }),
  ],
});
