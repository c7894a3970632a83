import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '@wfc/contract';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Database } from '../db/client.ts';
import type { QueryCache } from '../db/query-cache.ts';
import { apiTokens, permissions, rolePermissions, roles, users } from '../db/schema/index.ts';
import { type ActiveSession, scopesOf } from './sessions.ts';

/** 256 random bits: far beyond guessing, and the same length whatever the encoding's padding. */
const SECRET_BYTES = 32;
/** The prefix and the secret's first characters, as the list shows them to tell tokens apart. */
const SHOWN_CHARACTERS = API_TOKEN_PREFIX.length + 6;

export const newApiTokenSecret = () =>
  `${API_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;

/**
 * SHA-256, not argon2: a password needs a slow hash because people choose guessable ones, but
 * 256 random bits cannot be guessed however fast each guess is, and every API call checks its
 * token, so a slow hash would only cost each call tens of milliseconds.
 */
export const hashApiToken = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const apiTokenPrefixOf = (secret: string) => secret.slice(0, SHOWN_CHARACTERS);

/** The token of an `Authorization: Bearer` header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The lookup every token call makes, built and planned once per database (as sessions' is): the
 * token with its role's permissions and scopes.
 */
function tokenLookup(db: Database) {
  return (
    db
      .select({
        tokenCode: apiTokens.tokenCode,
        name: apiTokens.name,
        allowedAddresses: apiTokens.allowedAddresses,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
        lastUsedAt: apiTokens.lastUsedAt,
        // Null when the creator's user no longer exists: the token outlives it, as its history does.
        creatorActive: users.active,
        permissionNames: sql<string[] | null>`(select array_agg(${permissions.permissionName})
        from ${rolePermissions} join ${permissions} on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
        where ${rolePermissions.roleCode} = ${apiTokens.roleCode})`,
        scopedNames: sql<
          string[] | null
        >`(select array_agg(${permissions.permissionName} || ':' || ${rolePermissions.scope})
        from ${rolePermissions} join ${permissions} on ${permissions.permissionCode} = ${rolePermissions.permissionCode}
        where ${rolePermissions.roleCode} = ${apiTokens.roleCode} and ${rolePermissions.scope} <> 'all')`,
      })
      .from(apiTokens)
      // Joined, as a session's user's role is: with a join every column is named with its table.
      .innerJoin(roles, eq(roles.roleCode, apiTokens.roleCode))
      .leftJoin(users, eq(users.userCode, apiTokens.createdByCode))
      .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
      .prepare('wfc_api_token_lookup')
  );
}
const lookups = new WeakMap<Database, ReturnType<typeof tokenLookup>>();

/**
 * Every table the lookup reads. A kept lookup is used only while none has changed, on any
 * instance: a revocation writes `api_tokens`, so it ends the token everywhere at the next call,
 * and disabling its creator writes `users`.
 */
export const API_TOKEN_READS = ['api_tokens', 'roles', 'role_permissions', 'permissions', 'users'];

/** Last use is written at most once a minute per token, as a session's last-seen time is. */
const TOUCH_AFTER_MS = 60_000;

/** What a token call carries besides the principal: for the address check and the rate limit. */
export interface TokenPrincipal extends ActiveSession {
  apiToken: {
    tokenCode: string;
    name: string;
    allowedAddresses: readonly string[];
    /** The user who created it is disabled: the token stops working with them (refused, 403). */
    creatorDisabled: boolean;
  };
}

/**
 * The principal of a bearer token, or undefined when it is unknown, revoked or expired. It has
 * the shape of a session, so every route's permission, scope and delegation checks apply to it
 * unchanged: its user code is the token's code (which owns no record, so `own` and `team` scopes
 * reach nothing) and its name the integration's, which audit entries name as their actor.
 */
export async function resolveApiToken(
  db: Database,
  secret: string,
  now = new Date(),
  kept?: QueryCache,
): Promise<TokenPrincipal | undefined> {
  if (!secret.startsWith(API_TOKEN_PREFIX)) return undefined;
  const tokenHash = hashApiToken(secret);
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = tokenLookup(db);
    lookups.set(db, lookup);
  }
  const read = async () => (await lookup.execute({ tokenHash }))[0] ?? null;
  const row = kept ? await kept.get(['apiToken', tokenHash], API_TOKEN_READS, read) : await read();
  if (!row || row.revokedAt) return undefined;
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    // The row may be a kept read from before the last touch (a change is heard a moment after it
    // commits): the stored time decides, so two calls close together touch it once.
    const before = new Date(now.getTime() - TOUCH_AFTER_MS);
    await db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.tokenHash, tokenHash),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, before)),
        ),
      );
  }
  return {
    idHash: `api-token:${row.tokenCode}`,
    userCode: row.tokenCode,
    username: row.name,
    permissions: new Set(row.permissionNames ?? []),
    scopes: scopesOf(row.scopedNames ?? []),
    // A second factor is a person's sign-in; a token is no person and never signs in.
    mfaSetupRequired: false,
    apiToken: {
      tokenCode: row.tokenCode,
      name: row.name,
      allowedAddresses: row.allowedAddresses,
      creatorDisabled: row.creatorActive === false,
    },
  };
}

/** Pure: an address with IPv4-mapped IPv6 (`::ffff:10.0.0.1`) read as the IPv4 address it is. */
function parsedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** Pure: may a token with this list be used from `address`? An empty list allows any address. */
export function addressAllowed(allowed: readonly string[], address: string): boolean {
  if (allowed.length === 0) return true;
  const client = parsedAddress(address);
  if (!client) return false;
  return allowed.some((entry) => {
    const [base = '', bits] = entry.split('/');
    const network = parsedAddress(base);
    if (!network || network.kind() !== client.kind()) return false;
    const full = network.kind() === 'ipv4' ? 32 : 128;
    // A mapped IPv6 range (`::ffff:10.0.0.0/104`) is the IPv4 range it maps.
    const mappedShift = base.includes(':') && network.kind() === 'ipv4' ? 96 : 0;
    const prefix = bits === undefined ? full : Number(bits) - mappedShift;
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > full) return false;
    return client.match(network, prefix);
  });
}

/**
 * Calls per token, per instance: a bucket of `perMinute` calls that refills continuously. Kept in
 * memory, so each instance allows the rate on its own (with N instances behind a balancer, up to
 * N times the rate in all): a limit meant to keep one integration from crowding out the others,
 * not an accounting. Buckets that are full again are forgotten.
 */
export class TokenRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number) {}

  /** Takes one call from the token's bucket: 0 when allowed, else the seconds until one is. */
  take(tokenCode: string, now = Date.now()): number {
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(tokenCode) ?? { tokens: this.perMinute, at: now };
    const tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * perMs);
    if (tokens < 1) {
      this.buckets.set(tokenCode, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
    }
    this.buckets.set(tokenCode, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 10_000) this.forgetFull(now);
    return 0;
  }

  private forgetFull(now: number) {
    const perMs = this.perMinute / 60_000;
    for (const [code, b] of this.buckets) {
      if (b.tokens + (now - b.at) * perMs >= this.perMinute) this.buckets.delete(code);
    }
  }
}
