import type { Database } from '../db/client.ts';

/** Demo data (DECISIONS.md section 7). */
export async function seedDemo(_db: Database): Promise<Record<string, number>> {
  return {};
}
