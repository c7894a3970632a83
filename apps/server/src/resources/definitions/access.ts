import { auditResource, permissionResource, roleResource, userResource } from '@wfc/contract';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords.ts';
import { revokeOtherSessions } from '../../auth/sessions.ts';
import type { Executor } from '../../db/client.ts';
import {
  audits,
  employees,
  permissions,
  profiles,
  rolePermissions,
  roles,
  users,
} from '../../db/schema/index.ts';
import { badRequest, conflict } from '../../http/envelope.ts';
import type { ServerResource } from '../server-resource.ts';

export const permissions$: ServerResource = {
  def: permissionResource,
  table: permissions,
  idColumn: permissions.id,
  codeColumn: permissions.permissionCode,
  shape: {
    permissionCode: permissions.permissionCode,
    permissionName: permissions.permissionName,
    permissionDescription: permissions.permissionDescription,
    createdAt: permissions.createdAt,
  },
  search: ['permissionName', 'permissionDescription'],
  subLists: [
    {
      endpoint: 'GetPermissionsByRoleCode',
      param: 'roleCode',
      parent: { column: roles.roleCode, notFound: 'Role not found' },
      where: (code) =>
        inArray(
          permissions.permissionCode,
          sql`(select ${rolePermissions.permissionCode} from ${rolePermissions} where ${rolePermissions.roleCode} = ${code})`,
        ),
      reads: [rolePermissions],
    },
  ],
};

export const audits$: ServerResource = {
  def: auditResource,
  table: audits,
  idColumn: audits.id,
  codeColumn: audits.auditCode,
  shape: {
    auditCode: audits.auditCode,
    action: audits.action,
    collection: audits.collection,
    changes: audits.changes,
    before: audits.before,
    after: audits.after,
    user: { userCode: audits.userCode, username: audits.username },
    createdAt: audits.createdAt,
  },
  search: ['action', 'collection', 'user.username'],
  fewValues: ['action', 'collection'],
};

export const ROLE_MANAGER_PERMISSION = 'UPDATE_ROLE';

/** Any fixed number: every check below takes the same lock. */
const ROLE_MANAGER_LOCK = 727_003;

/**
 * DECISIONS.md section 3: no change may leave the console without a user who can manage roles.
 * Runs inside the change's transaction, after the change, so it sees the result. The lock makes
 * two such changes check one after the other: otherwise each could count the other's user (not
 * yet committed) and both would pass, leaving nobody.
 */
export async function assertSomeoneManagesRoles(tx: Executor, exceptUserCode?: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_MANAGER_LOCK})`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(users)
    .innerJoin(rolePermissions, eq(rolePermissions.roleCode, users.roleCode))
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(
      and(
        eq(permissions.permissionName, ROLE_MANAGER_PERMISSION),
        exceptUserCode ? ne(users.userCode, exceptUserCode) : undefined,
      ),
    );
  if (!row || row.n === 0) {
    throw conflict('This change would leave no user who can manage roles');
  }
}

export const roles$: ServerResource = {
  def: roleResource,
  table: roles,
  idColumn: roles.id,
  codeColumn: roles.roleCode,
  updatedAtColumn: roles.updatedAt,
  shape: {
    roleCode: roles.roleCode,
    roleName: roles.roleName,
    roleDescription: roles.roleDescription,
    createdAt: roles.createdAt,
    updatedAt: roles.updatedAt,
  },
  search: ['roleName', 'roleDescription'],
  unique: [
    { constraint: 'roles_name_unique', field: 'roleName', message: 'A role with this name already exists' },
  ],
  dependents: [{ column: users.roleCode, one: 'user', many: 'users' }],
  reads: [rolePermissions, permissions],
  async toRow(input) {
    return { roleName: input.roleName, roleDescription: input.roleDescription };
  },
  async validate(input, { tx }) {
    const wanted = [...new Set(input.rolePermissions as string[])];
    if (wanted.length === 0) return;
    const found = await tx
      .select({ code: permissions.permissionCode })
      .from(permissions)
      .where(inArray(permissions.permissionCode, wanted));
    const known = new Set(found.map((f) => f.code));
    const unknown = wanted.filter((c) => !known.has(c));
    if (unknown.length) {
      throw badRequest('Invalid input', [
        { field: 'rolePermissions', message: `Unknown permission: ${unknown.slice(0, 5).join(', ')}` },
      ]);
    }
  },
  async afterWrite(code, input, { tx }, existing) {
    const wanted = [...new Set(input.rolePermissions as string[])];
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleCode, code));
    if (wanted.length) {
      await tx
        .insert(rolePermissions)
        .values(wanted.map((permissionCode) => ({ roleCode: code, permissionCode })));
    }
    if (existing) await assertSomeoneManagesRoles(tx);
  },
  async attach(db, records, { populate }) {
    const codes = records.map((r) => r.roleCode as string);
    if (codes.length === 0) return;
    const rows = await db
      .select({
        roleCode: rolePermissions.roleCode,
        permissionCode: permissions.permissionCode,
        permissionName: permissions.permissionName,
      })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
      .where(inArray(rolePermissions.roleCode, codes))
      .orderBy(asc(permissions.id));
    for (const r of records) {
      r.rolePermissions = rows
        .filter((p) => p.roleCode === r.roleCode)
        .map(({ permissionCode, permissionName }) =>
          populate ? { permissionCode, permissionName } : { permissionCode },
        );
    }
  },
};

export const users$: ServerResource = {
  def: userResource,
  table: users,
  idColumn: users.id,
  codeColumn: users.userCode,
  updatedAtColumn: users.updatedAt,
  shape: {
    userCode: users.userCode,
    username: users.username,
    email: users.email,
    role: { roleCode: roles.roleCode, roleName: roles.roleName },
    createdAt: users.createdAt,
    updatedAt: users.updatedAt,
  },
  joins: [{ table: roles, on: eq(roles.roleCode, users.roleCode) }],
  search: ['username', 'email', 'role.roleName'],
  refs: [{ field: 'roleCode', column: roles.roleCode, label: 'Role' }],
  unique: [
    { constraint: 'users_username_unique', field: 'username', message: 'This username is already taken' },
    { constraint: 'users_email_unique', field: 'email', message: 'This email is already in use' },
  ],
  dependents: [
    { column: profiles.userCode, one: 'profile', many: 'profiles' },
    { column: employees.userCode, one: 'employee', many: 'employees' },
  ],
  async toRow(input) {
    const row: Record<string, unknown> = {
      username: input.username,
      email: input.email,
      roleCode: input.roleCode,
    };
    if (input.password) row.passwordHash = await hashPassword(input.password as string);
    return row;
  },
  async afterWrite(code, input, { tx, sessionIdHash }, existing) {
    if (!existing) return;
    // A new password ends every other session of that user (the editor's own stays).
    if (input.password) await revokeOtherSessions(tx, code, sessionIdHash);
    await assertSomeoneManagesRoles(tx);
  },
  async beforeDelete(existing, { tx, actor }) {
    if (existing.userCode === actor.userCode) throw conflict('You cannot delete your own user');
    await assertSomeoneManagesRoles(tx, existing.userCode as string);
  },
};
