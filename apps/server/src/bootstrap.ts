import { randomBytes } from 'node:crypto';
import { PERMISSION_CATALOGUE } from '@wfc/contract';
import { count, eq, sql } from 'drizzle-orm';
import { recordAudit } from './audit/recorder.ts';
import { hashPassword } from './auth/passwords.ts';
import { revokeOtherSessions } from './auth/sessions.ts';
import type { Database } from './db/client.ts';
import { newCode } from './db/codes.ts';
import { permissions, rolePermissions, roles, sessions, users } from './db/schema/index.ts';
import { pgError } from './http/errors.ts';
import { users$ } from './resources/definitions/access.ts';
import { fetchOne } from './resources/read.ts';

export const ADMIN_ROLE = 'Administrator';
export const ADMIN_USERNAME = 'admin';

/** Random, 18 characters, and meets the password rule (a lowercase letter and a number). */
const generatePassword = () => `${randomBytes(12).toString('base64url')}a1`;

export interface BootstrapResult {
  createdAdmin: boolean;
  /** Set only when a password was generated: the caller prints it once. */
  generatedPassword?: string;
}

/**
 * Idempotent: inserts any missing permission of the catalogue; on an empty database creates the
 * Administrator role with every permission and the admin user (docs/product.md section 1).
 */
export async function bootstrap(db: Database, adminPassword?: string): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    for (const p of PERMISSION_CATALOGUE) {
      await tx
        .insert(permissions)
        .values({
          permissionCode: newCode('PERM-'),
          permissionName: p.name,
          permissionDescription: p.description,
        })
        // A description corrected in a later version reaches databases seeded before it.
        .onConflictDoUpdate({
          target: permissions.permissionName,
          set: { permissionDescription: p.description },
          setWhere: sql`${permissions.permissionDescription} is distinct from ${p.description}`,
        });
    }
    const [existing] = await tx.select({ n: count() }).from(users);
    if (Number(existing?.n) > 0) {
      // Keep the Administrator role complete when the catalogue grows.
      const [admin] = await tx
        .select({ roleCode: roles.roleCode })
        .from(roles)
        .where(eq(roles.roleName, ADMIN_ROLE));
      if (admin) {
        await tx.execute(sql`insert into ${rolePermissions} (role_code, permission_code)
          select ${admin.roleCode}, permission_code from ${permissions} on conflict do nothing`);
      }
      return { createdAdmin: false };
    }
    const roleCode = newCode('ROLE-');
    await tx
      .insert(roles)
      .values({ roleCode, roleName: ADMIN_ROLE, roleDescription: 'Holds every permission' });
    await tx.execute(sql`insert into ${rolePermissions} (role_code, permission_code)
      select ${roleCode}, permission_code from ${permissions}`);
    const generated = adminPassword ? undefined : generatePassword();
    await tx.insert(users).values({
      userCode: newCode('USER-'),
      username: ADMIN_USERNAME,
      email: 'admin@example.com',
      passwordHash: await hashPassword(adminPassword || generated!),
      roleCode,
    });
    return { createdAdmin: true, generatedPassword: generated };
  });
}

/**
 * The line every command that may create `admin` prints: the generated password, once, since
 * only its hash is kept. Nothing when `admin` already existed.
 */
export function adminCreatedMessage(boot: BootstrapResult): string | undefined {
  if (!boot.createdAdmin) return undefined;
  return boot.generatedPassword
    ? `Created user '${ADMIN_USERNAME}' with the generated password: ${boot.generatedPassword} (shown once; set ADMIN_PASSWORD to choose it, npm run admin:reset-password to replace it)`
    : `Created user '${ADMIN_USERNAME}' with the password from ADMIN_PASSWORD`;
}

/** A reset found no user to reset: the database is not set up, or `admin` was renamed or deleted. */
export class NoAdminError extends Error {}

export interface ResetResult {
  /** Set only when a password was generated: the caller prints it once. */
  generatedPassword?: string;
  /** The sessions of `admin` that the reset ended. */
  sessionsEnded: number;
}

/**
 * Gives `admin` a new password (the chosen one, or a generated one) and ends all of its sessions,
 * audited as a password change through `UpdateUser` is (`passwordChanged: true`, never the value),
 * with no acting user.
 */
export async function resetAdminPassword(db: Database, chosen?: string): Promise<ResetResult> {
  const generated = chosen ? undefined : generatePassword();
  const passwordHash = await hashPassword(chosen || generated!);
  const missing = `There is no user '${ADMIN_USERNAME}'`;
  return db.transaction(async (tx) => {
    const [admin] = await tx
      .select({ userCode: users.userCode })
      .from(users)
      .where(sql`lower(${users.username}) = ${ADMIN_USERNAME}`)
      .for('update')
      .catch((err: unknown) => {
        // 42P01: no such table, a database never migrated.
        if (pgError(err)?.code !== '42P01') throw err;
        throw new NoAdminError(`${missing}: the database is empty; run npm run db:migrate first`);
      });
    if (!admin) throw new NoAdminError(`${missing}: it was renamed or deleted`);
    const before = await fetchOne(tx, users$, admin.userCode);
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), version: sql`${users.version} + 1` })
      .where(eq(users.userCode, admin.userCode));
    const ended = await revokeOtherSessions(tx, admin.userCode).returning({ idHash: sessions.idHash });
    const after = await fetchOne(tx, users$, admin.userCode);
    await recordAudit(tx, {
      action: 'UPDATE',
      collection: users$.def.listSegment,
      recordCode: admin.userCode,
      before,
      after: { ...after, passwordChanged: true },
      actor: null,
    });
    return { generatedPassword: generated, sessionsEnded: ended.length };
  });
}
