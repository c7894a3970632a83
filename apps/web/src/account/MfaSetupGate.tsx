import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../auth/auth';

export const TWO_FACTOR_SETUP_PATH = '/account/two-factor';

/**
 * A role that requires two-factor sign-in, for a user who has not set it up: the server answers
 * every other call with 403 `Two-factor sign-in must be set up`, so the set-up page is all there is.
 */
export function MfaSetupGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (user?.role?.requireMfa && !user.mfaEnabled && pathname !== TWO_FACTOR_SETUP_PATH) {
    return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  }
  return <>{children}</>;
}
