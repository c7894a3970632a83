import { sql } from 'drizzle-orm';
import { bigint, customType, integer, timestamp } from 'drizzle-orm/pg-core';

/** Internal key: creation order, which is what the lists' `_id` sort means. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A record's version: 1 when created, one more with every update. A writer that names the version
 * it read is refused when the record has moved on since (optimistic concurrency).
 */
export const version = () => integer('version').notNull().default(1);

export const lower = (col: unknown) => sql`lower(${col})`;
export const trgm = (col: unknown) => sql`${col} gin_trgm_ops`;

/** Bytes as PostgreSQL stores them; read back as a Buffer on either database. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});
