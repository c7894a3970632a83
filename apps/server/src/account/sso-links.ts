import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { permissions, rolePermissions, ssoIdentities, users } from '../db/schema/index.ts';
import { nameLinkAllowed } from './sso-rules.ts';

/*
 * Provider accounts linked to console users (table `sso_identities`): what a single sign-on looks
 * up, and what a user manager sees and changes.
 */

/** The user a provider account is linked to, found by the pair the provider never reassigns. */
export async function linkedUser(db: Executor, issuer: string, subject: string) {
  const [row] = await db
    .select({ userCode: users.userCode, username: users.username })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.userCode, ssoIdentities.userCode))
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));
  return row;
}

/**
 * The user whose identity provider id (SCIM `externalId`, set by provisioning) is this subject:
 * an identity provider that provisions users by the id it also signs them in with (Okta's user id
 * is both) has said who the account is.
 */
export async function provisionedUser(db: Executor, subject: string) {
  const [row] = await db
    .select({ userCode: users.userCode, username: users.username })
    .from(users)
    .where(eq(users.externalId, subject));
  return row;
}

/** Marks a linked account as used now, under the name the provider gave it this time. */
export const identityUsed = (db: Executor, issuer: string, subject: string, providerUsername: string) =>
  db
    .update(ssoIdentities)
    .set({ lastUsedAt: new Date(), providerUsername: providerUsername.slice(0, 200) })
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));

/** The permission names of a user's role, for the linking rule. */
export async function rolePermissionNames(db: Executor, roleCode: string): Promise<string[]> {
  const rows = await db
    .select({ name: permissions.permissionName })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(eq(rolePermissions.roleCode, roleCode));
  return rows.map((r) => r.name);
}

/** The user whose username is `folded` (ASCII case folded), with whether a name may link to them. */
export async function userByName(db: Executor, folded: string) {
  const [user] = await db
    .select({
      userCode: users.userCode,
      username: users.username,
      roleCode: users.roleCode,
      ssoLinking: users.ssoLinking,
    })
    .from(users)
    .where(sql`lower(${users.username}) = ${folded}`);
  if (!user) return undefined;
  const allowed = nameLinkAllowed(user.ssoLinking, await rolePermissionNames(db, user.roleCode));
  return { userCode: user.userCode, username: user.username, linkAllowed: allowed };
}

/**
 * Links a provider account to a user. False when the user already has another account of this
 * provider, or the account is linked to someone (the unique keys say so, on every instance).
 */
export async function linkIdentity(
  db: Executor,
  link: { issuer: string; subject: string; userCode: string; providerUsername?: string | undefined },
): Promise<boolean> {
  const rows = await db
    .insert(ssoIdentities)
    .values({ ...link, providerUsername: link.providerUsername?.slice(0, 200) })
    .onConflictDoNothing()
    .returning({ userCode: ssoIdentities.userCode });
  return rows.length === 1;
}
