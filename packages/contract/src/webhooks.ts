import { z } from 'zod';
import { codeRef, formBoolean, optionalSwitch, recordVersion } from './fields.ts';
import { RESOURCES } from './resources/index.ts';
import { text, timestamp } from './resources/record-parts.ts';

/*
 * Webhooks: a URL told of changes as they happen, each request signed in the Standard Webhooks
 * format with the subscription's secret, which is shown once.
 */

/** The verbs of a module's record events, from the audit's actions. */
export const WEBHOOK_RECORD_VERBS = ['created', 'updated', 'deleted', 'restored'] as const;
export type WebhookRecordVerb = (typeof WEBHOOK_RECORD_VERBS)[number];

/** Events that are not one record's create, update, delete or restore. */
export const WEBHOOK_OTHER_EVENTS = [
  'performance.saved',
  'import.committed',
  'user.signed_in_failed_repeatedly',
] as const;

/** What "Send test event" sends; no subscription names it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** `employee.created`: the module's key (its permission module in lower case) and the verb. */
export const recordEventType = (key: string, verb: WebhookRecordVerb) => `${key}.${verb}`;

/** Every module a user can write in has record events; the read-only ones (audit, permission) not. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...RESOURCES.filter(
    (def) => def.permissions.create || def.permissions.update || def.permissions.delete,
  ).flatMap((def) => WEBHOOK_RECORD_VERBS.map((verb) => recordEventType(def.key, verb))),
  ...WEBHOOK_OTHER_EVENTS,
];

/** What a subscriber must read of every record to be told of the events of no module; none for an import. */
const OTHER_EVENT_PERMISSIONS: Readonly<Record<string, string | undefined>> = {
  'performance.saved': 'VIEW_PERFORMANCES',
  'import.committed': undefined,
  'user.signed_in_failed_repeatedly': 'VIEW_AUDITS',
};

const VIEW_PERMISSIONS: ReadonlyMap<string, string> = new Map(
  RESOURCES.map((def) => [def.key, def.permissions.view]),
);

/**
 * The permission a subscriber must hold for every record (scope all) to be told of an event: a
 * subscription carries records out of the console, so only what its creator could read of all of
 * them. The module's VIEW permission for its record events.
 */
export function webhookEventPermission(type: string): string | undefined {
  if (type in OTHER_EVENT_PERMISSIONS) return OTHER_EVENT_PERMISSIONS[type];
  return VIEW_PERMISSIONS.get(type.slice(0, type.lastIndexOf('.')));
}

/** Pure: the events one may subscribe to, `seesAll(permission)` telling whether one holds it for every record. */
export function sendableEvents(types: readonly string[], seesAll: (permission: string) => boolean): string[] {
  return types.filter((type) => {
    const needed = webhookEventPermission(type);
    return !needed || seesAll(needed);
  });
}

/** How long a delivery is retried before it is marked failed. */
export const WEBHOOK_RETRY_HOURS = 24;
/** How long the console waits for a receiver's answer. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
export const WEBHOOK_MAX_EVENTS = WEBHOOK_EVENT_TYPES.length;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'URL is required',
  urlInvalid: 'Enter an http:// or https:// URL',
  urlCredentials: 'The URL may not carry a user name or password',
  /** 400 when the address is private, loopback or link-local and that was not allowed. */
  urlPrivate:
    'The URL leads to a private, loopback or link-local address; the console sends only to public addresses',
  eventsRequired: 'Choose at least one event',
  eventUnknown: 'Unknown event',
  personalData: 'You cannot send personal details you may not see yourself',
  /** 403: a module's records go only where its reader could send them (VIEW_..., for every record). */
  moduleHidden: 'You cannot subscribe to events of a module whose every record you may not view',
  /** 409 on a stale `version`, with the subscription as it now stands. */
  stale: 'The webhook was changed by someone else since you opened it; review it and save again',
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
} as const;

const urlField = z
  .string({ error: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(2000, 'The URL is at most 2,000 characters')
  .refine((s) => z.url({ protocol: /^https?$/ }).safeParse(s).success, WEBHOOK_MESSAGES.urlInvalid)
  // user:password@ in a URL would travel in every delivery and show in every list.
  .refine((s) => !/^[a-z]+:\/\/[^/?#]*@/i.test(s), WEBHOOK_MESSAGES.urlCredentials);

/** Forms send a single choice as a string. */
const eventList = z
  .union([z.array(z.string()), z.string()], { error: WEBHOOK_MESSAGES.eventsRequired })
  .transform((v) => (Array.isArray(v) ? v : v === '' ? [] : [v]))
  .pipe(
    z
      .array(z.string().refine((s) => WEBHOOK_EVENT_TYPES.includes(s), WEBHOOK_MESSAGES.eventUnknown))
      .min(1, WEBHOOK_MESSAGES.eventsRequired)
      .transform((list) => [...new Set(list)]),
  );

const descriptionField = z
  .string()
  .trim()
  .max(500, 'Description is at most 500 characters')
  .optional()
  .transform((v) => (v ? v : null));

export const createWebhookSchema = z.object({
  url: urlField,
  events: eventList,
  description: descriptionField,
  /** Records carry their need-to-know fields; only for one who holds VIEW_PERSONAL_DATA. */
  includePersonalData: formBoolean,
});

/** An update may leave out the switches: absent keeps what the subscription has. */
export const updateWebhookSchema = createWebhookSchema.extend({
  webhookCode: codeRef('Webhook code'),
  includePersonalData: optionalSwitch,
  /** A paused subscription is told of nothing until it is active again. */
  active: optionalSwitch,
  version: recordVersion,
});

export const webhookCodeSchema = z.object({ webhookCode: codeRef('Webhook code') });
export const deleteWebhookSchema = webhookCodeSchema.extend({
  version: recordVersion,
});
export const webhookDeliveriesQuerySchema = webhookCodeSchema.extend({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const redeliverWebhookSchema = z.object({ deliveryCode: codeRef('Delivery code') });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookRecordSchema = z.strictObject({
  webhookCode: text,
  url: text,
  events: z.array(text),
  description: text.nullable(),
  includePersonalData: z.boolean(),
  active: z.boolean(),
  createdBy: z.strictObject({ userCode: z.string().nullable(), username: z.string().nullable() }),
  createdAt: timestamp,
  updatedAt: timestamp,
  version: z.number().int(),
  /** The latest delivery's outcome, to see at a glance that a receiver is failing. */
  lastDelivery: z
    .strictObject({
      status: z.enum(WEBHOOK_DELIVERY_STATUSES),
      at: timestamp,
      statusCode: z.number().int().nullable(),
    })
    .nullable(),
});

/** The answer to a create: the record, and this once the signing secret (`whsec_...`). */
export const createdWebhookSchema = webhookRecordSchema.extend({ secret: text });

export const webhookDeliveryRecordSchema = z.strictObject({
  deliveryCode: text,
  webhookCode: text,
  eventId: text,
  eventType: text,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's answer to the last attempt; null when it did not answer (or not yet tried). */
  lastStatusCode: z.number().int().nullable(),
  lastError: text.nullable(),
  createdAt: timestamp,
  lastAttemptAt: timestamp.nullable(),
  /** When it is tried next; null once it succeeded or failed. */
  nextAttemptAt: timestamp.nullable(),
  completedAt: timestamp.nullable(),
});

export const webhookDeliveryPageSchema = z.strictObject({
  deliveries: z.array(webhookDeliveryRecordSchema),
  total: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
});

export type CreateWebhookInput = z.input<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;
export type WebhookRecord = z.output<typeof webhookRecordSchema>;
export type CreatedWebhook = z.output<typeof createdWebhookSchema>;
export type WebhookDeliveryRecord = z.output<typeof webhookDeliveryRecordSchema>;
export type WebhookDeliveryPage = z.output<typeof webhookDeliveryPageSchema>;

z.globalRegistry.add(webhookRecordSchema, { id: 'WebhookRecord' });
z.globalRegistry.add(createdWebhookSchema, { id: 'CreatedWebhook' });
z.globalRegistry.add(webhookDeliveryRecordSchema, { id: 'WebhookDeliveryRecord' });
z.globalRegistry.add(webhookDeliveryPageSchema, { id: 'WebhookDeliveryPage' });
