import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/*
 * What log lines may hold (ASVS 16.2.5): which request (its id, method and path), what answered
 * it, and what went wrong, never a secret or personal data. A failed statement is logged with its
 * text, never its parameters, which hold whatever was being written: a new user's argon2 hash and
 * email, session hashes, user agents, client addresses, throttle keys naming a user. Client
 * addresses are left out of request lines too: the audit records the address of each sign-in and
 * refusal, and the request id joins those records to the log.
 */

/** The longest statement text a line carries: a bulk save's statement runs to megabytes. */
const MAX_STATEMENT = 2000;

/** How deep causes are followed: Drizzle wraps the driver's error, which may wrap another. */
const MAX_CAUSES = 4;

/**
 * The fields of an error that say what failed without the values involved: PostgreSQL's SQLSTATE,
 * severity and the names of the constraint, table, column and type; Fastify's and Node's codes
 * and statuses; an OAuth error's code and description.
 */
const SAFE_FIELDS = [
  'code',
  'statusCode',
  'status',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  'error',
  'error_description',
] as const;

/**
 * Keys whose values are secrets or personal data wherever an object logged at the top level or
 * one level down holds them (pino's redaction reaches no deeper; errors are rebuilt field by field
 * below). `headers` covers cookies, Authorization, user agents and forwarded addresses at once.
 */
const REDACTED_KEYS = [
  'headers',
  'cookie',
  'cookies',
  'authorization',
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'password_hash',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'secret',
  'clientSecret',
  'recoveryCode',
  'recoveryCodes',
  'sessionId',
  'idHash',
  'id_hash',
  'userAgent',
  'user_agent',
  'email',
  'ip',
  'params',
  'parameters',
  'values',
];

export const LOG_REDACT_PATHS = REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]);

type ErrorLike = { message: string; stack?: unknown; cause?: unknown; errors?: unknown };

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Pure: an error's message without the values it quotes. Drizzle appends the statement's
 * parameters after "params:"; PostgreSQL's data errors (SQLSTATE class 22) quote the refused value
 * after a colon ('invalid input syntax for type integer: "..."').
 */
export function safeErrorMessage(err: ErrorLike & { code?: unknown }): string {
  const [message = ''] = err.message.split('\nparams:');
  const dataError = typeof err.code === 'string' && err.code.startsWith('22');
  return cut(dataError ? (message.split(': ')[0] ?? '') : message, MAX_STATEMENT);
}

/** The stack's frames under the safe message: its first lines repeat the message as it was. */
function safeStack(err: ErrorLike, type: string, message: string): string {
  if (typeof err.stack !== 'string') return '';
  const lines = err.stack.split('\n');
  let first = lines.length;
  while (first > 0 && /^\s+at /.test(lines[first - 1] ?? '')) first--;
  return [`${type}: ${message}`, ...lines.slice(first)].join('\n');
}

export interface SafeError {
  type: string;
  message: string;
  stack: string;
  query?: string;
  cause?: SafeError;
  errors?: SafeError[];
  [field: string]: unknown;
}

/**
 * Pure: an error as a log line shows it, rebuilt from the fields known to be safe (SAFE_FIELDS),
 * the statement's text and the causes, so that parameters (Drizzle's `params`, PGlite's `params`),
 * a failing row's values (PostgreSQL's `detail`, `where`, `hint`) and any field added by a later
 * version of a driver stay out.
 */
export function serializeError(err: unknown, depth = 0): SafeError {
  if (!isErrorLike(err)) return { type: typeof err, message: String(err), stack: '' };
  const type = (err as object).constructor?.name ?? 'Error';
  const message = safeErrorMessage(err);
  const fields = Object.fromEntries(
    SAFE_FIELDS.flatMap((key) => {
      const value = (err as Record<string, unknown>)[key];
      return typeof value === 'string' || typeof value === 'number' ? [[key, value]] : [];
    }),
  );
  const query = (err as { query?: unknown }).query;
  const nested = depth < MAX_CAUSES;
  return {
    type,
    message,
    stack: safeStack(err, type, message),
    ...fields,
    ...(typeof query === 'string' ? { query: cut(query, MAX_STATEMENT) } : {}),
    ...(nested && err.cause !== undefined ? { cause: serializeError(err.cause, depth + 1) } : {}),
    ...(nested && Array.isArray(err.errors)
      ? { errors: err.errors.map((e) => serializeError(e, depth + 1)) }
      : {}),
  };
}

/** Pure: a request as its log lines show it: the method and the path, without the query string (an OpenID code, a search). */
export const serializeRequest = (req: Pick<FastifyRequest, 'method' | 'url'>) => ({
  method: req.method,
  url: req.url.split('?')[0],
});

/**
 * A line whose message is an error's own (Fastify's fallback handler logs `err.message`; pino does
 * when given an error alone) gets the safe message instead.
 */
const logMethod: NonNullable<NonNullable<LoggerOptions['hooks']>['logMethod']> = function (args, method) {
  const [first, second, ...rest] = args as unknown[];
  const err = isErrorLike(first) ? first : errorIn(first);
  if (err && (second === undefined || second === err.message)) {
    return method.apply(this, [first, safeErrorMessage(err), ...rest] as Parameters<typeof method>);
  }
  return method.apply(this, args);
};

function errorIn(value: unknown): ErrorLike | undefined {
  const err = typeof value === 'object' && value !== null ? (value as { err?: unknown }).err : undefined;
  return isErrorLike(err) ? err : undefined;
}

/** The logger options every log line of the server passes through. */
export const safeLogging = {
  serializers: { err: serializeError, req: serializeRequest },
  redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
  hooks: { logMethod },
} satisfies Pick<LoggerOptions, 'serializers' | 'redact' | 'hooks'>;
