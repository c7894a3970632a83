import type { SessionUser } from '@wfc/contract';
import { hasPermission } from '@wfc/contract/permissions';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, onApiStatus } from '../api/client';
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
 * Restores the signed-in user from local storage, then asks the server for the current session
 * so that permission changes made meanwhile apply at once. Until that answer (or the time-out)
 * the app shows a loader rather than screens built on stale permissions.
 */
export function AuthProvider({ children, restoreTimeoutMs = RESTORE_TIMEOUT_MS }: AuthProviderProps) {
  const [user, setUserState] = useState<SessionUser | null>(() => readStoredUser());
  const [restoring, setRestoring] = useState(() => user !== null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the session is confirmed once, on start-up only.
  useEffect(() => {
    if (!restoring) return;
    let active = true;
    const finish = () => {
      if (active) setRestoring(false);
    };
    const timer = setTimeout(finish, restoreTimeoutMs);
    api
      .get<SessionUser>('GetSession')
      .then((env) => {
        const fresh = env.data;
        if (env.statusCode !== 200 || !fresh) return;
        // A late answer must not resurrect a user who signed out in the meantime.
        setUserState((prev) => (prev && prev.userCode === fresh.userCode ? fresh : prev));
      })
      // Unreachable server: keep the stored user; the next call will tell if the session is gone.
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        finish();
      });
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, []);

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
