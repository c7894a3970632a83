import { holdsEveryPermission, type PermissionScope, scopeCovers } from '@wfc/contract';
import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { departmentManagers, employees } from '../db/schema/index.ts';

/** What a scope check needs of the caller: who they are and how far they hold each permission. */
export interface ScopedCaller {
  userCode: string;
  permissions: ReadonlySet<string>;
  /** Permissions held for fewer than all records; any other held one is held for all. */
  scopes: ReadonlyMap<string, PermissionScope>;
}

/** Pure: how far the caller holds a permission, or null when they do not hold it. */
export function heldScope(caller: ScopedCaller, permission: string): PermissionScope | null {
  if (!caller.permissions.has(permission)) return null;
  return caller.scopes.get(permission) ?? 'all';
}

/** Pure: the caller holds `name` at least as far as `scope` (`all` > `team` > `own`): they may give it. */
export function mayGive(caller: ScopedCaller, name: string, scope: PermissionScope): boolean {
  const held = heldScope(caller, name);
  return held !== null && scopeCovers(held, scope);
}

/** Pure: the caller holds every permission of the catalogue for all records, and so may give anything. */
export const holdsEverything = (caller: ScopedCaller): boolean =>
  holdsEveryPermission(caller.permissions) && caller.scopes.size === 0;

/** Pure: the widest scope of the permissions the caller holds among `names`, or null for none. */
export function widestScope(caller: ScopedCaller, names: readonly string[]): PermissionScope | null {
  let widest: PermissionScope | null = null;
  for (const name of names) {
    const scope = heldScope(caller, name);
    if (scope && (widest === null || !scopeCovers(widest, scope))) widest = scope;
  }
  return widest;
}

/**
 * The departments the user's employee manages: their team is these departments' employees. A
 * user linked to no employee manages none.
 */
export const managedDepartments = (userCode: string): SQL =>
  sql`(select ${departmentManagers.departmentCode} from ${departmentManagers}
    join ${employees} on ${employees.employeeCode} = ${departmentManagers.employeeCode}
    where ${employees.userCode} = ${userCode})`;

/** The users linked to the employees of the user's team. */
export const teamUsers = (userCode: string): SQL =>
  sql`(select t.user_code from employees t
    where t.department_code in ${managedDepartments(userCode)} and t.user_code is not null)`;

/** How a record relates to the signed-in user: its `own` and `team` conditions given their code. */
export interface ScopeRelation {
  own(userCode: string): SQL;
  team(userCode: string): SQL;
  /** Tables the conditions read besides the listed one (a kept list depends on them too). */
  reads: readonly string[];
}

/**
 * The relation of a record that is an employee's, through the employee's user and department
 * columns (an employee, a performance row's employee).
 */
export const employeeRelation = (cols: { userCode: AnyPgColumn | SQL; departmentCode: AnyPgColumn | SQL }) =>
  ({
    own: (userCode) => sql`${cols.userCode} = ${userCode}`,
    team: (userCode) => sql`${cols.departmentCode} in ${managedDepartments(userCode)}`,
    reads: ['employees', 'department_managers'],
  }) satisfies ScopeRelation;

/** The relation of a record that belongs to a user (a profile), through its user column. */
export const userRelation = (userColumn: AnyPgColumn) =>
  ({
    own: (userCode) => sql`${userColumn} = ${userCode}`,
    team: (userCode) => inArray(userColumn, teamUsers(userCode)),
    reads: ['employees', 'department_managers'],
  }) satisfies ScopeRelation;

/**
 * The condition a relation puts on what a caller reaches at `scope`: undefined for all records,
 * none at all (`false`) when the scope is missing.
 */
export function scopeCondition(
  relation: ScopeRelation | undefined,
  scope: PermissionScope | null,
  userCode: string,
): SQL | undefined {
  if (scope === 'all') return undefined;
  if (scope === null || !relation) return sql`false`;
  return scope === 'own' ? relation.own(userCode) : relation.team(userCode);
}

/** The codes of the departments the user's employee manages. */
export async function managedDepartmentCodes(db: Executor, userCode: string): Promise<string[]> {
  const rows = await db
    .select({ code: departmentManagers.departmentCode })
    .from(departmentManagers)
    .innerJoin(employees, eq(employees.employeeCode, departmentManagers.employeeCode))
    .where(eq(employees.userCode, userCode))
    .orderBy(asc(departmentManagers.departmentCode));
  return rows.map((r) => r.code);
}
