import { randomBytes } from 'node:crypto';
import {
  createdWebhookSchema,
  createWebhookSchema,
  deleteWebhookSchema,
  redeliverWebhookSchema,
  updateWebhookSchema,
  VIEW_PERSONAL_DATA,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryRecord,
  type WebhookRecord,
  webhookCodeSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryPageSchema,
  webhookDeliveryRecordSchema,
  webhookEventPermission,
  webhookRecordSchema,
} from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/recorder.ts';
import { loadSecretKey, type SecretKey, seal } from '../auth/secret-box.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { rowsOf } from '../db/rows.ts';
import { webhookDeliveries, webhooks } from '../db/schema/index.ts';
import { ApiError, badRequest, notFound, staleWrite } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';
import type { Services } from '../services.ts';
import { checkUrlAddresses, PrivateAddressError } from './addresses.ts';
import { queueEvents } from './events.ts';

/*
 * Integrations > Webhooks (docs/operations.md, "Webhooks"). API tokens holding MANAGE_INTEGRATIONS
 * may read subscriptions and their deliveries, send again, send a test event and delete; creating
 * and changing one takes a person's session: a subscription is a channel that would outlive the
 * token that opened it, as a token minted by a token would.
 */

const MANAGE = anyOf('MANAGE_INTEGRATIONS');

const keys = new WeakMap<Services['config'], Promise<SecretKey | undefined>>();

/** The key secrets are sealed with; a 503 where none is configured (PostgreSQL without SECRET_KEY). */
async function secretKey(services: Services): Promise<SecretKey> {
  let key = keys.get(services.config);
  if (!key) {
    key = loadSecretKey(services.config);
    keys.set(services.config, key);
  }
  const loaded = await key;
  if (!loaded) throw new ApiError(503, 'Webhooks are not available: SECRET_KEY is not set on this server');
  return loaded;
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A subscription carries records to a place outside the console: only what the caller may see of
 * every record (the module's view permission for all records; personal details with
 * VIEW_PERSONAL_DATA).
 */
function checkMaySend(session: ActiveSession, events: readonly string[], includePersonalData: boolean) {
  if (includePersonalData && !session.permissions.has(VIEW_PERSONAL_DATA)) {
    throw new ApiError(403, WEBHOOK_MESSAGES.personalData);
  }
  for (const type of events) {
    const needed = webhookEventPermission(type);
    if (needed && (!session.permissions.has(needed) || session.scopes.has(needed))) {
      throw new ApiError(403, WEBHOOK_MESSAGES.moduleHidden, [
        { field: 'events', message: `${WEBHOOK_MESSAGES.moduleHidden}: ${type}` },
      ]);
    }
  }
}

/** The address guard at create and update: a 400 on `url` unless WEBHOOK_ALLOW_PRIVATE. */
async function checkUrl(services: Services, url: string) {
  if (services.config.WEBHOOK_ALLOW_PRIVATE) return;
  try {
    await checkUrlAddresses(url);
  } catch (err) {
    if (!(err instanceof PrivateAddressError)) throw err;
    throw badRequest(WEBHOOK_MESSAGES.urlPrivate, [{ field: 'url', message: WEBHOOK_MESSAGES.urlPrivate }]);
  }
}

interface WebhookRow {
  webhookCode: string;
  url: string;
  events: string[];
  description: string | null;
  includePersonalData: boolean;
  active: boolean;
  createdByCode: string | null;
  createdByName: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  version: number;
  lastStatus: 'pending' | 'succeeded' | 'failed' | null;
  lastAt: Date | string | null;
  lastStatusCode: number | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toRecord(r: WebhookRow): WebhookRecord {
  return {
    webhookCode: r.webhookCode,
    url: r.url,
    events: r.events,
    description: r.description,
    includePersonalData: r.includePersonalData,
    active: r.active,
    createdBy: { userCode: r.createdByCode, username: r.createdByName },
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    version: r.version,
    lastDelivery:
      r.lastStatus && r.lastAt
        ? { status: r.lastStatus, at: new Date(r.lastAt).toISOString(), statusCode: r.lastStatusCode }
        : null,
  };
}

/** Subscriptions with their latest delivery (the newest queued): all, or one by code. */
async function readWebhooks(db: Executor, code?: string, lock = false): Promise<WebhookRecord[]> {
  const rows = await rowsOf<WebhookRow>(
    db,
    sql`
    select w.webhook_code as "webhookCode", w.url, w.events, w.description,
      w.include_personal_data as "includePersonalData", w.active, w.created_by_code as "createdByCode",
      w.created_by_name as "createdByName", w.created_at as "createdAt", w.updated_at as "updatedAt",
      w.version, l.status as "lastStatus", l.at as "lastAt", l.last_status_code as "lastStatusCode"
    from webhooks w
    left join lateral (
      select d.status, coalesce(d.last_attempt_at, d.created_at) as at, d.last_status_code
      from webhook_deliveries d where d.webhook_code = w.webhook_code
      order by d.id desc limit 1) l on true
    ${code === undefined ? sql`` : sql`where w.webhook_code = ${code}`}
    order by w.id desc
    ${lock ? sql`for update of w` : sql``}`,
  );
  return rows.map(toRecord);
}

async function oneWebhook(db: Executor, code: string, lock = false): Promise<WebhookRecord> {
  const [record] = await readWebhooks(db, code, lock);
  if (!record) throw notFound(WEBHOOK_MESSAGES.notFound);
  return record;
}

/** What the audit keeps of a subscription: never its secret. */
const audited = (r: WebhookRecord) => ({
  url: r.url,
  events: r.events,
  description: r.description,
  includePersonalData: r.includePersonalData,
  active: r.active,
});

interface DeliveryRow {
  deliveryCode: string;
  webhookCode: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date | string;
  lastAttemptAt: Date | string | null;
  nextAttemptAt: Date | string | null;
  completedAt: Date | string | null;
}

const deliveryColumns = sql`d.delivery_code as "deliveryCode", d.webhook_code as "webhookCode",
  d.event_id as "eventId", e.type as "eventType", d.status, d.attempts, d.last_status_code as "lastStatusCode",
  d.last_error as "lastError", d.created_at as "createdAt", d.last_attempt_at as "lastAttemptAt",
  d.next_attempt_at as "nextAttemptAt", d.completed_at as "completedAt"`;

function toDelivery(r: DeliveryRow): WebhookDeliveryRecord {
  return {
    deliveryCode: r.deliveryCode,
    webhookCode: r.webhookCode,
    eventId: r.eventId,
    eventType: r.eventType,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    createdAt: new Date(r.createdAt).toISOString(),
    lastAttemptAt: iso(r.lastAttemptAt),
    nextAttemptAt: r.status === 'pending' ? iso(r.nextAttemptAt) : null,
    completedAt: iso(r.completedAt),
  };
}

async function oneDelivery(db: Executor, deliveryCode: string): Promise<WebhookDeliveryRecord> {
  const [row] = await rowsOf<DeliveryRow>(
    db,
    sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events e on e.event_id = d.event_id
      where d.delivery_code = ${deliveryCode}`,
  );
  if (!row) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  return toDelivery(row);
}

/** The newest delivery of a subscription: what a test event just queued. */
async function newestDelivery(db: Executor, webhookCode: string): Promise<WebhookDeliveryRecord> {
  const [row] = await rowsOf<DeliveryRow>(
    db,
    sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events e on e.event_id = d.event_id
      where d.webhook_code = ${webhookCode} order by d.id desc limit 1`,
  );
  if (!row) throw new Error('The delivery just queued was not found');
  return toDelivery(row);
}

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: 'CreateWebhook',
    summary:
      'Subscribes a URL to events; answers the subscription and, this once, its signing secret (Standard Webhooks, whsec_...)',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    body: createWebhookSchema,
    response: createdWebhookSchema,
    answers: {
      400: `Invalid input: not an http(s) URL, an unknown event, or a private address (${WEBHOOK_MESSAGES.urlPrivate})`,
      403: `Personal details asked for without VIEW_PERSONAL_DATA (${WEBHOOK_MESSAGES.personalData}), or an event of a module the caller may not view in full; or the caller is an API token`,
      503: 'SECRET_KEY is not set on this server (PostgreSQL): the secret could not be kept',
    },
    async handler({ body, session, actor, services }) {
      checkMaySend(session, body.events, body.includePersonalData);
      await checkUrl(services, body.url);
      const key = await secretKey(services);
      const secret = newWebhookSecret();
      const webhookCode = newCode('WEBHOOK-');
      const record = await services.db.transaction(async (tx) => {
        await tx.insert(webhooks).values({
          webhookCode,
          url: body.url,
          events: body.events,
          description: body.description,
          secret: seal(key, secret),
          includePersonalData: body.includePersonalData,
          createdByCode: actor.userCode,
          createdByName: actor.username,
        });
        const created = await oneWebhook(tx, webhookCode);
        await recordAudit(tx, {
          action: 'CREATE',
          collection: 'webhooks',
          recordCode: webhookCode,
          after: audited(created),
          actor,
        });
        return created;
      });
      return {
        message: 'Webhook created: copy the signing secret now, it will not be shown again',
        data: { ...record, secret },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetWebhooks',
    summary: 'Every webhook subscription, newest first, with its latest delivery; never a secret',
    tag: 'Integrations',
    access: MANAGE,
    response: webhookRecordSchema,
    listed: true,
    async handler({ services }) {
      const data = await readWebhooks(services.db);
      return { message: 'Webhooks fetched successfully', data, total: data.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'UpdateWebhook',
    summary:
      'Changes a subscription (URL, events, description, personal details, paused or active); the secret stays. A stale version is a 409 with the subscription as it stands',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    body: updateWebhookSchema,
    response: webhookRecordSchema,
    answers: {
      400: `Invalid input: not an http(s) URL, an unknown event, or a private address (${WEBHOOK_MESSAGES.urlPrivate})`,
      403: `Personal details asked for without VIEW_PERSONAL_DATA, or an event of a module the caller may not view in full; or the caller is an API token`,
      404: WEBHOOK_MESSAGES.notFound,
      409: `${WEBHOOK_MESSAGES.stale} (data: the subscription as it now stands)`,
    },
    async handler({ body, session, actor, services }) {
      checkMaySend(session, body.events, body.includePersonalData === true);
      await checkUrl(services, body.url);
      const record = await services.db.transaction(async (tx) => {
        const before = await oneWebhook(tx, body.webhookCode, true);
        if (body.version !== undefined && body.version !== before.version) {
          throw staleWrite(WEBHOOK_MESSAGES.stale, before);
        }
        await tx
          .update(webhooks)
          .set({
            url: body.url,
            events: body.events,
            description: body.description,
            ...(body.includePersonalData === undefined
              ? {}
              : { includePersonalData: body.includePersonalData }),
            ...(body.active === undefined ? {} : { active: body.active }),
            updatedAt: new Date(),
            version: sql`${webhooks.version} + 1`,
          })
          .where(eq(webhooks.webhookCode, body.webhookCode));
        const after = await oneWebhook(tx, body.webhookCode);
        await recordAudit(tx, {
          action: 'UPDATE',
          collection: 'webhooks',
          recordCode: body.webhookCode,
          before: audited(before),
          after: audited(after),
          actor,
        });
        return after;
      });
      return { message: 'Webhook updated', data: record };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'DeleteWebhook',
    summary:
      'Deletes a subscription and its delivery log; what was queued for it is not sent. A stale version is a 409',
    tag: 'Integrations',
    access: MANAGE,
    body: deleteWebhookSchema,
    response: webhookRecordSchema,
    answers: {
      404: WEBHOOK_MESSAGES.notFound,
      409: `${WEBHOOK_MESSAGES.stale} (data: the subscription as it now stands)`,
    },
    async handler({ body, actor, services }) {
      const record = await services.db.transaction(async (tx) => {
        const before = await oneWebhook(tx, body.webhookCode, true);
        if (body.version !== undefined && body.version !== before.version) {
          throw staleWrite(WEBHOOK_MESSAGES.stale, before);
        }
        await tx.delete(webhooks).where(eq(webhooks.webhookCode, body.webhookCode));
        await recordAudit(tx, {
          action: 'DELETE',
          collection: 'webhooks',
          recordCode: body.webhookCode,
          before: audited(before),
          actor,
        });
        return before;
      });
      return { message: 'Webhook deleted', data: record };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'GetWebhookDeliveries',
    summary:
      "A subscription's delivery log, newest first: each event's status, the receiver's last answer code, attempts and times",
    tag: 'Integrations',
    access: MANAGE,
    changes: false,
    body: webhookDeliveriesQuerySchema,
    response: webhookDeliveryPageSchema,
    answers: { 404: WEBHOOK_MESSAGES.notFound },
    async handler({ body, services }) {
      const { db } = services;
      await oneWebhook(db, body.webhookCode);
      const offset = (body.pageNumber - 1) * body.pageSize;
      const rows = await rowsOf<DeliveryRow>(
        db,
        sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events e on e.event_id = d.event_id
          where d.webhook_code = ${body.webhookCode} order by d.id desc limit ${body.pageSize} offset ${offset}`,
      );
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookCode, body.webhookCode));
      return {
        message: 'Webhook deliveries fetched successfully',
        data: {
          deliveries: rows.map(toDelivery),
          total: count?.n ?? 0,
          pageNumber: body.pageNumber,
          pageSize: body.pageSize,
        },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'RedeliverWebhook',
    summary:
      'Sends a delivered or failed event again: a new pending delivery of the same event to the same subscription, with its own attempts and day of retries (the old one stays in the log as it was)',
    tag: 'Integrations',
    access: MANAGE,
    body: redeliverWebhookSchema,
    response: webhookDeliveryRecordSchema,
    answers: { 404: WEBHOOK_MESSAGES.deliveryNotFound },
    async handler({ body, services }) {
      const deliveryCode = newCode('WHDELIVERY-');
      const record = await services.db.transaction(async (tx) => {
        const [source] = await tx
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryCode, body.deliveryCode));
        if (!source) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
        await tx.insert(webhookDeliveries).values({
          deliveryCode,
          webhookCode: source.webhookCode,
          eventId: source.eventId,
          orderKey: source.orderKey,
          eventSeq: source.eventSeq,
        });
        return oneDelivery(tx, deliveryCode);
      });
      return { message: 'The event will be sent again', data: record };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'TestWebhook',
    summary: `Queues a test event (${WEBHOOK_TEST_EVENT}) for this subscription only, whatever events it names; answers its delivery`,
    tag: 'Integrations',
    access: MANAGE,
    body: webhookCodeSchema,
    response: webhookDeliveryRecordSchema,
    answers: { 404: WEBHOOK_MESSAGES.notFound },
    async handler({ body, actor, services }) {
      const record = await services.db.transaction(async (tx) => {
        const webhook = await oneWebhook(tx, body.webhookCode, true);
        await queueEvents(
          tx,
          [
            {
              type: WEBHOOK_TEST_EVENT,
              recordCode: null,
              actor,
              data: { webhookCode: webhook.webhookCode, message: 'A test event from the Workforce Console' },
            },
          ],
          webhook.webhookCode,
        );
        return newestDelivery(tx, webhook.webhookCode);
      });
      return { message: 'Test event queued', data: record };
    },
  }),
];
