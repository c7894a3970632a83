import { passwordRule } from '@wfc/contract';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().default('./data'),
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** Memory for list pages and totals kept until their tables change; 0 reads everything afresh. */
  QUERY_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Empty counts as unset; a chosen one must meet the password rule like any other. */
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(passwordRule.optional()),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool,
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** 'auto': demo data on the first embedded start only (DECISIONS.md section 1). */
  DEMO_DATA: z.enum(['auto', 'true', 'false']).default('auto'),
  LOGIN_MAX_FAILURES_PER_USER: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  LOGIN_THROTTLE_MINUTES: z.coerce.number().positive().default(15),
  /**
   * Behind a reverse proxy. 'true' trusts proxies on loopback and private addresses: the client
   * address is the nearest public one in X-Forwarded-For, so a forged entry further left is never
   * read. A number trusts that many hops; anything else is a list of proxy addresses or ranges.
   * Trusting every hop would let any client pick its own address and escape per-address throttling.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): false | string | ((address: string, hop: number) => boolean) => {
      const s = (v ?? '').trim().toLowerCase();
      if (s === '' || s === 'false' || s === '0') return false;
      if (s === 'true' || s === '1') return 'loopback, linklocal, uniquelocal';
      if (/^\d+$/.test(s)) return (_address, hop) => hop < Number(s);
      return s;
    }),
  /** How long SIGTERM waits for in-flight requests before giving up on them. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(25),
});

export type Config = z.infer<typeof envSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/** Defaults for tests and tools: everything from the schema, overridable. */
export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({}),
  LOG_LEVEL: 'silent',
  ...overrides,
});
