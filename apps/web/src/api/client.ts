import { type ApiEnvelope, DEFAULT_UNEXPECTED_MESSAGE, type FieldError } from '@wfc/contract/envelope';

/** Split deployments point this at the API host; by default the API shares the page's origin. */
export const API_BASE_URL: string = (import.meta.env.VITE_API_BASE_URL as string | undefined) ?? '';
export const REQUEST_TIMEOUT_MS = 30_000;

export type FetchErrorKind = 'network' | 'timeout' | 'parse';

/** A call that produced no answer to read: the network failed, the time-out passed, or no JSON came. */
export class ApiFetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The server answered with anything but 200. `message` is the server's own, possibly empty, so
 * that each screen can put its own wording in place of an empty one (see errorMessage).
 */
export class ApiError extends Error {
  readonly status: number;
  /** Per-field problems (`address.cityCode`, `performances.0.performancePerSkill.1.pointsEarned`). */
  readonly errors?: FieldError[];
  readonly data?: unknown;

  constructor(envelope: ApiEnvelope) {
    super(envelope.message ?? '');
    this.name = 'ApiError';
    this.status = envelope.statusCode;
    this.errors = envelope.errors;
    this.data = envelope.data;
  }
}

/** What a 200 answer carries; every other answer has been thrown as ApiError. */
export interface ApiSuccess<T> {
  message: string;
  data?: T;
  total?: number;
}

/** A user-facing message for a failed call: the server's words when there are any. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message || fallback;
  if (err instanceof ApiFetchError) return err.message;
  return fallback;
}

/** Which call an answer belongs to, and when (this browser's clock) it was sent. */
export interface CallInfo {
  path: string;
  startedAt: number;
}

type Listener = (status: number, call: CallInfo) => void;
const statusListeners = new Set<Listener>();

/**
 * Every answer's HTTP status, whoever made the call: the shell goes to /access-denied on a 403,
 * and the auth layer counts each 200 as activity that extends the session's idle expiry.
 */
export function onApiStatus(listener: Listener): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/**
 * What becomes of a call answered 401: `fail` rejects it with the ApiError as usual; `retry` sends
 * it again as it was (the user has signed in again meanwhile); `drop` leaves it pending for good,
 * so that nothing reports a failure for a screen that is being discarded.
 */
export type UnauthorizedOutcome = 'fail' | 'retry' | 'drop';
export type UnauthorizedHandler = (call: CallInfo) => UnauthorizedOutcome | Promise<UnauthorizedOutcome>;

let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * The auth layer decides what a 401 means (sign out, or hold the call while the user signs in
 * again in place). One handler at a time; without one, a 401 simply rejects.
 */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/** A call is sent again at most this often: each replay follows a sign-in, not a loop. */
export const MAX_REPLAYS = 3;

export type Query = Record<string, string | number | boolean | undefined | null>;

/** The server reads nested keys in bracket notation: `address[countryCode]=...`, `list[0]=...`. */
export function toBracketPairs(body: Record<string, unknown>): [string, string | Blob][] {
  const out: [string, string | Blob][] = [];
  const walk = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (value instanceof Blob) out.push([key, value]);
    else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, `${key}[${i}]`);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${key}[${k}]`);
    } else out.push([key, value === null ? '' : String(value)]);
  };
  for (const [k, v] of Object.entries(body)) walk(v, k);
  return out;
}

export function apiUrl(path: string, query?: Query): string {
  const url = `${API_BASE_URL}/api/${path.replace(/^\/+/, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Resolves a server-relative URL (a picture thumbnail) against the API host. */
export const assetUrl = (path: string) => (path.startsWith('/') ? `${API_BASE_URL}${path}` : path);

const isEnvelope = (body: unknown): body is ApiEnvelope =>
  body !== null && typeof body === 'object' && typeof (body as ApiEnvelope).statusCode === 'number';

/** One attempt: the HTTP status and the parsed JSON body. */
async function send(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { ...init, credentials: 'include', signal: controller.signal });
  } catch (err) {
    throw (err as Error).name === 'AbortError'
      ? new ApiFetchError('timeout', 'The request timed out')
      : new ApiFetchError('network', 'Network error: the server could not be reached');
  } finally {
    clearTimeout(timer);
  }
  try {
    return { status: res.status, body: await res.json() };
  } catch {
    throw new ApiFetchError('parse', DEFAULT_UNEXPECTED_MESSAGE);
  }
}

async function request<T>(path: string, url: string, init: RequestInit): Promise<ApiSuccess<T>> {
  for (let replays = 0; ; replays++) {
    const call: CallInfo = { path, startedAt: Date.now() };
    const { status, body } = await send(url, init);
    // The listeners hear every answer, whoever made the call and whether or not it handles the error.
    for (const l of statusListeners) l(status, call);
    if (status === 401 && unauthorizedHandler && replays < MAX_REPLAYS) {
      // A held call resolves or rejects as its replay does, so its caller never learns of the 401.
      const outcome = await unauthorizedHandler(call);
      if (outcome === 'retry') continue;
      if (outcome === 'drop') return new Promise<never>(() => undefined);
    }
    // JSON that is no envelope (a proxy's own error page) has no message: each screen shows its own.
    if (!isEnvelope(body)) throw new ApiError({ statusCode: status, message: '' });
    if (body.statusCode !== 200) throw new ApiError(body);
    return { message: body.message, data: body.data as T | undefined, total: body.total };
  }
}

/**
 * Resolves with a 200 answer's message, data and total. Rejects with ApiError for any other
 * answer and with ApiFetchError when there is no answer to read, so no caller checks a status.
 */
export const api = {
  get<T>(path: string, query?: Query) {
    return request<T>(path, apiUrl(path, query), { method: 'GET' });
  },
  /** Form-encoded with bracket keys: the body every endpoint accepts. */
  post<T>(path: string, body: Record<string, unknown> = {}, query?: Query) {
    const form = new URLSearchParams(toBracketPairs(body) as [string, string][]);
    return request<T>(path, apiUrl(path, query), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  },
  /** multipart/form-data with the same bracket keys (profile create/update). */
  postMultipart<T>(path: string, body: Record<string, unknown>) {
    const form = new FormData();
    for (const [k, v] of toBracketPairs(body)) form.append(k, v);
    return request<T>(path, apiUrl(path), { method: 'POST', body: form });
  },
};
