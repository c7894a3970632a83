import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ACCESS_DENIED_PATH, type AccessDeniedState } from '../auth/accessDenied';
import { RequirePermission } from '../auth/guards';
import { SELF_SERVICE_SCREENS, type SelfServiceScreen, useSelfService } from './access';

/**
 * A self-service screen needs an employee linked to the user (whose records it shows) and one of
 * its permissions at any scope. Without an employee no permission would help, so none is named.
 */
export function RequireSelfService({ screen, children }: { screen: SelfServiceScreen; children: ReactNode }) {
  const { employee } = useSelfService();
  const { pathname, search, hash } = useLocation();
  if (!employee) {
    const state: AccessDeniedState = { refused: `${pathname}${search}${hash}` };
    return <Navigate to={ACCESS_DENIED_PATH} replace state={state} />;
  }
  return <RequirePermission anyOf={[...SELF_SERVICE_SCREENS[screen].anyOf]}>{children}</RequirePermission>;
}
