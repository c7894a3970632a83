import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
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
 * before its 403 arrives. `replace` keeps the forbidden path out of history, so Go Back on the
 * access-denied page returns to where the user came from.
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
  const anyOk = !anyOf || anyOf.length === 0 || anyOf.some((p) => can(p));
  const allOk = !allOf || can(...allOf);
  if (!anyOk || !allOk) return <Navigate to="/access-denied" replace />;
  return <>{children}</>;
}
