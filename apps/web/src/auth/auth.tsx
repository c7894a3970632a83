import { useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@wfc/contract';
import { hasPermission } from '@wfc/contract/permissions';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, onApiStatus } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { PageLoader } from '../ui/PageLoader';
import { parseStoredUser, RESTORE_TIMEOUT_MS, readStoredUser, STORAGE_KEY, writeStoredUser } from './storage';

export interface AuthState {
  user: SessionUser | null;
  isAuthenticated: boolean;
  setUser(u: SessionUser): void;
  clear(): void;
}

const AuthContext = createContext<AuthState | null>(null);

interface AuthProviderProps {
  children: ReactNode;
  restoreTimeoutMs?: number;
}

/**
 * The server's view of the stored user. Asked only while restoring: once the app shows, every
 * call reports an ended session through its 401, and a sign-out's cache reset must not ask again.
 */
function useSessionQuery(restoring: boolean) {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: () => api.get<SessionUser>('GetSession'),
    enabled: restoring,
    // Start-up waits for this answer; retrying an unreachable server would only make it wait longer.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Restores the signed-in user from local storage, then asks the server for the current session
 * so that permission changes made meanwhile apply at once. Until that answer (or the time-out)
 * the app shows a loader rather than screens built on stale permissions.
 */
export function AuthProvider({ children, restoreTimeoutMs = RESTORE_TIMEOUT_MS }: AuthProviderProps) {
  const [user, setUserState] = useState<SessionUser | null>(() => readStoredUser());
  const [restoring, setRestoring] = useState(() => user !== null);
  const session = useSessionQuery(restoring);

  const fresh = session.data?.data;
  useEffect(() => {
    // A late answer must not resurrect a user who signed out in the meantime.
    if (fresh) setUserState((prev) => (prev && prev.userCode === fresh.userCode ? fresh : prev));
  }, [fresh]);

  // An error ends the wait too: an unreachable server keeps the stored user, and a 401 has
  // already cleared it through the status listener below.
  const settled = session.isSuccess || session.isError;
  useEffect(() => {
    if (settled) setRestoring(false);
  }, [settled]);

  useEffect(() => {
    if (!restoring) return;
    const timer = setTimeout(() => setRestoring(false), restoreTimeoutMs);
    return () => clearTimeout(timer);
  }, [restoring, restoreTimeoutMs]);

  useEffect(() => onApiStatus((status) => status === 401 && setUserState(null)), []);

  useEffect(() => {
    writeStoredUser(user);
  }, [user]);

  // Signing in or out in one tab applies to the others.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEY) setUserState(parseStoredUser(e.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const setUser = useCallback((u: SessionUser) => setUserState(u), []);
  const clear = useCallback(() => setUserState(null), []);
  const value = useMemo<AuthState>(
    () => ({ user, isAuthenticated: user !== null, setUser, clear }),
    [user, setUser, clear],
  );
  return (
    <AuthContext.Provider value={value}>
      {restoring ? <PageLoader label="Restoring your session" /> : children}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** `can('CREATE_ROLE', 'UPDATE_ROLE')` is true only when every named permission is held. */
export function useCan(): (...permissionNames: string[]) => boolean {
  const { user } = useAuth();
  return useCallback((...names: string[]) => hasPermission(user, ...names), [user]);
}
