import { useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@wfc/contract';
import { hasPermission } from '@wfc/contract/permissions';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { api, onApiStatus, onUnauthorized } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { PageLoader } from '../ui/PageLoader';
import { SessionClock } from './sessionClock';
import { SessionGate } from './sessionGate';
import { parseStoredUser, RESTORE_TIMEOUT_MS, readStoredUser, STORAGE_KEY, writeStoredUser } from './storage';

/** Why nobody is signed in: the session ended (the page is remembered), or the user signed out. */
export type SignOutReason = 'ended' | 'signedOut';

export interface AuthState {
  user: SessionUser | null;
  isAuthenticated: boolean;
  /** Set once the user chose to sign out: the login screen then remembers no page to return to. */
  signedOutOnPurpose: boolean;
  /**
   * The signed-in user, from a sign-in or GetSession answer to a call sent at `sentAt`; the
   * answer's session timing (not kept with the user) starts the idle warning's clock.
   */
  setUser(u: SessionUser, sentAt?: number): void;
  clear(reason?: SignOutReason): void;
}

const AuthContext = createContext<AuthState | null>(null);

/** The session's machinery, for the sign-in dialog and the idle warning of this folder. */
export interface SessionControl {
  gate: SessionGate;
  clock: SessionClock;
  /** A sign-in answered at `sentAt` (any screen, any user): calls in flight are told apart by it. */
  signedIn(u: SessionUser, sentAt: number): void;
  /** The session has ended: the sign-in dialog over unsaved input, else signed out. */
  sessionEnded(): void;
}

const SessionContext = createContext<SessionControl | null>(null);

interface AuthProviderProps {
  children: ReactNode;
  restoreTimeoutMs?: number;
}

/** The paths whose 401 means something else than an ended session. */
const LOGIN_PATH = 'login';
const LOGOUT_PATH = 'logout';

const withoutTiming = ({ session: _timing, ...user }: SessionUser): SessionUser => user;

/**
 * The server's view of the stored user. Asked only while restoring: once the app shows, every
 * call reports an ended session through its 401, and a sign-out's cache reset must not ask again.
 */
function useSessionQuery(restoring: boolean) {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: async () => {
      const sentAt = Date.now();
      return { ...(await api.get<SessionUser>('GetSession')), sentAt };
    },
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
 *
 * When the session ends (a 401 on any call, or the idle clock running out) while a screen holds
 * unsaved input, the user is not signed out: the calls wait, and the sign-in dialog
 * (SessionRecovery) opens over the screen. Otherwise the user is signed out, and the login screen
 * remembers the page.
 */
export function AuthProvider({ children, restoreTimeoutMs = RESTORE_TIMEOUT_MS }: AuthProviderProps) {
  const [user, setUserState] = useState<SessionUser | null>(() => readStoredUser());
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);
  const [restoring, setRestoring] = useState(() => user !== null);
  const session = useSessionQuery(restoring);
  const userRef = useRef(user);
  userRef.current = user;

  const [gate] = useState(() => new SessionGate());
  const onExpire = useRef<() => void>(() => undefined);
  const [clock] = useState(() => new SessionClock(() => onExpire.current()));

  const setUser = useCallback(
    (u: SessionUser, sentAt?: number) => {
      if (u.session && sentAt !== undefined) clock.start(u.session, sentAt);
      setSignedOutOnPurpose(false);
      setUserState(withoutTiming(u));
    },
    [clock],
  );
  const clear = useCallback(
    (reason: SignOutReason = 'ended') => {
      clock.stop();
      setSignedOutOnPurpose(reason === 'signedOut');
      setUserState(null);
    },
    [clock],
  );
  const signedIn = useCallback(
    (u: SessionUser, sentAt: number) => {
      gate.noteSignIn(userRef.current?.userCode === u.userCode);
      setUser(u, sentAt);
    },
    [gate, setUser],
  );

  /** The session has ended: answered in place when there is unsaved input, else by signing out. */
  const sessionEnded = useCallback(() => {
    if (userRef.current && gate.canHold()) {
      clock.stop();
      void gate.hold();
      return;
    }
    clear();
  }, [clock, gate, clear]);
  onExpire.current = sessionEnded;

  const fresh = session.data?.data;
  const freshSentAt = session.data?.sentAt;
  useEffect(() => {
    // A late answer must not resurrect a user who signed out in the meantime.
    if (!fresh || !userRef.current || userRef.current.userCode !== fresh.userCode) return;
    setUser(fresh, freshSentAt);
  }, [fresh, freshSentAt, setUser]);

  // An error ends the wait too: an unreachable server keeps the stored user, and a 401 has
  // already cleared it through the API client's handler.
  useRestoreEnd(restoring, session.isSuccess || session.isError, restoreTimeoutMs, setRestoring);
  useApiSessionReports(gate, clock, clear, userRef);
  useClockConnection(clock);
  useEffect(() => {
    writeStoredUser(user);
  }, [user]);
  // Signed in as `next` in another tab.
  const adopt = useCallback((next: SessionUser) => {
    setSignedOutOnPurpose(false);
    setUserState(next);
  }, []);
  useOtherTabs(gate, userRef, sessionEnded, adopt);

  const value = useMemo<AuthState>(
    () => ({ user, isAuthenticated: user !== null, signedOutOnPurpose, setUser, clear }),
    [user, signedOutOnPurpose, setUser, clear],
  );
  const control = useMemo<SessionControl>(
    () => ({ gate, clock, signedIn, sessionEnded }),
    [gate, clock, signedIn, sessionEnded],
  );
  return (
    <AuthContext.Provider value={value}>
      <SessionContext.Provider value={control}>
        {restoring ? <PageLoader label="Restoring your session" /> : children}
      </SessionContext.Provider>
    </AuthContext.Provider>
  );
}

/** The wait for the stored user's session ends with the server's answer, or after `timeoutMs`. */
function useRestoreEnd(
  restoring: boolean,
  settled: boolean,
  timeoutMs: number,
  end: (restoring: false) => void,
) {
  useEffect(() => {
    if (settled) end(false);
  }, [settled, end]);

  useEffect(() => {
    if (!restoring) return;
    const timer = setTimeout(() => end(false), timeoutMs);
    return () => clearTimeout(timer);
  }, [restoring, timeoutMs, end]);
}

/**
 * What the API client reports about the session: a 401 is answered in place (held for a sign-in
 * over unsaved input, replayed, dropped) or by signing out; every success moves the idle expiry on.
 */
function useApiSessionReports(
  gate: SessionGate,
  clock: SessionClock,
  clear: (reason?: SignOutReason) => void,
  userRef: { readonly current: SessionUser | null },
) {
  useEffect(
    () =>
      onUnauthorized(({ path, startedAt }) => {
        // A refused password is no ended session.
        if (path === LOGIN_PATH) return 'fail';
        // Sent with the cookie of a session since replaced: another user's call is never replayed.
        if (startedAt < gate.userChangedAt) return 'drop';
        if (startedAt < gate.signedInAt) return 'retry';
        if (gate.getSnapshot().kind === 'discarding') return 'drop';
        // Signing out of an ended session needs no sign-in first.
        if (path !== LOGOUT_PATH && userRef.current && gate.canHold()) {
          clock.stop();
          return gate.hold();
        }
        clear(path === LOGOUT_PATH ? 'signedOut' : 'ended');
        return 'fail';
      }),
    [gate, clock, clear, userRef],
  );

  // Every successful call shows the session was in use: the idle expiry moves on.
  useEffect(
    () =>
      onApiStatus(
        (status, call) => status === 200 && call.path !== LOGOUT_PATH && clock.activity(call.startedAt),
      ),
    [clock],
  );
}

/** The idle clock shares its deadline with the other tabs, and looks again when the tab shows. */
function useClockConnection(clock: SessionClock) {
  useEffect(() => {
    const disconnect = clock.connect();
    const onVisible = () => document.visibilityState === 'visible' && clock.recheck();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      disconnect();
    };
  }, [clock]);
}

/** Signing in or out in one tab applies to the others; a tab with unsaved input answers in place. */
function useOtherTabs(
  gate: SessionGate,
  userRef: { readonly current: SessionUser | null },
  sessionEnded: () => void,
  adopt: (user: SessionUser) => void,
) {
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== STORAGE_KEY) return;
      const next = parseStoredUser(e.newValue);
      const current = userRef.current;
      if (!next) {
        if (current) sessionEnded();
        return;
      }
      if (current && current.userCode !== next.userCode && gate.canHold()) {
        gate.noteSignIn(false);
        gate.discard({ goTo: 'home', user: next, sentAt: Date.now() });
        return;
      }
      if (current?.userCode === next.userCode && gate.getSnapshot().kind === 'signIn') {
        // The cookie is shared: signed in again over there, this tab's held calls may go.
        gate.noteSignIn(true);
        gate.resume();
      }
      adopt(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [gate, userRef, sessionEnded, adopt]);
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

export function useSessionControl(): SessionControl {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSessionControl must be used inside <AuthProvider>');
  return ctx;
}

/**
 * Tells the auth layer that the screen holds input the user has not saved (a form, grid edits,
 * a selection). While any screen does, an ended session does not sign the user out: a sign-in
 * dialog opens over the screen, and the call that found the session ended is sent again once
 * the same user has signed in. Call it on every render with the current state:
 * `useUnsavedInput(formState.isDirty)`. Outside an AuthProvider it does nothing.
 */
export function useUnsavedInput(dirty: boolean): void {
  const control = useContext(SessionContext);
  const [token] = useState(() => Symbol('unsaved input'));
  const gate = control?.gate;
  useEffect(() => {
    if (!gate || !dirty) return;
    gate.setInput(token, true);
    return () => gate.setInput(token, false);
  }, [gate, token, dirty]);
}

/**
 * For a request made without the API client (a file download) that was answered 401: the same as
 * the client's own 401, the sign-in dialog over unsaved input, else signing out to the login screen,
 * which remembers the page. Such a request is not sent again by itself.
 */
export function useSessionEnded(): () => void {
  return useSessionControl().sessionEnded;
}

/** `can('CREATE_ROLE', 'UPDATE_ROLE')` is true only when every named permission is held. */
export function useCan(): (...permissionNames: string[]) => boolean {
  const { user } = useAuth();
  return useCallback((...names: string[]) => hasPermission(user, ...names), [user]);
}
