import { randomBytes } from 'node:crypto';
import { PERMISSION_CATALOGUE } from '@wfc/contract';
import { count, eq, sql } from 'drizzle-orm';
import { hashPassword } from './auth/passwords.ts';
import type { Database } from './db/client.ts';
import { newCode } from './db/codes.ts';
import { permissions, rolePermissions, roles, users } from './db/schema/index.ts';

export const ADMIN_ROLE = 'Administrator';
export const ADMIN_USERNAME = 'admin';

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
        .onConflictDoNothing({ target: permissions.permissionName });
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
    const generated = adminPassword ? undefined : `${randomBytes(12).toString('base64url')}a1`;
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
