/**
 * The WHATWG URL that browsers and Node both provide; the contract's compilation knows neither
 * environment's types, so the little this rule reads of it is declared here.
 */
declare const URL: new (input: string, base: string) => { origin: string; pathname: string };

/** Where a sign-in goes when no page, or no acceptable page, was asked for. */
const HOME = '/';
const MAX_LENGTH = 2000;

// C0 controls, DEL and C1 controls: browsers drop tabs and newlines from URLs, so `/\t/evil.example`
// would become `//evil.example`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Pure: a page of this console to go to after signing in (the web app's `?next=`, the page a
 * single sign-on returns to), or Home. Accepted: a path that starts with a single `/` (a query
 * string and hash may follow), without backslashes (which browsers read as `/`), control
 * characters or a scheme, that stays on this origin once resolved, and that is neither the
 * sign-in page nor the API. Anything else (`//evil.example`, `/\evil.example`,
 * `https://evil.example`, `javascript:...`) is Home, so no sign-in can be made to send anyone
 * elsewhere. The server and the web app both use this one rule.
 */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return HOME;
  if (raw[0] !== '/' || raw[1] === '/' || raw.includes('\\') || CONTROL.test(raw)) return HOME;
  let url: { origin: string; pathname: string };
  try {
    url = new URL(raw, 'http://console.invalid');
  } catch {
    return HOME;
  }
  if (url.origin !== 'http://console.invalid') return HOME;
  const path = url.pathname;
  if (path === '/login' || path.startsWith('/login/') || path.startsWith('/api/')) return HOME;
  return raw;
}
