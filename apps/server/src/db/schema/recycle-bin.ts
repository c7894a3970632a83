import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id } from './columns.ts';

/**
 * Deleted registry records, kept until restored, deleted permanently or aged out (docs/product.md,
 * "Recycle bin"). The record's own row is gone from its table, so lists, selectors, references and
 * unique checks never meet it; what is kept here is enough to put it back as it was.
 */
export const deletedRecords = pgTable(
  'deleted_records',
  {
    id: id(),
    /** The module's list segment, as the audit log names it (`departments`). */
    collection: text('collection').notNull(),
    recordCode: text('record_code').notNull(),
    /** The record's name when it was deleted: what the bin lists and its keyword matches. */
    name: text('name').notNull(),
    /** The user the record is about (a profile's, an employee's user), for erasure and access requests. */
    ownerCode: text('owner_code'),
    /** The record as the API answered it before the delete. */
    record: jsonb('record').notNull(),
    /**
     * The stored rows the delete removed, by table, parents first: the record's own row and those
     * its foreign keys' cascades took with it (a role's permissions, a profile's picture).
     */
    rows: jsonb('rows').notNull(),
    // Who deleted it is the DELETE audit entry's actor, which erasure redacts there.
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A code is in the bin at most once: a restored and deleted again record replaces its entry.
    uniqueIndex('deleted_records_record').on(t.collection, t.recordCode),
    index('deleted_records_collection_deleted').on(t.collection, t.deletedAt, t.id),
    // The retention purge walks the bin by age.
    index('deleted_records_deleted_at').on(t.deletedAt),
    index('deleted_records_owner').on(t.ownerCode),
  ],
);
