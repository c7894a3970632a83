import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { CODE_ALPHABET } from '../db/codes.ts';
import { firstRow } from '../db/rows.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The same code shape as newCode(), computed by the database so that set-based inserts need no
 * round trip per row. Each base64 digit keeps its low 5 bits (index mod 32), so 16 digits of a
 * version-4 UUID give about 74 random bits: no collision is to be expected at tens of millions.
 */
export const codeSql = (prefix: string): SQL =>
  sql`${prefix}::text || translate(substr(encode(uuid_send(gen_random_uuid()), 'base64'), 1, 16), ${BASE64}::text, ${CODE_ALPHABET + CODE_ALPHABET}::text)`;

/** The loaders and their tests call `rowsOf` by this shorter name. */
export { rowsOf as rows } from '../db/rows.ts';

/**
 * Rows of a JSON array as a relation, so that one statement inserts a whole list: a single
 * parameter instead of one placeholder per value keeps large lists within the protocol's limits.
 */
export const jsonRecords = (records: readonly object[], columns: SQL): SQL =>
  sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${columns})`;

export async function countOf(db: Executor, table: PgTable, where?: SQL): Promise<number> {
  const r = await firstRow<{ n: string | number }>(
    db,
    sql`select count(*) as n from ${table}${where ? sql` where ${where}` : sql``}`,
  );
  return Number(r?.n ?? 0);
}
