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
import { defineResource, TIMESTAMP_COLUMNS } from './define.ts';

export const permissionResource = defineResource({
  key: 'permission',
  label: 'Permission',
  plural: 'Permissions',
  listSegment: 'permissions',
  itemSegment: 'permission',
  code: 'permissionCode',
  prefix: 'PERM-',
  nameField: 'permissionName',
  permissions: { view: 'VIEW_PERMISSIONS' },
  endpoints: { list: 'GetPermissions', get: 'GetPermissionByCode' },
  sortFields: ['permissionName', 'permissionDescription', 'createdAt'],
  columns: [
    { path: 'permissionName', label: 'Name', sortField: 'permissionName' },
    { path: 'permissionDescription', label: 'Description', sortField: 'permissionDescription' },
    { path: 'createdAt', label: 'Created At', sortField: 'createdAt', format: 'datetime' },
  ],
  formFields: [
    { name: 'permissionName', label: 'Name', kind: 'text' },
    { name: 'permissionDescription', label: 'Description', kind: 'textarea' },
  ],
  defaultBack: '/registry/audit-logs',
});

export const auditResource = defineResource({
  key: 'audit',
  label: 'Audit Log',
  plural: 'Audit Logs',
  moduleTitle: 'Audits Logs',
  listSegment: 'audit-logs',
  itemSegment: 'audit-log',
  code: 'auditCode',
  prefix: 'AUDIT-',
  nameField: 'action',
  permissions: { view: 'VIEW_AUDITS' },
  endpoints: { list: 'GetAudits', get: 'GetAuditByCode' },
  sortFields: ['action', 'collection', 'user.username', 'createdAt'],
  columns: [
    { path: 'action', label: 'Action', sortField: 'action' },
    { path: 'collection', label: 'Module', sortField: 'collection' },
    { path: 'user.username', label: 'User', sortField: 'user.username' },
    { path: 'createdAt', label: 'Created At', sortField: 'createdAt', format: 'datetime' },
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
  label: 'Role',
  plural: 'Roles',
  listSegment: 'roles',
  itemSegment: 'role',
  code: 'roleCode',
  prefix: 'ROLE-',
  nameField: 'roleName',
  permissions: { view: 'VIEW_ROLES', create: 'CREATE_ROLE', update: 'UPDATE_ROLE', delete: 'DELETE_ROLE' },
  endpoints: {
    list: 'GetRoles',
    get: 'GetRoleByCode',
    create: 'CreateRole',
    update: 'UpdateRole',
    delete: 'DeleteRole',
  },
  createSchema: roleCreateSchema,
  updateSchema: roleUpdateSchema,
  sortFields: ['roleName', 'roleDescription', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'roleName', label: 'Name', sortField: 'roleName' },
    { path: 'roleDescription', label: 'Description', sortField: 'roleDescription' },
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
  subLists: [
    {
      resource: 'permission',
      segment: 'permissions',
      endpoint: 'GetPermissionsByRoleCode',
      param: 'roleCode',
      buttonLabel: 'View Permissions',
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
  // An empty password on update keeps the current one (DECISIONS.md section 4).
  password: z.union([z.literal(''), passwordRule]).optional(),
  roleCode: codeRef('Role'),
});

export const userResource = defineResource({
  key: 'user',
  label: 'User',
  plural: 'Users',
  listSegment: 'users',
  itemSegment: 'user',
  code: 'userCode',
  prefix: 'USER-',
  nameField: 'username',
  permissions: { view: 'VIEW_USERS', create: 'CREATE_USER', update: 'UPDATE_USER', delete: 'DELETE_USER' },
  endpoints: {
    list: 'GetUsers',
    get: 'GetUserById',
    create: 'register',
    update: 'UpdateUser',
    delete: 'DeleteUser',
  },
  createSchema: userCreateSchema,
  updateSchema: userUpdateSchema,
  sortFields: ['username', 'email', 'role.roleName', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'username', label: 'Username', sortField: 'username' },
    { path: 'email', label: 'Email', sortField: 'email' },
    { path: 'role.roleName', label: 'Role', sortField: 'role.roleName' },
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
      modes: ['create', 'update'],
    },
    {
      name: 'roleCode',
      label: 'Role',
      kind: 'select',
      source: 'role',
      valuePath: 'role.roleCode',
      labelPath: 'role.roleName',
      delegation: {
        listFlag: ASSIGNABLE_FLAG,
        lockedOnSelf: 'You cannot change your own role',
      },
    },
  ],
});
