import { useMutation } from '@tanstack/react-query';
import type { SessionUser } from '@wfc/contract';
import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { ApiError, api, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { useSessionControl } from './auth';

export const LOGIN_SUCCESS = 'Logged in successfully';
export const LOGIN_FAILURE = 'Failed to login';

export interface Credentials {
  username: string;
  password: string;
}

/** POST /api/login, answered with the signed-in user (and the session's timing) or thrown. */
export async function requestSignIn(credentials: Credentials) {
  const sentAt = Date.now();
  const res = await api.post<SessionUser>('login', { ...credentials });
  // A sign-in that names nobody cannot be acted on: it is reported like a refusal.
  if (!res.data) throw new ApiError({ statusCode: 200, message: res.message });
  return { user: res.data, message: res.message, sentAt };
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
