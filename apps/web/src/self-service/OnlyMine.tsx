import { scopeOf } from '@wfc/contract';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ACCESS_DENIED_PATH, type AccessDeniedState } from '../auth/accessDenied';
import { useAuth } from '../auth/auth';

/**
 * A screen about one employee's records, for a role that holds `permission` for its own records
 * only: anyone else's is refused before it is asked for, as the server would refuse it.
 */
export function OnlyMine({
  permission,
  employeeCode,
  children,
}: {
  permission: string;
  employeeCode: string;
  children: ReactNode;
}) {
  const { user } = useAuth();
  const { pathname, search, hash } = useLocation();
  if (scopeOf(user, permission) === 'own' && employeeCode !== user?.employee?.employeeCode) {
    const state: AccessDeniedState = { refused: `${pathname}${search}${hash}` };
    return <Navigate to={ACCESS_DENIED_PATH} replace state={state} />;
  }
  return <>{children}</>;
}
