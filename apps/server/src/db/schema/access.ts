import { PERMISSION_SCOPES, SSO_LINKING } from '@wfc/contract';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, lower, trgm, updatedAt, version } from './columns.ts';

export const permissions = pgTable(
  'permissions',
  {
    id: id(),
    permissionCode: text('permission_code').notNull().unique(),
    permissionName: text('permission_name').notNull().unique(),
    permissionDescription: text('permission_description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('permissions_name_trgm').using('gin', trgm(t.permissionName))],
);

export const roles = pgTable(
  'roles',
  {
    id: id(),
    roleCode: text('role_code').notNull().unique(),
    roleName: text('role_name').notNull(),
    roleDescription: text('role_description'),
    /** Its users must sign in with a second factor; without one they may only enrol. */
    requireMfa: boolean('require_mfa').notNull().default(false),
    /** The identity provider's id for the group this role stands for (SCIM `externalId`). */
    externalId: text('external_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('roles_name_unique').on(lower(t.roleName)),
    index('roles_name_trgm').using('gin', trgm(t.roleName)),
  ],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleCode: text('role_code')
      .notNull()
      .references(() => roles.roleCode, { onDelete: 'cascade' }),
    permissionCode: text('permission_code')
      .notNull()
      .references(() => permissions.permissionCode, { onDelete: 'cascade' }),
    /** How far the role holds the permission (`PERMISSION_SCOPES`); `all` for every unscopable one. */
    scope: text('scope', { enum: PERMISSION_SCOPES }).notNull().default('all'),
  },
  (t) => [
    primaryKey({ columns: [t.roleCode, t.permissionCode] }),
    index('role_permissions_perm').on(t.permissionCode),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    userCode: text('user_code').notNull().unique(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roleCode: text('role_code')
      .notNull()
      .references(() => roles.roleCode, { onDelete: 'restrict' }),
    /**
     * Whether a first single sign-on may link a provider account to this user by its name
     * (`SSO_LINKING` in the contract); 'role' decides by the user's role when it happens.
     */
    ssoLinking: text('sso_linking', { enum: SSO_LINKING }).notNull().default('role'),
    /** A disabled user cannot sign in, has no sessions, and their API tokens do not work. */
    active: boolean('active').notNull().default(true),
    /** The identity provider's id for the user, kept from provisioning (SCIM `externalId`). */
    externalId: text('external_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(lower(t.username)),
    uniqueIndex('users_email_unique').on(lower(t.email)),
    index('users_role').on(t.roleCode),
    uniqueIndex('users_external_id_unique').on(t.externalId),
    index('users_username_trgm').using('gin', trgm(t.username)),
    index('users_email_trgm').using('gin', trgm(t.email)),
  ],
);

/** Server-side sessions: only the SHA-256 of the 128-bit id is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** Names the session to its user (My account's list), which must never see the id or its hash. */
    sessionCode: text('session_code').notNull().unique(),
    userCode: text('user_code')
      .notNull()
      .references(() => users.userCode, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user').on(t.userCode)],
);

/**
 * A user's TOTP second factor. `secret` is encrypted (auth/secret-box.ts); `enabledAt` is null
 * while an enrolment awaits its first code. `lastStep` is the time step of the last accepted code:
 * only a later step is accepted, so a code works once, on every instance.
 */
export const userMfa = pgTable('user_mfa', {
  userCode: text('user_code')
    .primaryKey()
    .references(() => users.userCode, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes: only their SHA-256; a use deletes the row. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    userCode: text('user_code')
      .notNull()
      .references(() => users.userCode, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userCode, t.codeHash] })],
);

/**
 * A sign-in whose password was right and whose second factor is awaited: bound to the browser by
 * a cookie of its own (only its SHA-256 stored), never a session.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userCode: text('user_code')
      .notNull()
      .references(() => users.userCode, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('mfa_challenges_user').on(t.userCode)],
);

/**
 * A single sign-on under way: what the callback must check (state, nonce) and send (the PKCE
 * verifier), bound to the browser that started it by a cookie of its own (only its SHA-256 here).
 */
export const oidcLogins = pgTable('oidc_logins', {
  idHash: text('id_hash').primaryKey(),
  state: text('state').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** The console path the user first asked for. */
  returnTo: text('return_to').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A provider account linked to a console user: found by (issuer, subject) alone, which a provider
 * never gives to another account, so a name changed at the provider changes nothing here.
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userCode: text('user_code')
      .notNull()
      .references(() => users.userCode, { onDelete: 'cascade' }),
    /** The provider's name for the account when it was last used: for people to recognise it. */
    providerUsername: text('provider_username'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.subject] }),
    // One account per provider and user: a second would be a second way in nobody looks at.
    uniqueIndex('sso_identities_user_issuer').on(t.userCode, t.issuer),
  ],
);

/**
 * Sign-in attempts per key (account and address, address, account), shared by every server
 * instance. An attempt is counted before its password is checked, so attempts in flight count.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  /** The key's limit as the last attempt's server had it: one statement serves keys of several limits. */
  maxAttempts: integer('max_attempts').notNull(),
  /** Failed and in-flight attempts since the key was last quiet for a whole window. */
  attempts: integer('attempts').notNull().default(0),
  /** Whether the last attempt found the key blocked; set from the row as it was before that attempt. */
  refused: boolean('refused').notNull().default(false),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  /** On an account-and-address key: the last success, which makes the address known for the account. */
  signedInAt: timestamp('signed_in_at', { withTimezone: true }),
});

export const audits = pgTable(
  'audits',
  {
    id: id(),
    auditCode: text('audit_code').notNull().unique(),
    action: text('action').notNull(),
    collection: text('collection').notNull(),
    /** The code of the record the entry is about; null for sign-in events. */
    recordCode: text('record_code'),
    before: jsonb('before'),
    after: jsonb('after'),
    changes: jsonb('changes'),
    // No foreign key: the trail must outlive the user it names.
    userCode: text('user_code'),
    username: text('username'),
    /** The X-Request-Id of the request that made the entry (as logged); null outside a request. */
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    // Few distinct values: searched through them (`fewValues`), found by a skip scan of these.
    // The date after them serves the log's filters: a module's action in a date range is one
    // index range, counted without reading the table.
    index('audits_action_created').on(t.action, t.createdAt),
    index('audits_collection_action_created').on(t.collection, t.action, t.createdAt),
    index('audits_username_trgm').using('gin', trgm(t.username)),
    index('audits_created').on(t.createdAt),
    // A record's history, newest first: who changed it last (a conflict's message, a view's times).
    index('audits_record').on(t.collection, t.recordCode, t.id),
  ],
);
