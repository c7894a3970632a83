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

type Listener = (status: number) => void;
const statusListeners = new Set<Listener>();

/** The auth layer subscribes: any 401 clears the user, any 403 goes to /access-denied. */
export function onApiStatus(listener: Listener): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

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

async function request<T>(url: string, init: RequestInit): Promise<ApiSuccess<T>> {
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
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiFetchError('parse', DEFAULT_UNEXPECTED_MESSAGE);
  }
  // The listeners hear every answer, whoever made the call and whether or not it handles the error.
  for (const l of statusListeners) l(res.status);
  // JSON that is no envelope (a proxy's own error page) has no message: each screen shows its own.
  if (!isEnvelope(body)) throw new ApiError({ statusCode: res.status, message: '' });
  if (body.statusCode !== 200) throw new ApiError(body);
  return { message: body.message, data: body.data as T | undefined, total: body.total };
}

/**
 * Resolves with a 200 answer's message, data and total. Rejects with ApiError for any other
 * answer and with ApiFetchError when there is no answer to read, so no caller checks a status.
 */
export const api = {
  get<T>(path: string, query?: Query) {
    return request<T>(apiUrl(path, query), { method: 'GET' });
  },
  /** Form-encoded with bracket keys: the body every endpoint accepts. */
  post<T>(path: string, body: Record<string, unknown> = {}, query?: Query) {
    const form = new URLSearchParams(toBracketPairs(body) as [string, string][]);
    return request<T>(apiUrl(path, query), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  },
  /** multipart/form-data with the same bracket keys (profile create/update). */
  postMultipart<T>(path: string, body: Record<string, unknown>) {
    const form = new FormData();
    for (const [k, v] of toBracketPairs(body)) form.append(k, v);
    return request<T>(apiUrl(path), { method: 'POST', body: form });
  },
};
