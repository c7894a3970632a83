import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, SessionUser } from '@wfc/contract';
import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { useEffect } from 'react';
import { ApiError, api, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { useSessionControl } from './auth';

export const LOGIN_SUCCESS = 'Logged in successfully';
export const LOGIN_FAILURE = 'Failed to login';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * The password was right and the account signs in with a second factor: the sign-in screen asks
 * for the code next (VerifyMfa), in this browser, within 5 minutes.
 */
export class MfaRequired extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MfaRequired';
  }
}

/** What completes a sign-in: the user (with the session's timing), the message, when it was sent. */
function signedInAnswer(res: { message: string; data?: SessionUser }, sentAt: number) {
  // A sign-in that names nobody cannot be acted on: it is reported like a refusal.
  if (!res.data) throw new ApiError({ statusCode: 200, message: res.message });
  return { user: res.data, message: res.message, sentAt };
}

/** POST /api/login, answered with the signed-in user (and the session's timing) or thrown. */
export async function requestSignIn(credentials: Credentials) {
  const sentAt = Date.now();
  const res = await api.post<LoginAnswer>('login', { ...credentials });
  if (res.data && 'mfaRequired' in res.data) throw new MfaRequired(res.message);
  return signedInAnswer({ message: res.message, data: res.data }, sentAt);
}

export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

/** POST /api/VerifyMfa: the second step, answered as a sign-in is. */
export async function requestVerifyMfa(factor: SecondFactor) {
  const sentAt = Date.now();
  return signedInAnswer(await api.post<SessionUser>('VerifyMfa', { ...factor }), sentAt);
}

/**
 * POST /api/login; the signed-in user is kept. The login route's guard (RedirectIfAuthenticated)
 * then sends the visitor to the page named by the login URL's `next` (when it is a page of this
 * console), else home: one navigation only, as a second one racing it could interrupt the
 * loading of the registry screens and end on the catch-all route.
 */
export function useSignIn() {
  const { signedIn } = useSessionControl();
  return useMutation({
    mutationFn: requestSignIn,
    onSuccess: ({ user, message, sentAt }) => {
      signedIn(user, sentAt);
      notify.success(message || LOGIN_SUCCESS);
    },
    onError: (err) => {
      // Not a failure: the screen asks for the code.
      if (err instanceof MfaRequired) return;
      if (err instanceof ApiError) {
        console.error('Login failed', err.message);
        notify.error(err.message || LOGIN_FAILURE);
        return;
      }
      console.error('Login failed', err);
      notify.error(errorMessage(err, DEFAULT_UNEXPECTED_MESSAGE));
    },
  });
}

/** The second step of a sign-in; a wrong code is shown on its field by the screen, not toasted. */
export function useVerifyMfa() {
  const { signedIn } = useSessionControl();
  return useMutation({
    mutationFn: requestVerifyMfa,
    onSuccess: ({ user, message, sentAt }) => {
      signedIn(user, sentAt);
      notify.success(message || LOGIN_SUCCESS);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 400) return;
      notify.error(errorMessage(err, LOGIN_FAILURE));
    },
  });
}

/**
 * Back from single sign-on (`/login?sso=signed-in`): the server has set the session cookie; the
 * signed-in user is read once, after which the sign-in page's guard opens the page asked for.
 */
export function useCompleteSingleSignOn(active: boolean) {
  const { signedIn } = useSessionControl();
  useEffect(() => {
    if (!active) return;
    const sentAt = Date.now();
    api.get<SessionUser>('GetSession').then(
      (res) => {
        if (res.data) signedIn(res.data, sentAt);
      },
      () => notify.error(LOGIN_FAILURE),
    );
  }, [active, signedIn]);
}
