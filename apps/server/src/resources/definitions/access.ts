import {
  ASSIGNABLE_FLAG,
  auditResource,
  ownAccountRefusal,
  PERMISSION_SCOPES,
  type PermissionScope,
  permissionResource,
  roleResource,
  scopeCovers,
  scopeRefusal,
  USER_ACTIVE_MESSAGES,
  userResource,
} from '@wfc/contract';
import { and, asc, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords.ts';
import { heldScope, holdsEverything, mayGive, type ScopedCaller } from '../../auth/scopes.ts';
import { revokeOtherSessions } from '../../auth/sessions.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../config/common-passwords.ts';
import type { Executor } from '../../db/client.ts';
import {
  apiTokens,
  audits,
  employees,
  permissions,
  profiles,
  rolePermissions,
  roles,
  users,
} from '../../db/schema/index.ts';
import { ApiError, badRequest, conflict } from '../../http/envelope.ts';
import { visibleEntry } from '../need-to-know.ts';
import { defineServerResource, fieldsAt, type Row, textAt, type WriteContext } from '../server-resource.ts';

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
  // An entry holds another module's record: that module's need-to-know fields are left out.
  visible: visibleEntry,
  // An entry is named by what was done, which a few words match in most entries: the audit log's
  // own filters find them.
  searchFields: [],
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
        // A disabled user cannot sign in, so manages nothing.
        eq(users.active, true),
        exceptUserCode ? ne(users.userCode, exceptUserCode) : undefined,
      ),
    );
  if (!row || row.n === 0) {
    throw conflict('This change would leave no user who can manage roles');
  }
}

const forbidden = (message: string) => new ApiError(403, message);

/** The names of these permission codes, by code; unknown codes are left out. */
async function permissionNames(tx: Executor, codes: readonly string[]) {
  if (codes.length === 0) return new Map<string, string>();
  const found = await tx
    .select({ code: permissions.permissionCode, name: permissions.permissionName })
    .from(permissions)
    .where(inArray(permissions.permissionCode, [...codes]));
  return new Map(found.map((f) => [f.code, f.name]));
}

/**
 * The permissions of a role with their scopes. The role's row is share-locked until the
 * transaction ends: a concurrent UpdateRole (which locks it for update) cannot widen the role
 * between this check and the change that relied on it.
 */
async function lockedRoleGrants(tx: Executor, roleCode: string) {
  await tx.select({ one: sql`1` }).from(roles).where(eq(roles.roleCode, roleCode)).for('share');
  return tx
    .select({ name: permissions.permissionName, scope: rolePermissions.scope })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(eq(rolePermissions.roleCode, roleCode));
}

/** The actor as the delegation rules see it: what they hold, and how far. */
const delegator = (ctx: WriteContext): ScopedCaller => ({
  userCode: ctx.actor.userCode,
  permissions: ctx.permissions,
  scopes: ctx.scopes,
});

/** Every permission of the role is held, each at least as far: the role is within the actor's reach. */
async function withinReach(tx: Executor, roleCode: string, caller: ScopedCaller) {
  return (await lockedRoleGrants(tx, roleCode)).every((g) => mayGive(caller, g.name, g.scope));
}

/** Roles none of whose permissions the caller lacks, or holds less far than the role. */
function assignableRoles(caller: ScopedCaller) {
  const widerThanHeld = [...caller.scopes].map(([name, scope]) =>
    and(
      eq(permissions.permissionName, name),
      notInArray(
        rolePermissions.scope,
        PERMISSION_SCOPES.filter((s) => scopeCovers(scope, s)),
      ),
    ),
  );
  return sql`not exists (select 1 from ${rolePermissions} join ${permissions}
    on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
    where ${rolePermissions.roleCode} = ${roles.roleCode}
    and ${or(notInArray(permissions.permissionName, [...caller.permissions]), ...widerThanHeld)})`;
}

/** The scopes of the permissions a fetched role holds, by code. */
function heldScopes(role: Row | undefined): Map<string, PermissionScope> {
  const list = role?.rolePermissions;
  const scopes = fieldsAt(role ?? {}, 'permissionScopes');
  return new Map(
    (Array.isArray(list) ? list : []).flatMap((p: unknown) => {
      const code = textAt(p !== null && typeof p === 'object' ? { ...p } : undefined, 'permissionCode');
      const scope = PERMISSION_SCOPES.find((s) => s === scopes.get(code ?? ''));
      return code ? [[code, scope ?? 'all'] as const] : [];
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
  // A revoked token still names its role, so that its list entry keeps saying what it could do.
  dependents: [
    { column: users.roleCode, one: 'user', many: 'users' },
    { column: apiTokens.roleCode, one: 'API token', many: 'API tokens' },
  ],
  reads: [rolePermissions, permissions],
  listFlags: [
    {
      param: ASSIGNABLE_FLAG,
      where: (held, scopes) => {
        const caller = { userCode: '', permissions: held, scopes };
        return holdsEverything(caller) ? undefined : assignableRoles(caller);
      },
    },
  ],
  async toRow(input) {
    return { roleName: input.roleName, roleDescription: input.roleDescription, requireMfa: input.requireMfa };
  },
  /**
   * Only permissions the actor holds may be added, and none at a wider scope than the actor holds
   * it. Those the role already has stay even when the actor lacks them (editing its name must not
   * strip them), and removing or narrowing is always allowed.
   */
  async authorize(input, ctx, existing) {
    const caller = delegator(ctx);
    if (!input || holdsEverything(caller)) return;
    const had = heldScopes(existing);
    const scopeOf = (code: string) => input.permissionScopes[code] ?? 'all';
    const widened = [...new Set(input.rolePermissions)].filter((c) => {
      const before = had.get(c);
      return before === undefined || !scopeCovers(before, scopeOf(c));
    });
    if (widened.length === 0) return;
    // Unknown codes are left to `validate`, which names them in a 400.
    const granted = await ctx.tx
      .select({ code: permissions.permissionCode, name: permissions.permissionName })
      .from(permissions)
      .where(inArray(permissions.permissionCode, widened));
    if (granted.some((p) => heldScope(caller, p.name) === null))
      throw forbidden('You cannot grant permissions you do not hold');
    if (granted.some((p) => !mayGive(caller, p.name, scopeOf(p.code))))
      throw forbidden('You cannot grant a permission for more records than you hold it for');
  },
  async validate(input, { tx }) {
    const wanted = [...new Set(input.rolePermissions)];
    const names = await permissionNames(tx, wanted);
    const unknown = wanted.filter((c) => !names.has(c));
    if (unknown.length) {
      throw badRequest('Invalid input', [
        { field: 'rolePermissions', message: `Unknown permission: ${unknown.slice(0, 5).join(', ')}` },
      ]);
    }
    const scopeErrors = Object.entries(input.permissionScopes).flatMap(([code, scope]) => {
      const why = scopeRefusal(names.get(code), scope);
      return why ? [{ field: `permissionScopes.${code}`, message: why }] : [];
    });
    if (scopeErrors.length) throw badRequest('Invalid input', scopeErrors.slice(0, 5));
  },
  async afterWrite(code, input, { tx }, existing) {
    const wanted = [...new Set(input.rolePermissions)];
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleCode, code));
    if (wanted.length) {
      await tx.insert(rolePermissions).values(
        wanted.map((permissionCode) => ({
          roleCode: code,
          permissionCode,
          scope: input.permissionScopes[permissionCode] ?? 'all',
        })),
      );
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
        scope: rolePermissions.scope,
      })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
      .where(inArray(rolePermissions.roleCode, codes))
      .orderBy(asc(permissions.id));
    for (const r of records) {
      const held = rows.filter((p) => p.roleCode === r.roleCode);
      r.rolePermissions = held.map(({ permissionCode, permissionName }) =>
        populate ? { permissionCode, permissionName } : { permissionCode },
      );
      r.permissionScopes = Object.fromEntries(held.map((p) => [p.permissionCode, p.scope]));
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
  searchFields: ['username', 'email'],
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
  async authorize(input, ctx, existing) {
    const { tx, actor } = ctx;
    const caller = delegator(ctx);
    const own = ownAccountRefusal(
      actor.userCode,
      textAt(existing, 'userCode') ?? '',
      input?.password ? 'password' : undefined,
    );
    if (own) throw forbidden(own);
    // Nobody, the Administrator neither, disables their own user: nobody may be left to enable it.
    if (existing && input?.active === false && existing.userCode === actor.userCode) {
      throw forbidden(USER_ACTIVE_MESSAGES.self);
    }
    if (holdsEverything(caller)) return;
    if (existing) {
      const current = textAt(existing, 'role.roleCode') ?? '';
      if (input && existing.userCode === actor.userCode && input.roleCode !== current) {
        throw forbidden('You cannot change your own role');
      }
      if (!(await withinReach(tx, current, caller))) {
        throw forbidden(
          input
            ? 'You cannot change a user whose role has permissions you do not hold'
            : 'You cannot delete a user whose role has permissions you do not hold',
        );
      }
      if (!input || input.roleCode === current) return;
    }
    if (input && !(await withinReach(tx, input.roleCode, caller))) {
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
    const { username, email, roleCode, active } = input;
    return {
      username,
      email,
      roleCode,
      // Absent (an update that does not name it): left as it is.
      ...(active === undefined ? {} : { active }),
      ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    };
  },
  /**
   * Everything a change of the user brings about happens here, in the change's transaction, for
   * whoever makes it (a screen, an API call, provisioning): disabling ends every session of the
   * user at once; the `users` row changed, so every instance drops its kept session and API token
   * lookups, which read `active` too.
   */
  async afterWrite(code, input, { tx, sessionIdHash }, existing) {
    if (!existing) return;
    if (input.active === false) await revokeOtherSessions(tx, code);
    // A new password ends every session of that user; the editor's own is never among them, since
    // nobody sets their own password here.
    else if (input.password) await revokeOtherSessions(tx, code, sessionIdHash);
    await assertSomeoneManagesRoles(tx);
  },
  async beforeDelete(existing, { tx, actor }) {
    if (existing.userCode === actor.userCode) throw conflict('You cannot delete your own user');
    await assertSomeoneManagesRoles(tx, textAt(existing, 'userCode'));
  },
});
