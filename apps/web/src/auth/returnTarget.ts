/** The query parameter of /login that names the page to return to after signing in. */
export const RETURN_PARAM = 'next';
export const HOME = '/';
const MAX_LENGTH = 2000;

// C0 controls, DEL and C1 controls: browsers drop tabs and newlines from URLs, so `/\t/evil.example`
// would become `//evil.example`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A page of this console to go to after signing in, or Home. Accepted: a path that starts with a
 * single `/` (a query string and hash may follow), without backslashes (which browsers read as
 * `/`), control characters or a scheme, and that stays on this origin once resolved. Anything else
 * (`//evil.example`, `/\evil.example`, `https://evil.example`, `javascript:...`) is Home, so the
 * sign-in page cannot be made to send anyone elsewhere. /login itself is Home too.
 */
export function safeReturnTarget(raw: string | null | undefined): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return HOME;
  if (raw[0] !== '/' || raw[1] === '/' || raw.includes('\\') || CONTROL.test(raw)) return HOME;
  let url: URL;
  try {
    url = new URL(raw, 'http://console.invalid');
  } catch {
    return HOME;
  }
  if (url.origin !== 'http://console.invalid') return HOME;
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return HOME;
  return raw;
}

/** The page named by a /login URL's query string, validated. */
export const returnTargetFrom = (search: string): string =>
  safeReturnTarget(new URLSearchParams(search).get(RETURN_PARAM));

/** /login, remembering `target` (path, query and hash) when it is a page worth returning to. */
export function loginPath(target: string): string {
  const safe = safeReturnTarget(target);
  return safe === HOME ? '/login' : `/login?${RETURN_PARAM}=${encodeURIComponent(safe)}`;
}
