import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt, version } from './columns.ts';

/**
 * Webhook subscriptions: a URL told of the events it names. The signing secret is kept encrypted
 * (auth/secret-box.ts): the console must sign with it, so a hash would not do.
 */
export const webhooks = pgTable('webhooks', {
  id: id(),
  webhookCode: text('webhook_code').notNull().unique(),
  url: text('url').notNull(),
  /** Event types (`employee.created`, `performance.saved`, ...). */
  events: jsonb('events').$type<string[]>().notNull().default([]),
  description: text('description'),
  secret: text('secret').notNull(),
  /** Whether the records it is sent carry their need-to-know fields (docs/privacy.md). */
  includePersonalData: boolean('include_personal_data').notNull().default(false),
  /** A paused subscription is told of nothing; what was queued stays queued. */
  active: boolean('active').notNull().default(true),
  // No foreign key: the subscription's history must outlive the user who made it.
  createdByCode: text('created_by_code'),
  createdByName: text('created_by_name'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
});

/**
 * The outbox: one row per event, written in the transaction of the change it tells of, so a
 * rolled-back change has none. `id` orders the events.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    eventId: text('event_id').notNull().unique(),
    type: text('type').notNull(),
    /** The record the event is about, if any: deliveries for one record go out in order. */
    recordCode: text('record_code'),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_created').on(t.createdAt)],
);

/** One event for one subscription: sent until it succeeds, or failed after a day of retries. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    deliveryCode: text('delivery_code').notNull().unique(),
    webhookCode: text('webhook_code')
      .notNull()
      .references(() => webhooks.webhookCode, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.eventId, { onDelete: 'cascade' }),
    /** 'pending' until answered with a 2xx ('succeeded') or out of retries ('failed'). */
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The receiver's answer code to the last attempt; null when it did not answer. */
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** For in-order delivery: the event's record, or the event itself when it has none. */
    orderKey: text('order_key').notNull(),
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook').on(t.webhookCode, t.id),
    index('webhook_deliveries_order').on(t.webhookCode, t.orderKey, t.eventSeq),
    index('webhook_deliveries_event').on(t.eventId),
  ],
);
