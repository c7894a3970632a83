/*
 * Errors that mean "the database cannot be used right now", as opposed to "this statement is
 * wrong": a request meeting one answers 503 with Retry-After (a load balancer retries elsewhere and
 * a client later), and a server meeting one at start says in one line what to set.
 */

/** Why the database cannot be used. */
export type Unavailable =
  /** Nothing listens at the host and port (ECONNREFUSED). */
  | 'refused'
  /** The host is unknown or unreachable, or connecting took too long. */
  | 'unreachable'
  /** A connection was lost, or the server is shutting down, restarting or starting up (08, 57P0x). */
  | 'lost'
  /** The database named does not exist (3D000), or was dropped. */
  | 'no database'
  /** The server refused the user or password (class 28). */
  | 'authentication'
  /** The server, the database or the role has no connection to spare (53300). */
  | 'too many connections'
  /** The database is closed to connections (55000, ALLOW_CONNECTIONS false). */
  | 'not accepting connections'
  /** A statement ran longer than the statement timeout, or was cancelled (57014). */
  | 'cancelled';

/** Node's own errors for a connection that cannot be made or is cut. */
const SOCKET_CODES: Readonly<Record<string, Unavailable>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'unreachable',
  ECONNRESET: 'lost',
  EPIPE: 'lost',
};

/** node-postgres and pg-pool say these in words only. */
const LOST_MESSAGE =
  /Connection terminated|not queryable|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i;
const CONNECT_TIMEOUT_MESSAGE = /timeout exceeded when trying to connect|connection timeout/i;

/** Pure: what one error (not its causes) says, from its SQLSTATE or socket code and its message. */
export function unavailableKind(code: string | undefined, message: string): Unavailable | undefined {
  if (code) {
    if (code in SOCKET_CODES) return SOCKET_CODES[code];
    if (code.startsWith('08') || /^57P0\d$/.test(code)) return 'lost';
    if (code === '3D000') return 'no database';
    if (code.startsWith('28')) return 'authentication';
    if (code === '53300') return 'too many connections';
    // 55000 is a general "object not in prerequisite state"; only this one is about connecting.
    if (code === '55000' && /not currently accepting connections/i.test(message)) {
      return 'not accepting connections';
    }
    if (code === '57014') return 'cancelled';
  }
  if (LOST_MESSAGE.test(message)) return 'lost';
  if (CONNECT_TIMEOUT_MESSAGE.test(message)) return 'unreachable';
  return undefined;
}

/**
 * Pure: whether an error, or one it was caused by (Drizzle wraps the driver's), means the database
 * is unavailable, and why; undefined for every other error.
 */
export function databaseUnavailable(err: unknown): Unavailable | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const kind = unavailableKind(
      typeof code === 'string' ? code : undefined,
      typeof message === 'string' ? message : '',
    );
    if (kind) return kind;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
