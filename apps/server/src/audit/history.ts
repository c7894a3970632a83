import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { audits } from '../db/schema/index.ts';

/** Who last changed a record, and when (`YYYY-MM-DD HH:MM:SS`, UTC): a conflict's message says it. */
export interface LastChange {
  username: string | null;
  at: string;
}

/** An instant as a conflict's message shows it, in UTC: `2026-11-25 08:15:04`. */
export const auditTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/**
 * The latest audit entry of each of these records of one collection, through the audits'
 * (collection, record_code, id) index. A record without any entry is absent from the map.
 */
export async function lastChanges(
  db: Executor,
  collection: string,
  codes: readonly string[],
): Promise<Map<string, LastChange>> {
  if (!codes.length) return new Map();
  const rows = await db
    .selectDistinctOn([audits.recordCode], {
      code: audits.recordCode,
      username: audits.username,
      at: audits.createdAt,
    })
    .from(audits)
    .where(and(eq(audits.collection, collection), inArray(audits.recordCode, [...codes])))
    .orderBy(audits.recordCode, desc(audits.id));
  return new Map(
    rows.flatMap((r) => (r.code ? [[r.code, { username: r.username, at: auditTime(r.at) }] as const] : [])),
  );
}
