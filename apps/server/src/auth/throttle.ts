import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginThrottle } from '../db/schema/index.ts';

export interface ThrottlePolicy {
  maxPerUser: number;
  maxPerIp: number;
  windowMs: number;
}

export const throttleKeys = (username: string, ip: string) => ({
  user: `user:${username.trim().toLowerCase()}`,
  ip: `ip:${ip}`,
});

/** Seconds until every block on these keys has lifted; 0 when sign-in may be tried now. */
export async function throttleWait(db: Database, keys: string[], now = new Date()): Promise<number> {
  const rows = await db
    .select({ blockedUntil: loginThrottle.blockedUntil })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

/**
 * Counts a failure in a fixed window; reaching the limit blocks the key until the window's
 * length has passed. The block always lifts by itself, so the real user is never locked out for good.
 */
export async function recordFailure(db: Database, key: string, limit: number, windowMs: number) {
  const windowStart = sql`now() - ${`${Math.round(windowMs)} milliseconds`}::interval`;
  await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStart: new Date() })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStart} < ${windowStart} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStart: sql`case when ${loginThrottle.windowStart} < ${windowStart} then now() else ${loginThrottle.windowStart} end`,
      },
    });
  await db.execute(
    sql`update ${loginThrottle} set blocked_until = now() + ${`${Math.round(windowMs)} milliseconds`}::interval, failures = 0, window_start = now()
        where ${loginThrottle.key} = ${key} and ${loginThrottle.failures} >= ${limit}`,
  );
}

export const clearThrottle = (db: Database, key: string) =>
  db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
