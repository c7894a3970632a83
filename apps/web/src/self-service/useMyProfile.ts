import { useQuery } from '@tanstack/react-query';
import type { employeeRecordSchema, ProfileRecord } from '@wfc/contract';
import type { z } from 'zod';
import { ApiError, api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { useAuth, useCan } from '../auth/auth';
import { PICTURE_FETCH_FAILED, useProfilePicture } from '../registry/profile/useProfilePicture';

export type EmployeeRecord = z.output<typeof employeeRecordSchema>;

/** The by-user getters: the records of the signed-in user, whatever their codes. */
const PROFILE_BY_USER = 'GetProfileByUserCode';
const EMPLOYEE_BY_USER = 'GetEmployeeByUserCode';

// Under the registry's keys, so that a save anywhere (My profile's or an administrator's in the
// registry) refreshes these as it refreshes every other record.
const mine = (resource: 'profile' | 'employee', userCode: string) =>
  queryKeys.registry.record(resource, `user:${userCode}`);

const notFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** A record of the user's, or null when there is none yet (404). */
async function byUser<T>(endpoint: string, userCode: string): Promise<T | null> {
  try {
    return (await api.post<T>(endpoint, { userCode })).data ?? null;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
}

/**
 * The signed-in user's profile (with its picture as a file, for the form) and employee record,
 * each asked for only when the role may read it.
 */
export function useMyProfile() {
  const { user } = useAuth();
  const can = useCan();
  const userCode = user?.userCode ?? '';
  const profile = useQuery({
    queryKey: mine('profile', userCode),
    queryFn: () => byUser<ProfileRecord>(PROFILE_BY_USER, userCode),
    enabled: Boolean(userCode) && can('VIEW_PROFILES'),
  });
  const employee = useQuery({
    queryKey: mine('employee', userCode),
    queryFn: () => byUser<EmployeeRecord>(EMPLOYEE_BY_USER, userCode),
    enabled: Boolean(userCode) && can('VIEW_EMPLOYEES'),
  });
  const picture = useProfilePicture(profile.data ?? undefined);
  return {
    profile,
    employee,
    picture: picture.data ?? null,
    pictureError: picture.isError ? PICTURE_FETCH_FAILED : undefined,
    pictureLoading: Boolean(profile.data?.profilePicture) && picture.isPending,
  };
}

export type MyProfile = ReturnType<typeof useMyProfile>;
