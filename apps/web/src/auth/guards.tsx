import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth, useCan } from './auth';

/** Screens behind sign-in; a missing or expired session lands on the login route. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/** The login route is pointless once signed in, so it sends the user home. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  if (isAuthenticated) return <Navigate to="/" replace />;
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
