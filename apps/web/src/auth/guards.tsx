import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ACCESS_DENIED_PATH, type AccessDeniedState } from './accessDenied';
import { useAuth, useCan } from './auth';
import { loginPath, returnTargetFrom } from './returnTarget';

/**
 * Screens behind sign-in; a missing or expired session lands on the login route, which keeps
 * the page asked for (query and hash included) to return to, unless the user chose to sign out.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, signedOutOnPurpose } = useAuth();
  const { pathname, search, hash } = useLocation();
  if (!isAuthenticated) {
    return <Navigate to={signedOutOnPurpose ? '/login' : loginPath(`${pathname}${search}${hash}`)} replace />;
  }
  return <>{children}</>;
}

/** The login route is pointless once signed in: it sends the user to the page asked for, or home. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const { search } = useLocation();
  if (isAuthenticated) return <Navigate to={returnTargetFrom(search)} replace />;
  return <>{children}</>;
}

/**
 * Mirrors the server's permission checks so a forbidden screen never flashes
 * before its 403 arrives. `replace` keeps the forbidden path out of history; the access-denied
 * page is told which permissions are missing (to name them) and which page refused (never to go
 * back to it).
 */
export function RequirePermission({
  anyOf,
  allOf,
  children,
}: {
  anyOf?: string[];
  allOf?: string[];
  children: ReactNode;
}) {
  const can = useCan();
  const { pathname, search, hash } = useLocation();
  const anyOk = !anyOf || anyOf.length === 0 || anyOf.some((p) => can(p));
  const missingAll = (allOf ?? []).filter((p) => !can(p));
  if (anyOk && missingAll.length === 0) return <>{children}</>;
  const state: AccessDeniedState = {
    refused: `${pathname}${search}${hash}`,
    ...(missingAll.length > 0 ? { missing: missingAll } : { missing: anyOf, anyOf: true }),
  };
  return <Navigate to={ACCESS_DENIED_PATH} replace state={state} />;
}
