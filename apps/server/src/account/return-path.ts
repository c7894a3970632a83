/**
 * Pure: the console path a sign-in may return to, or '/' when `next` is anything else. Only a path
 * on this origin: a single leading slash, no backslash, scheme or control character, not the
 * sign-in page itself (the web app's `returnTarget.ts` keeps the same rule).
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  const path = next.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path.startsWith('/login/') || path.startsWith('/api/')) return '/';
  return next;
}
