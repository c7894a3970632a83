import type { MySessionRecord } from '@wfc/contract';
import { desc, eq } from 'drizzle-orm';
import { type SessionPolicy, sessionAlive } from '../auth/sessions.ts';
import type { Executor } from '../db/client.ts';
import { sessions } from '../db/schema/index.ts';

/**
 * A user's live sessions, most recently used first, as the user (or an administrator) sees them:
 * by code, never by id or hash. Expired rows linger until their cookie comes back; they are left out.
 */
export async function listSessions(
  db: Executor,
  userCode: string,
  policy: SessionPolicy,
  currentIdHash: string,
): Promise<MySessionRecord[]> {
  const rows = await db
    .select({
      idHash: sessions.idHash,
      sessionCode: sessions.sessionCode,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(eq(sessions.userCode, userCode))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  const now = new Date();
  return rows
    .filter((r) => sessionAlive(r, policy, now))
    .map((r) => ({
      sessionCode: r.sessionCode,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      ipAddress: r.ip,
      userAgent: r.userAgent,
      current: r.idHash === currentIdHash,
    }));
}
