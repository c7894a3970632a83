import {
  type AuditAction,
  RESOURCES,
  recordEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookRecordVerb,
} from '@wfc/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { rowsOf } from '../db/rows.ts';

/*
 * The webhooks' outbox (docs/architecture.md, "Webhooks"): an audited change becomes an event in
 * the transaction that makes the change, with one delivery per subscription that names its type.
 * A rolled-back change leaves neither; the delivery worker (delivery.ts) sends what committed.
 */

/** The audit collection of the performance grid's saves (performance/save/save.ts). */
export const PERFORMANCE_COLLECTION = 'performances';

const VERBS: Partial<Record<AuditAction, WebhookRecordVerb>> = {
  CREATE: 'created',
  UPDATE: 'updated',
  DELETE: 'deleted',
  RESTORE: 'restored',
};

const BY_SEGMENT = new Map(RESOURCES.map((def) => [def.listSegment, def]));
const BY_KEY = new Map<string, (typeof RESOURCES)[number]>(RESOURCES.map((def) => [def.key, def]));
const KNOWN_TYPES = new Set(WEBHOOK_EVENT_TYPES);

/** The registry module an event's `data.module` names, for need-to-know at send time. */
export const definitionOfModule = (key: string) => BY_KEY.get(key);

export interface EventSource {
  action: AuditAction;
  collection: string;
}

/** What an audited change tells subscribers: its event type and the module it names. */
export interface MappedEvent {
  type: string;
  module: string;
}

/**
 * Pure: the event an audit entry is, if any. A registry module's create, update, delete and
 * restore are `{key}.created` and so on; a save of the performance grid is `performance.saved`;
 * an import into a module is `import.committed`. Sign-ins, refusals, purges and everything else
 * are not events.
 */
export function eventOf(entry: EventSource): MappedEvent | undefined {
  if (entry.action === 'IMPORT' && entry.collection === PERFORMANCE_COLLECTION) {
    return { type: 'import.committed', module: 'performance' };
  }
  if (entry.collection === PERFORMANCE_COLLECTION) {
    return entry.action === 'CREATE' || entry.action === 'UPDATE'
      ? { type: 'performance.saved', module: 'performance' }
      : undefined;
  }
  const def = BY_SEGMENT.get(entry.collection);
  if (!def) return undefined;
  if (entry.action === 'IMPORT') return { type: 'import.committed', module: def.key };
  const verb = VERBS[entry.action];
  if (!verb) return undefined;
  const type = recordEventType(def.key, verb);
  return KNOWN_TYPES.has(type) ? { type, module: def.key } : undefined;
}

export interface WebhookActor {
  userCode: string;
  username: string;
}

/** What a receiver gets, as stored once per event (need-to-know fields leave at send time). */
export interface WebhookPayload {
  id: string;
  type: string;
  timestamp: string;
  actor: WebhookActor | null;
  data: Record<string, unknown>;
}

export interface OutboxEvent {
  type: string;
  /** Deliveries about one record go out in the order of their events; none: in no order. */
  recordCode: string | null;
  actor: WebhookActor | null;
  data: Record<string, unknown>;
}

/** A new event's id, as Standard Webhooks' `webhook-id` carries it. */
export const newEventId = () => newCode('msg_');

/** Pure: the stored payload of an event. */
export function payloadOf(event: OutboxEvent, id: string, at: Date): WebhookPayload {
  const actor = event.actor && { userCode: event.actor.userCode, username: event.actor.username };
  return { id, type: event.type, timestamp: at.toISOString(), actor, data: event.data };
}

/** A random delivery code, made by the database: deliveries are inserted by a set-based statement. */
const deliveryCode = sql.raw(
  `'WHDELIVERY-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 20))`,
);

/**
 * Queues events in one statement: each is stored, with a delivery to every active subscription
 * naming its type, only when at least one does; none does, and nothing is written. `onlyWebhook`
 * queues for that one subscription whatever it names (a test event).
 */
/**
 * A batch this large first asks which of its types any active subscription names, so that a bulk
 * write (an import's thousand creates) does not send every record to the database to be dropped.
 */
const ASK_FIRST = 20;

/** The events of the batch whose type an active subscription names. */
async function subscribedOnly(db: Executor, events: readonly OutboxEvent[]) {
  const types = [...new Set(events.map((e) => e.type))];
  const subscribed = await rowsOf<{ type: string }>(
    db,
    sql`select t.type from jsonb_array_elements_text(${JSON.stringify(types)}::jsonb) as t(type)
        where exists (select 1 from webhooks w where w.active and w.events @> jsonb_build_array(t.type))`,
  );
  const named = new Set(subscribed.map((r) => r.type));
  return events.filter((e) => named.has(e.type));
}

export async function queueEvents(
  db: Executor,
  events: readonly OutboxEvent[],
  onlyWebhook?: string,
): Promise<void> {
  if (!events.length) return;
  const wanted = onlyWebhook || events.length < ASK_FIRST ? events : await subscribedOnly(db, events);
  if (!wanted.length) return;
  const now = new Date();
  const rows = wanted.map((event, ord) => {
    const id = newEventId();
    return {
      ord,
      eventId: id,
      type: event.type,
      recordCode: event.recordCode,
      payload: payloadOf(event, id, now),
    };
  });
  const subscribed = onlyWebhook
    ? sql`w.webhook_code = ${onlyWebhook}`
    : sql`w.active and w.events @> jsonb_build_array(x.type)`;
  const matched = onlyWebhook
    ? sql`w.webhook_code = ${onlyWebhook}`
    : sql`w.active and w.events @> jsonb_build_array(e.type)`;
  await db.execute(sql`
    with x as (
      select x.ord, x."eventId", x.type, x."recordCode", x.payload
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(ord int, "eventId" text, type text, "recordCode" text, payload jsonb)
      where exists (select 1 from webhooks w where ${subscribed})
    ), e as (
      insert into webhook_events (event_id, type, record_code, payload)
      select x."eventId", x.type, x."recordCode", x.payload from x order by x.ord
      returning id, event_id, type, record_code
    )
    insert into webhook_deliveries (delivery_code, webhook_code, event_id, order_key, event_seq)
    select ${deliveryCode}, w.webhook_code, e.event_id, coalesce(e.record_code, e.event_id), e.id
    from e join webhooks w on ${matched}
    order by e.id, w.webhook_code`);
}

export interface AuditedChange extends EventSource {
  recordCode: string | null;
  /** The audit's `after`, already free of secrets; absent for a delete. */
  after: unknown;
  actor: WebhookActor | null;
}

/** Pure: the events audit entries are (those that are any). */
export function eventsOfAudits(entries: readonly AuditedChange[]): OutboxEvent[] {
  return entries.flatMap((entry) => {
    const mapped = eventOf(entry);
    if (!mapped) return [];
    const data: Record<string, unknown> = { module: mapped.module, code: entry.recordCode };
    // A deletion tells only the code: the record is gone (to the recycle bin).
    if (entry.action !== 'DELETE' && entry.after !== null && entry.after !== undefined) {
      data.record = entry.after;
    }
    return [{ type: mapped.type, recordCode: entry.recordCode, actor: entry.actor, data }];
  });
}

/**
 * The event of an account locked out by failed sign-ins (its throttle key `user:{name}`), with the
 * name tried only: no address, no user code, for the name may be nobody's. Best effort, outside
 * any transaction: the refusal is what matters.
 */
export async function tellAccountLocked(db: Executor, accountKey: string) {
  const username = accountKey.slice('user:'.length);
  await queueEvents(db, [
    { type: 'user.signed_in_failed_repeatedly', recordCode: null, actor: null, data: { username } },
  ]).catch(() => undefined);
}
