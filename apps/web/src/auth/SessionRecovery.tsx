import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { notify } from '../ui/notify';
import { useAuth, useSessionControl } from './auth';
import type { GateState } from './sessionGate';
import { LOGIN_SUCCESS } from './useSignIn';

// The dialogs bring MUI's Dialog (modal, focus trap, transitions), which the login screen does not
// need: they load with the first signed-in screen, well before a session can end.
const loadDialogs = () => import('./SessionDialogs');
const SignInDialog = lazy(() => loadDialogs().then((m) => ({ default: m.SignInDialog })));
const IdleWarningDialog = lazy(() => loadDialogs().then((m) => ({ default: m.IdleWarningDialog })));

/** What the sign-in dialog and the screens see of the gate. */
export function useSessionGate(): GateState {
  const { gate } = useSessionControl();
  return useSyncExternalStore(gate.subscribe, gate.getSnapshot);
}

/** True while the screen and its drafts are being thrown away: the shell shows no screen meanwhile. */
export const useDiscardingScreen = () => useSessionGate().kind === 'discarding';

/**
 * The in-place sign-in dialog and the idle warning, over whatever screen is open. Rendered once,
 * inside the router, by the shell. While it is mounted, an ended session with unsaved input on
 * screen is answered here rather than by signing out.
 */
export function SessionRecovery() {
  const { user, isAuthenticated, setUser, clear } = useAuth();
  const { gate, clock } = useSessionControl();
  const gateState = useSessionGate();
  const clockState = useSyncExternalStore(clock.subscribe, clock.getSnapshot);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const discardTarget = useRef<string | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => gate.attachHost(), [gate]);

  useEffect(() => {
    if (isAuthenticated) void loadDialogs().catch(() => undefined);
  }, [isAuthenticated]);

  // The shell has already taken the screen away (its drafts, its navigation blockers): go on.
  useEffect(() => {
    if (gateState.kind !== 'discarding') return;
    queryClient.clear();
    if (gateState.goTo === 'home') {
      setUser(gateState.user, gateState.sentAt);
      discardTarget.current = '/';
    } else {
      clear('signedOut');
      discardTarget.current = '/login';
    }
    navigate(discardTarget.current, { replace: true });
  }, [gateState, queryClient, setUser, clear, navigate]);

  // Screens show again once the shell renders the new page, so the discarded one never flashes back.
  useEffect(() => {
    if (gateState.kind !== 'discarding' || discardTarget.current !== pathname) return;
    discardTarget.current = null;
    gate.finishDiscard();
  }, [gateState, pathname, gate]);

  if (gateState.kind === 'signIn' && user) {
    return (
      <Suspense fallback={null}>
        <SignInDialog
          user={user}
          onSignedOut={() => {
            // Ends the session on the server too, should the browser's clock have run out first.
            void api.get('logout').catch(() => undefined);
            gate.discard({ goTo: 'login' });
          }}
          onOtherUser={(other, sentAt, message) => {
            notify.success(message || LOGIN_SUCCESS);
            gate.discard({ goTo: 'home', user: other, sentAt });
          }}
        />
      </Suspense>
    );
  }
  const { phase, deadline, final } = clockState;
  if (
    gateState.kind === 'open' &&
    isAuthenticated &&
    phase === 'warning' &&
    deadline !== null &&
    deadline !== dismissed
  ) {
    return (
      <Suspense fallback={null}>
        <IdleWarningDialog deadline={deadline} final={final} onDismiss={() => setDismissed(deadline)} />
      </Suspense>
    );
  }
  return null;
}
