import { isIP } from 'node:net';
import { passwordRule, RECYCLE_BIN_DEFAULT_DAYS } from '@wfc/contract';
import { z } from 'zod';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords.ts';
import { firstPublicAddress } from './trusted-proxies.ts';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
/** The same, for a switch that is on unless turned off (empty means unset). */
const boolOn = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v !== 'false' && v !== '0');

/** Fastify's `trustProxy`: no proxy, a list of proxy addresses and ranges, or a hop count. */
export type TrustProxy = false | string | ((address: string, hop: number) => boolean);

const PROXY_EXAMPLE = '(e.g. 127.0.0.1 or 10.0.0.0/8)';

function proxyEntryError(entry: string): string | undefined {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
    return `"${entry}" is not an IP address or CIDR range ${PROXY_EXAMPLE}`;
  }
  if (prefix !== undefined && Number(prefix) > (family === 4 ? 32 : 128)) {
    return `"${entry}" has too long a prefix`;
  }
  return undefined;
}

/**
 * A bare number counts hops (1 included); anything else must be addresses or ranges, which
 * together may hold loopback and private addresses only: a proxy at a public address is believed
 * about whoever it names, so anyone there could name any address. "true" is refused: it has meant
 * "every hop" and "private proxies", and both let some client pick its address.
 */
export function parseTrustProxy(raw: string | undefined): { trust: TrustProxy } | { error: string } {
  const s = (raw ?? '').trim().toLowerCase();
  if (s === '' || s === 'false' || s === '0') return { trust: false };
  if (s === 'true') {
    return {
      error: `TRUST_PROXY=true is ambiguous: set the proxy addresses or ranges ${PROXY_EXAMPLE} or the number of proxy hops`,
    };
  }
  if (/^\d+$/.test(s)) {
    const hops = Number(s);
    return { trust: (_address, hop) => hop < hops };
  }
  const entries = s.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const error = proxyEntryError(entry);
    if (error) return { error };
  }
  const exposed = firstPublicAddress(entries);
  if (exposed !== undefined) {
    return {
      error: `would believe clients at public addresses (${exposed} among them) about their own address; name only loopback or private proxies ${PROXY_EXAMPLE}, or the number of proxy hops`,
    };
  }
  return { trust: entries.join(', ') };
}

/**
 * Pure: what is wrong with a DATABASE_URL, or undefined. Never repeats the value, which may hold
 * a password: the scheme is the one part said back.
 */
export function databaseUrlProblem(value: string): string | undefined {
  const example = 'postgres://user:password@host:5432/database';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL: set a PostgreSQL URL such as ${example}, or unset it for the embedded database`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `${url.protocol}// is not PostgreSQL, the only server the console runs on: set a postgres:// or postgresql:// URL such as ${example}, or unset it for the embedded database`;
  }
  return undefined;
}

/**
 * Pure: what is wrong with an entry of CORS_ORIGINS, or undefined. A browser sends its origin as
 * scheme://host[:port], lower case, without a path, and the entry is compared with it as it is:
 * anything else would never match and leave the split deployment refused without a word.
 */
export function originProblem(entry: string): string | undefined {
  const example = 'such as https://console.example.com or http://localhost:5173';
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return `"${entry}" is not an origin: write scheme://host[:port], ${example}`;
  }
  if (url.origin !== entry) return `"${entry}" is not an origin as a browser sends it: write ${url.origin}`;
  return undefined;
}

/** A whole number of milliseconds, 0 for none; empty means unset, not 0. */
const milliseconds = (fallback: number) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).max(2_147_483_647).default(fallback),
  );

const optionalString = z
  .string()
  .optional()
  .transform((v) => v || undefined);
const optionalUrl = optionalString.pipe(z.url().optional());

/**
 * PostgreSQL connections per instance, unless PG_POOL_SIZE says otherwise. More than the
 * database's cores can run at once only queue inside PostgreSQL: on two cores, 20 made a
 * year-long trend's p99 57-73 ms where 10 gave 36-41 ms, at more answers a second
 * (docs/performance.md); a larger database server takes a larger pool.
 */
export const DEFAULT_PG_POOL_SIZE = 10;

/** Days a kind of record is kept; 0 keeps it forever. Empty means unset, not 0. */
const retentionDays = (fallback: number) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).max(36_500).default(fallback),
  );

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Unset (or empty): the embedded database. */
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const problem = databaseUrlProblem(v);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return v;
    }),
  /** Relative to the folder the command was started in (config/paths.ts); empty means unset. */
  DATA_DIR: z
    .string()
    .optional()
    .transform((v) => v || './data'),
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(DEFAULT_PG_POOL_SIZE),
  /**
   * PostgreSQL cancels a statement of the server's that runs longer (its request answers 503):
   * a request stuck behind a lock gives its connection back instead of holding it indefinitely.
   * Migrations and demo data, which may run long, are exempt. 0: no limit of the console's own.
   */
  PG_STATEMENT_TIMEOUT_MS: milliseconds(30_000),
  /**
   * Each start applies the migrations it carries. Off where a separate, more privileged role
   * migrates (npm run db:migrate): the server then waits, not ready, until none is pending.
   */
  MIGRATE_ON_START: boolOn,
  /** Memory for list pages and totals kept until their tables change; 0 reads everything afresh. */
  QUERY_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Empty counts as unset; a chosen one must meet the password rule like any other. */
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(passwordRule.optional())
    .refine((v) => !v || !isCommonPassword(v), COMMON_PASSWORD_MESSAGE),
  /**
   * What an erasure does to the person's employee records: `anonymise` keeps each, without name,
   * employee id or user, with its scores for the team's averages; `delete` removes them and their
   * scores (docs/privacy.md).
   */
  ERASURE_EMPLOYEES: z.enum(['anonymise', 'delete']).default('anonymise'),
  /**
   * Background jobs (the daily retention purge) run on this instance. Off where an instance must
   * only answer requests; with several instances, each job runs on one of those that have it on.
   */
  JOBS: boolOn,
  /** The hour (UTC) of the daily retention purge. */
  RETENTION_PURGE_HOUR: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).max(23).default(3),
  ),
  // How long each kind of record is kept, in days (docs/privacy.md, "Retention"); 0 keeps it forever.
  RETENTION_AUDIT_DAYS: retentionDays(730),
  RETENTION_SIGN_IN_DAYS: retentionDays(90),
  RETENTION_SESSION_DAYS: retentionDays(30),
  /** Counted from the end of a throttle row's window, not from its last attempt. */
  RETENTION_THROTTLE_DAYS: retentionDays(1),
  /** How long a deleted record stays in the recycle bin before the purge removes it for good. */
  RECYCLE_BIN_DAYS: retentionDays(RECYCLE_BIN_DEFAULT_DAYS),
  /** Webhook events and their deliveries (the log each subscription shows), counted from the event. */
  RETENTION_WEBHOOK_DAYS: retentionDays(30),
  /** Imports: their previews and errors quote the file's cells; counted from the import's last change. */
  RETENTION_IMPORT_DAYS: retentionDays(30),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool,
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const origins = s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of origins) {
        const problem = originProblem(origin);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
      return origins;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Relative to the folder the command was started in, like DATA_DIR; empty means unset. */
  WEB_DIST: optionalString,
  /** 'auto': demo data on the first embedded start only (docs/product.md section 1). */
  DEMO_DATA: z.enum(['auto', 'true', 'false']).default('auto'),
  LOGIN_MAX_FAILURES_PER_USER: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(20),
  LOGIN_THROTTLE_MINUTES: z.coerce.number().positive().default(15),
  /** Calls a minute each API token may make on each instance (docs/security.md, "API tokens"). */
  API_TOKEN_RATE_PER_MINUTE: z.coerce.number().int().positive().max(1_000_000).default(600),
  /**
   * Webhooks may be sent to private, loopback, link-local and other internal addresses (docs/security.md,
   * "Webhooks"). Off, such an address is refused when a subscription is saved and at every send.
   */
  WEBHOOK_ALLOW_PRIVATE: bool,
  /**
   * Behind a reverse proxy: the proxies' addresses or CIDR ranges, or the number of proxy hops.
   * Only an address a trusted proxy appended to X-Forwarded-For is believed; trusting whole
   * private ranges by default would let any client on them name its own address.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if ('error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.trust;
    }),
  /** How long SIGTERM waits for in-flight requests before giving up on them. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(25),
  /**
   * The bearer token a Prometheus scraper sends to `/api/metrics`; unset (or empty), the endpoint
   * answers 404 like any unknown path. Long enough not to be guessed, and sendable in a header.
   */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .min(16, 'must be at least 16 characters long')
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
        .optional(),
    ),
  /**
   * Encrypts two-factor secrets in the database. Unset on the embedded database, one is generated
   * into DATA_DIR; with DATABASE_URL it must be set (the same on every instance) before anyone
   * can set up two-factor sign-in.
   */
  SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
  /** Single sign-on through an OpenID Connect provider; off while OIDC_ISSUER is unset. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** Default: the console's own origin plus /api/oidc/callback. */
  OIDC_REDIRECT_URI: optionalUrl,
  OIDC_USERNAME_CLAIM: z.string().default('preferred_username'),
  OIDC_BUTTON_LABEL: z.string().default('single sign-on'),
  /** The name of the role an unknown user of the provider is created with; unset, none is created. */
  OIDC_DEFAULT_ROLE: optionalString,
  /**
   * The ID token's `amr` values (RFC 8176) that mean the provider checked a second factor; any one
   * of them spares a user the console's own code. Empty: none does.
   */
  OIDC_MFA_AMR: z
    .string()
    .default('mfa,otp,hwk,swk')
    .transform((s) =>
      s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  /** An `acr` value that means the same (for providers that say it that way); unset, `acr` is not read. */
  OIDC_MFA_ACR: optionalString,
  /**
   * The name of the role a user provisioned through SCIM gets when the request names no group,
   * and goes back to when a group lets them go; unset, a built-in role without permissions
   * ('Provisioned').
   */
  SCIM_DEFAULT_ROLE: optionalString,
});

/** Single sign-on needs its client's credentials as soon as a provider is named. */
const configSchema = envSchema.refine((c) => !c.OIDC_ISSUER || (c.OIDC_CLIENT_ID && c.OIDC_CLIENT_SECRET), {
  path: ['OIDC_ISSUER'],
  message: 'needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
});

export type Config = z.infer<typeof envSchema>;

/** What is wrong with the configuration, one line per problem: printed as it is, never as a stack. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return parsed.data;
}

/** Defaults for tests and tools: everything from the schema, overridable. */
export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({}),
  LOG_LEVEL: 'silent',
  // Tests never write a key into ./data.
  SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789',
  ...overrides,
});
