// The rule alone: the contract's index would bring its schemas, and zod, into the sign-in page.
import { safeReturnPath } from '@wfc/contract/return-path';

/** The query parameter of /login that names the page to return to after signing in. */
export const RETURN_PARAM = 'next';

/** The page named by a /login URL's query string, validated by the contract's rule. */
export const returnTargetFrom = (search: string): string =>
  safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));

/** /login, remembering `target` (path, query and hash) when it is a page worth returning to. */
export function loginPath(target: string): string {
  const safe = safeReturnPath(target);
  return safe === '/' ? '/login' : `/login?${RETURN_PARAM}=${encodeURIComponent(safe)}`;
}
