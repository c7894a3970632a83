import type { SessionUser } from '@wfc/contract';
import { useAuth, useCan } from '../auth/auth';

/*
 * Kept free of the resource definitions and Zod: the header (part of the sign-in bundle) reads it.
 */

export const MY_PROFILE_PATH = '/my/profile';
export const MY_PROFILE_EDIT_PATH = '/my/profile/edit';
export const MY_PERFORMANCE_PATH = '/my/performance';

/** A self-service screen and the permissions (any scope; one is enough) that open it. */
export const SELF_SERVICE_SCREENS = {
  profile: { path: MY_PROFILE_PATH, label: 'My profile', anyOf: ['VIEW_PROFILES', 'VIEW_EMPLOYEES'] },
  performance: { path: MY_PERFORMANCE_PATH, label: 'My performance', anyOf: ['VIEW_PERFORMANCES'] },
} as const;
export type SelfServiceScreen = keyof typeof SELF_SERVICE_SCREENS;

export interface SelfService {
  /** The employee linked to the signed-in user: "me" of every self-service screen. */
  employee: SessionUser['employee'];
  /** Each screen the user may open: they are an employee and hold one of its permissions. */
  can(screen: SelfServiceScreen): boolean;
}

/** Which self-service screens the signed-in user may open. */
export function useSelfService(): SelfService {
  const { user } = useAuth();
  const can = useCan();
  const employee = user?.employee ?? null;
  return {
    employee,
    can: (screen) => employee !== null && SELF_SERVICE_SCREENS[screen].anyOf.some((p) => can(p)),
  };
}
