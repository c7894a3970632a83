import { type ApiEnvelope, DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';

/** Split deployments point this at the API host; by default the API shares the page's origin. */
export const API_BASE_URL: string = (import.meta.env.VITE_API_BASE_URL as string | undefined) ?? '';
export const REQUEST_TIMEOUT_MS = 30_000;

export type FetchErrorKind = 'network' | 'timeout' | 'parse';

/** A call that produced no envelope at all (SPEC.md section 8: network, time-out, parse). */
export class ApiFetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
  ) {
    super(message);
  }
}

type Listener = (status: number) => void;
const statusListeners = new Set<Listener>();

/** The auth layer subscribes: any 401 clears the user, any 403 goes to /access-denied. */
export function onApiStatus(listener: Listener): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** Nested keys in bracket notation (SPEC.md section 7): `address[countryCode]=...`, `list[0]=...`. */
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

async function request<T>(url: string, init: RequestInit): Promise<ApiEnvelope<T>> {
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
  let body: ApiEnvelope<T>;
  try {
    body = (await res.json()) as ApiEnvelope<T>;
  } catch {
    throw new ApiFetchError('parse', DEFAULT_UNEXPECTED_MESSAGE);
  }
  for (const l of statusListeners) l(res.status);
  return body;
}

/**
 * The envelope is returned for every HTTP status (callers read `statusCode`); only a failure to
 * get an envelope at all throws ApiFetchError.
 */
export const api = {
  get<T>(path: string, query?: Query) {
    return request<T>(apiUrl(path, query), { method: 'GET' });
  },
  /** Form-encoded with bracket keys, the default body (SPEC.md section 7). */
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

/** Throws the envelope's message unless statusCode is 200: for TanStack Query functions. */
export class ApiResponseError extends Error {
  constructor(readonly envelope: ApiEnvelope) {
    super(envelope.message || DEFAULT_UNEXPECTED_MESSAGE);
  }
}

export async function unwrap<T>(p: Promise<ApiEnvelope<T>>): Promise<ApiEnvelope<T>> {
  const env = await p;
  if (env.statusCode !== 200) throw new ApiResponseError(env as ApiEnvelope);
  return env;
}
