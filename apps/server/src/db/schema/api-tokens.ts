import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { roles } from './access.ts';
import { createdAt, id } from './columns.ts';

/**
 * API tokens: an integration's credential, with a role of its own. Only the SHA-256 of the secret
 * is stored, with its first characters for people to tell tokens apart; a revoked token keeps its
 * row (revoked_at), so the list still shows who made it and when it was last used.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    tokenCode: text('token_code').notNull().unique(),
    /** The integration's name: the audit names it as the actor of what the token does. */
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    tokenPrefix: text('token_prefix').notNull(),
    // A role in use by a token cannot be deleted: the token would silently lose its rights.
    roleCode: text('role_code')
      .notNull()
      .references(() => roles.roleCode, { onDelete: 'restrict' }),
    /** Addresses and CIDR ranges it may be used from; empty: any. */
    allowedAddresses: jsonb('allowed_addresses').$type<string[]>().notNull().default([]),
    /** Null only when its creator chose no expiry. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    // No foreign key: the token's history must outlive the user who made it.
    createdByCode: text('created_by_code'),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_role').on(t.roleCode)],
);
