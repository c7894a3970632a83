import { createHash, randomBytes } from 'node:crypto';
import { PERMISSION_SCOPES, type PermissionScope } from '@wfc/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import type { QueryCache } from '../db/query-cache.ts';
import { permissions, rolePermissions, roles, sessions, userMfa, users } from '../db/schema/index.ts';

export const newSessionId = () => randomBytes(16).toString('base64url');
export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Attributes shared by the cookie that sets the session and the one that clears it: a browser
 * drops a `__Host-` cookie without Secure, so a clearing cookie without it would leave the old id.
 */
export const sessionCookieOptions = (secure: boolean) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure,
});

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Pure: is a session with these times still alive at `now`? */
export function sessionAlive(
  s: { createdAt: Date; lastSeenAt: Date },
  policy: SessionPolicy,
  now: Date,
): boolean {
  const t = now.getTime();
  return t - s.lastSeenAt.getTime() < policy.idleMs && t - s.createdAt.getTime() < policy.absoluteMs;
}

export async function createSession(
  db: Executor,
  userCode: string,
  policy: SessionPolicy,
  meta: { ip?: string; userAgent?: string },
): Promise<string> {
  const id = newSessionId();
  await db.insert(sessions).values({
    idHash: hashSessionId(id),
    sessionCode: newCode('SESSION-'),
    userCode,
    expiresAt: new Date(Date.now() + policy.absoluteMs),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300),
  });
  return id;
}

export interface ActiveSession {
  idHash: string;
  userCode: string;
  username: string;
  permissions: Set<string>;
  /** The permissions the role holds for fewer than all records, by name; every other is `all`. */
  scopes: ReadonlyMap<string, PermissionScope>;
  /** The role requires a second factor the user has not set up: only enrolment is open. */
  mfaSetupRequired: boolean;
}

/**
 * Idle expiry slides, with at most one write a minute per session; never less often than four
 * times per idle period, or a short idle expiry would end a session that is in use.
 */
export const touchAfterMs = (policy: SessionPolicy) => Math.min(60_000, policy.idleMs / 4);

/**
 * The lookup every request makes, built and planned once per database: a prepared statement
 * skips the query builder in Node and the planner in PostgreSQL. A disabled user has no session:
 * disabling deletes them, and one that slipped through (begun as the user was disabled) is none.
 */
function sessionLookup(db: Database) {
  return db
    .select({
      userCode: sessions.userCode,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      username: users.username,
      permissionNames: sql<string[] | null>`(select array_agg(${permissions.permissionName})
        from ${rolePermissions} join ${permissions} on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
        where ${rolePermissions.roleCode} = ${users.roleCode})`,
      // `NAME:scope` for each permission held for fewer than all records.
      scopedNames: sql<
        string[] | null
      >`(select array_agg(${permissions.permissionName} || ':' || ${rolePermissions.scope})
        from ${rolePermissions} join ${permissions} on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
        where ${rolePermissions.roleCode} = ${users.roleCode} and ${rolePermissions.scope} <> 'all')`,
      mfaSetupRequired: sql<boolean>`(${roles.requireMfa} and not exists (select 1 from ${userMfa}
        where ${userMfa.userCode} = ${users.userCode} and ${userMfa.enabledAt} is not null))`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.userCode, sessions.userCode))
    .innerJoin(roles, eq(roles.roleCode, users.roleCode))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), eq(users.active, true)))
    .prepare('wfc_session_lookup');
}
const lookups = new WeakMap<Database, ReturnType<typeof sessionLookup>>();

/** Every table the lookup reads: a kept lookup is used only while none of them has changed. */
export const SESSION_READS = ['sessions', 'users', 'roles', 'role_permissions', 'permissions', 'user_mfa'];

/**
 * The session of a cookie's id, with its user's permissions, or undefined. `kept` (the services'
 * session cache) answers a lookup again until one of `SESSION_READS` changes, on any instance:
 * a sign-out, a revocation, a role's new permissions or a deleted user all write one of them, and
 * a write request answers only once its own change has been counted. Its times are still checked
 * against `now` on every request, so expiry does not wait for a change.
 */
export async function resolveSession(
  db: Database,
  id: string,
  policy: SessionPolicy,
  now = new Date(),
  kept?: QueryCache,
): Promise<ActiveSession | undefined> {
  const idHash = hashSessionId(id);
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = sessionLookup(db);
    lookups.set(db, lookup);
  }
  const read = async () => (await lookup.execute({ idHash }))[0] ?? null;
  const row = kept ? await kept.get(['session', idHash], SESSION_READS, read) : await read();
  if (!row) return undefined;
  if (!sessionAlive(row, policy, now)) {
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    return undefined;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > touchAfterMs(policy)) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
  }
  return {
    idHash,
    userCode: row.userCode,
    username: row.username,
    permissions: new Set(row.permissionNames ?? []),
    scopes: scopesOf(row.scopedNames ?? []),
    mfaSetupRequired: row.mfaSetupRequired,
  };
}

/** Pure: `NAME:scope` pairs as a map from permission name to scope; anything else is left out. */
export function scopesOf(pairs: readonly string[]): Map<string, PermissionScope> {
  const out = new Map<string, PermissionScope>();
  for (const pair of pairs) {
    const at = pair.lastIndexOf(':');
    const scope = PERMISSION_SCOPES.find((s) => s === pair.slice(at + 1));
    if (at > 0 && scope) out.set(pair.slice(0, at), scope);
  }
  return out;
}

export const revokeSession = (db: Executor, idHash: string) =>
  db.delete(sessions).where(eq(sessions.idHash, idHash));

/** A password change ends every other session of the user; deleting a user ends them all (cascade). */
export const revokeOtherSessions = (db: Executor, userCode: string, keepIdHash?: string) =>
  db
    .delete(sessions)
    .where(
      keepIdHash
        ? and(eq(sessions.userCode, userCode), ne(sessions.idHash, keepIdHash))
        : eq(sessions.userCode, userCode),
    );
