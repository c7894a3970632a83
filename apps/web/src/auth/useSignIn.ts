import { useMutation } from '@tanstack/react-query';
import type { SessionUser } from '@wfc/contract';
import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { useNavigate } from 'react-router';
import { ApiError, api, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { useAuth } from './auth';

export const LOGIN_SUCCESS = 'Logged in successfully';
export const LOGIN_FAILURE = 'Failed to login';

export interface Credentials {
  username: string;
  password: string;
}

/** POST /api/login; the signed-in user is kept, and the visitor goes home. */
export function useSignIn() {
  const { setUser } = useAuth();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (credentials: Credentials) => {
      const res = await api.post<SessionUser>('login', { ...credentials });
      // A sign-in that names nobody cannot be acted on: it is reported like a refusal.
      if (!res.data) throw new ApiError({ statusCode: 200, message: res.message });
      return { user: res.data, message: res.message };
    },
    onSuccess: ({ user, message }) => {
      setUser(user);
      notify.success(message || LOGIN_SUCCESS);
      navigate('/', { replace: true });
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
