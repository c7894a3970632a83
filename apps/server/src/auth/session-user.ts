import type { SessionUser } from '@wfc/contract';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { employees, permissions, rolePermissions, roles, userMfa, users } from '../db/schema/index.ts';

/** The signed-in user's shape (login and GetSession): the user with its role and permissions. */
export async function loadSessionUsers(db: Executor, userCodes: string[]): Promise<Map<string, SessionUser>> {
  if (userCodes.length === 0) return new Map();
  const rows = await db
    .select({
      userCode: users.userCode,
      username: users.username,
      email: users.email,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      roleCode: roles.roleCode,
      roleName: roles.roleName,
      roleDescription: roles.roleDescription,
      requireMfa: roles.requireMfa,
      roleExternalId: roles.externalId,
      mfaEnabledAt: userMfa.enabledAt,
      roleCreatedAt: roles.createdAt,
      roleUpdatedAt: roles.updatedAt,
      employeeCode: employees.employeeCode,
      employeeName: employees.name,
      departmentCode: employees.departmentCode,
    })
    .from(users)
    .innerJoin(roles, eq(roles.roleCode, users.roleCode))
    .leftJoin(userMfa, and(eq(userMfa.userCode, users.userCode), isNotNull(userMfa.enabledAt)))
    .leftJoin(employees, eq(employees.userCode, users.userCode))
    .where(inArray(users.userCode, userCodes));
  const perms = await db
    .select({
      roleCode: rolePermissions.roleCode,
      permissionCode: permissions.permissionCode,
      permissionName: permissions.permissionName,
      scope: rolePermissions.scope,
    })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(inArray(rolePermissions.roleCode, [...new Set(rows.map((r) => r.roleCode))]))
    .orderBy(asc(permissions.id));
  const out = new Map<string, SessionUser>();
  for (const r of rows) {
    const held = perms.filter((p) => p.roleCode === r.roleCode);
    out.set(r.userCode, {
      userCode: r.userCode,
      username: r.username,
      email: r.email,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      mfaEnabled: r.mfaEnabledAt !== null,
      employee:
        r.employeeCode && r.employeeName && r.departmentCode
          ? { employeeCode: r.employeeCode, name: r.employeeName, departmentCode: r.departmentCode }
          : null,
      role: {
        roleCode: r.roleCode,
        roleName: r.roleName,
        roleDescription: r.roleDescription,
        requireMfa: r.requireMfa,
        externalId: r.roleExternalId,
        createdAt: r.roleCreatedAt.toISOString(),
        updatedAt: r.roleUpdatedAt.toISOString(),
        rolePermissions: held.map((p) => ({
          permissionCode: p.permissionCode,
          permissionName: p.permissionName,
        })),
        permissionScopes: Object.fromEntries(held.map((p) => [p.permissionCode, p.scope])),
      },
    });
  }
  return out;
}

export async function loadSessionUser(db: Executor, userCode: string): Promise<SessionUser | undefined> {
  return (await loadSessionUsers(db, [userCode])).get(userCode);
}
