import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MfaEnrollment, MySessionRecord, SessionUser } from '@wfc/contract';
import { api } from '../api/client';
import { useSessionControl } from '../auth/auth';

export const MY_SESSIONS_KEY = ['account', 'sessions'] as const;

export function useMySessions() {
  return useQuery({
    queryKey: MY_SESSIONS_KEY,
    queryFn: async () => (await api.get<MySessionRecord[]>('GetMySessions')).data ?? [],
  });
}

/** A call that changes the sessions: the list is read again after it, whatever the outcome. */
function useSessionsChange<V>(call: (vars: V) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: MY_SESSIONS_KEY }),
  });
}

export const useChangeMyPassword = () =>
  useSessionsChange((body: { currentPassword: string; newPassword: string }) =>
    api.post('ChangeMyPassword', body),
  );
export const useEndMySession = () =>
  useSessionsChange((sessionCode: string) => api.post('EndMySession', { sessionCode }));
export const useEndMyOtherSessions = () => useSessionsChange(() => api.post('EndMyOtherSessions'));

/**
 * After two-factor sign-in was turned on or off: the signed-in user is read again, so the header,
 * the set-up gate and this page see `mfaEnabled` as it now is.
 */
export function useRefreshSessionUser() {
  const { signedIn } = useSessionControl();
  return async () => {
    const sentAt = Date.now();
    const res = await api.get<SessionUser>('GetSession');
    if (res.data) signedIn(res.data, sentAt);
  };
}

export const startMfaEnrollment = async (currentPassword: string) =>
  (await api.post<MfaEnrollment>('StartMfaEnrollment', { currentPassword })).data;

export const confirmMfaEnrollment = async (code: string) =>
  (await api.post<{ recoveryCodes: string[] }>('ConfirmMfaEnrollment', { code })).data?.recoveryCodes ?? [];

export const disableMfa = (body: { currentPassword: string; code: string }) => api.post('DisableMfa', body);
