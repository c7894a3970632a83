import { z } from 'zod';
import { codeRef, formBoolean } from './fields.ts';
import { text, timestamp } from './resources/record-parts.ts';

/*
 * API tokens: credentials for an integration (a service account), with a role of their own, sent
 * as `Authorization: Bearer`. The secret is shown once, when the token is created.
 */

/** What every secret starts with, so that secret scanners can recognise a leaked one. */
export const API_TOKEN_PREFIX = 'wfc_';

/** The longest life a token may be given; none at all only by an explicit `noExpiry`. */
export const API_TOKEN_MAX_DAYS = 365;
/** What the create form proposes. */
export const API_TOKEN_DEFAULT_DAYS = 90;
/** Allowed source addresses per token. */
export const API_TOKEN_MAX_ADDRESSES = 50;

export const API_TOKEN_MESSAGES = {
  /** 401: the bearer token is not one the console knows, or it was revoked or has expired. */
  invalid: 'The API token is unknown, revoked or expired',
  /** 403 on a call no token may make. */
  sessionOnly: 'An API token cannot make this call: it needs a signed-in user',
  /** 403: the user who created the token is disabled; enabling them makes it work again. */
  creatorDisabled: "The API token's creator is disabled",
  /** 403 from an address outside the token's list. */
  address: 'The API token may not be used from this address',
  /** 400 when both credentials come with one request. */
  both: 'Send either a session cookie or an API token, not both',
  /** 429. */
  rateLimited: 'Too many requests with this API token: see Retry-After',
  expiryRequired: 'Choose an expiry date, or no expiry',
  expiryPast: 'The expiry must be in the future',
  expiryTooLate: `The expiry must be at most ${API_TOKEN_MAX_DAYS} days away`,
  expiryAndNone: 'Choose an expiry date or no expiry, not both',
} as const;

/** An IPv4 or IPv6 address, or a CIDR range of either. */
const addressEntry = z
  .string()
  .trim()
  .min(1, 'Enter an address or a range')
  .refine(
    (s) => z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]).safeParse(s).success,
    'Enter an IP address or a CIDR range (e.g. 203.0.113.7 or 10.0.0.0/8)',
  );

/** Forms send an empty list as nothing at all, and a single value as a string. */
const addressList = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : v === '' ? [] : [v]))
  .transform((list) => list.filter((s) => s.trim() !== ''))
  .pipe(
    z
      .array(addressEntry)
      .max(API_TOKEN_MAX_ADDRESSES, `At most ${API_TOKEN_MAX_ADDRESSES} addresses or ranges`),
  );

const nameField = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name is at most 100 characters');

/**
 * `expiresAt` (a date and time, at most a year away) or `noExpiry: true`: a token that never
 * expires is a decision someone makes, never a default.
 */
export const createApiTokenSchema = z
  .object({
    name: nameField,
    roleCode: codeRef('Role'),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal('')])
      .optional()
      .transform((v) => (v ? v : undefined)),
    noExpiry: formBoolean,
    allowedAddresses: addressList,
  })
  .superRefine((b, ctx) => {
    if (b.noExpiry && b.expiresAt) {
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: API_TOKEN_MESSAGES.expiryAndNone });
    } else if (!b.noExpiry && !b.expiresAt) {
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: API_TOKEN_MESSAGES.expiryRequired });
    }
  });

export const revokeApiTokenSchema = z.object({ tokenCode: codeRef('Token code') });

/** Who a token is, as the list shows it: never the secret, nor its hash. */
export const apiTokenRecordSchema = z.strictObject({
  tokenCode: text,
  name: text,
  role: z.strictObject({ roleCode: text, roleName: text }),
  /** The secret's first characters, to tell tokens apart: not enough to use one. */
  tokenPrefix: text,
  allowedAddresses: z.array(text),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  createdBy: z.strictObject({ userCode: z.string().nullable(), username: z.string().nullable() }),
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});

/** A role the caller may give a token, as the create form offers it. */
export const apiTokenRoleSchema = z.strictObject({ roleCode: text, roleName: text });

/** The answer to a create: the record, and this once the secret. */
export const createdApiTokenSchema = apiTokenRecordSchema.extend({ token: text });

export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;
export type ApiTokenRecord = z.output<typeof apiTokenRecordSchema>;
export type CreatedApiToken = z.output<typeof createdApiTokenSchema>;
export type ApiTokenRole = z.output<typeof apiTokenRoleSchema>;

z.globalRegistry.add(apiTokenRecordSchema, { id: 'ApiTokenRecord' });
z.globalRegistry.add(createdApiTokenSchema, { id: 'CreatedApiToken' });
z.globalRegistry.add(apiTokenRoleSchema, { id: 'ApiTokenRole' });
