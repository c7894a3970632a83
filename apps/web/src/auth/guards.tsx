import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth, useCan } from './auth';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

/** Mirrors the server's checks so a forbidden screen never flashes before its 403 arrives. */
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
