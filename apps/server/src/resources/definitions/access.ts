import {
  ASSIGNABLE_FLAG,
  auditResource,
  holdsEveryPermission,
  ownAccountRefusal,
  permissionResource,
  roleResource,
  userResource,
} from '@wfc/contract';
import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords.ts';
import { revokeOtherSessions } from '../../auth/sessions.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../config/common-passwords.ts';
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
import { ApiError, badRequest, conflict } from '../../http/envelope.ts';
import { defineServerResource, type Row, textAt } from '../server-resource.ts';

export const permissions$ = defineServerResource({
  def: permissionResource,
  table: permissions,
  search: ['permissionName', 'permissionDescription'],
  parentConditions: {
    // A role's permissions are listed through the join table.
    role: {
      where: (code) =>
        inArray(
          permissions.permissionCode,
          sql`(select ${rolePermissions.permissionCode} from ${rolePermissions} where ${rolePermissions.roleCode} = ${code})`,
        ),
      reads: [rolePermissions],
    },
  },
});

export const audits$ = defineServerResource({
  def: auditResource,
  table: audits,
  // The acting user is stored by value, not referenced: the audit outlives the user.
  shape: {
    auditCode: audits.auditCode,
    action: audits.action,
    collection: audits.collection,
    recordCode: audits.recordCode,
    changes: audits.changes,
    before: audits.before,
    after: audits.after,
    user: { userCode: audits.userCode, username: audits.username },
    createdAt: audits.createdAt,
  },
  search: ['action', 'collection', 'user.username'],
  fewValues: ['action', 'collection'],
});

export const ROLE_MANAGER_PERMISSION = 'UPDATE_ROLE';

/** Any fixed number: every check below takes the same lock. */
const ROLE_MANAGER_LOCK = 727_003;

/**
 * No change may leave the console without a user who can manage roles (docs/product.md section 6).
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

const forbidden = (message: string) => new ApiError(403, message);

/**
 * The permission names of a role. The role's row is share-locked until the transaction ends: a
 * concurrent UpdateRole (which locks it for update) cannot widen the role between this check and
 * the change that relied on it.
 */
async function lockedRoleGrants(tx: Executor, roleCode: string): Promise<string[]> {
  await tx.select({ one: sql`1` }).from(roles).where(eq(roles.roleCode, roleCode)).for('share');
  const rows = await tx
    .select({ name: permissions.permissionName })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(eq(rolePermissions.roleCode, roleCode));
  return rows.map((r) => r.name);
}

/** Every permission of the role is held: the role is within the actor's reach. */
async function withinReach(tx: Executor, roleCode: string, held: ReadonlySet<string>) {
  return (await lockedRoleGrants(tx, roleCode)).every((name) => held.has(name));
}

/** Roles none of whose permissions is missing from `held`. */
const assignableRoles = (held: ReadonlySet<string>) =>
  sql`not exists (select 1 from ${rolePermissions} join ${permissions}
    on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
    where ${rolePermissions.roleCode} = ${roles.roleCode}
    and ${notInArray(permissions.permissionName, [...held])})`;

/** The codes of the permissions a fetched role holds. */
function heldCodes(role: Row | undefined): Set<string> {
  const list = role?.rolePermissions;
  return new Set(
    (Array.isArray(list) ? list : []).flatMap((p: unknown) => {
      const code = textAt(p !== null && typeof p === 'object' ? { ...p } : undefined, 'permissionCode');
      return code ? [code] : [];
    }),
  );
}

export const roles$ = defineServerResource({
  def: roleResource,
  table: roles,
  search: ['roleName', 'roleDescription'],
  unique: [
    { constraint: 'roles_name_unique', field: 'roleName', message: 'A role with this name already exists' },
  ],
  dependents: [{ column: users.roleCode, one: 'user', many: 'users' }],
  reads: [rolePermissions, permissions],
  listFlags: [
    {
      param: ASSIGNABLE_FLAG,
      where: (held) => (holdsEveryPermission(held) ? undefined : assignableRoles(held)),
    },
  ],
  async toRow(input) {
    return { roleName: input.roleName, roleDescription: input.roleDescription, requireMfa: input.requireMfa };
  },
  /**
   * Only permissions the actor holds may be added. Those the role already has stay even when
   * the actor lacks them (editing its name must not strip them), and removing is always allowed.
   */
  async authorize(input, { tx, permissions: held }, existing) {
    if (!input || holdsEveryPermission(held)) return;
    const had = heldCodes(existing);
    const added = [...new Set(input.rolePermissions)].filter((c) => !had.has(c));
    if (added.length === 0) return;
    // Unknown codes are left to `validate`, which names them in a 400.
    const granted = await tx
      .select({ name: permissions.permissionName })
      .from(permissions)
      .where(inArray(permissions.permissionCode, added));
    if (granted.some((p) => !held.has(p.name)))
      throw forbidden('You cannot grant permissions you do not hold');
  },
  async validate(input, { tx }) {
    const wanted = [...new Set(input.rolePermissions)];
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
    const wanted = [...new Set(input.rolePermissions)];
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleCode, code));
    if (wanted.length) {
      await tx
        .insert(rolePermissions)
        .values(wanted.map((permissionCode) => ({ roleCode: code, permissionCode })));
    }
    if (existing) await assertSomeoneManagesRoles(tx);
  },
  async attach(db, records, { populate }) {
    const codes = records.flatMap((r) => textAt(r, 'roleCode') ?? []);
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
});

export const users$ = defineServerResource({
  def: userResource,
  table: users,
  references: [{ to: roles$, via: users.roleCode }],
  // The linking rule is the single sign-on panel's (`GetSsoByUserCode`), not part of the record.
  hidden: [users.passwordHash, users.ssoLinking],
  search: ['username', 'email', 'role.roleName'],
  unique: [
    { constraint: 'users_username_unique', field: 'username', message: 'This username is already taken' },
    { constraint: 'users_email_unique', field: 'email', message: 'This email is already in use' },
  ],
  dependents: [
    { column: profiles.userCode, one: 'profile', many: 'profiles' },
    { column: employees.userCode, one: 'employee', many: 'employees' },
  ],
  /**
   * A user manager reaches only users whose role it could have given, gives only such roles, and
   * never changes its own role: otherwise holding UPDATE_USER would be holding every permission.
   * Nobody sets their own password here: My account asks for the current one.
   */
  async authorize(input, { tx, actor, permissions: held }, existing) {
    const own = ownAccountRefusal(
      actor.userCode,
      textAt(existing, 'userCode') ?? '',
      input?.password ? 'password' : undefined,
    );
    if (own) throw forbidden(own);
    if (holdsEveryPermission(held)) return;
    if (existing) {
      const current = textAt(existing, 'role.roleCode') ?? '';
      if (input && existing.userCode === actor.userCode && input.roleCode !== current) {
        throw forbidden('You cannot change your own role');
      }
      if (!(await withinReach(tx, current, held))) {
        throw forbidden(
          input
            ? 'You cannot change a user whose role has permissions you do not hold'
            : 'You cannot delete a user whose role has permissions you do not hold',
        );
      }
      if (!input || input.roleCode === current) return;
    }
    if (input && !(await withinReach(tx, input.roleCode, held))) {
      throw forbidden('You cannot assign a role with permissions you do not hold');
    }
  },
  // ASVS 6.2.4: a password from the list of common and breached ones is refused here too.
  async validate(input) {
    if (input.password && isCommonPassword(input.password)) {
      throw badRequest(COMMON_PASSWORD_MESSAGE, [{ field: 'password', message: COMMON_PASSWORD_MESSAGE }]);
    }
  },
  // A reset is worth an audit line of its own; the record itself never shows the password.
  auditNotes: (input) => (input.password ? { passwordChanged: true } : undefined),
  async toRow(input) {
    const { username, email, roleCode } = input;
    return {
      username,
      email,
      roleCode,
      ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    };
  },
  async afterWrite(code, input, { tx, sessionIdHash }, existing) {
    if (!existing) return;
    // A new password ends every session of that user; the editor's own is never among them, since
    // nobody sets their own password here.
    if (input.password) await revokeOtherSessions(tx, code, sessionIdHash);
    await assertSomeoneManagesRoles(tx);
  },
  async beforeDelete(existing, { tx, actor }) {
    if (existing.userCode === actor.userCode) throw conflict('You cannot delete your own user');
    await assertSomeoneManagesRoles(tx, textAt(existing, 'userCode'));
  },
});
