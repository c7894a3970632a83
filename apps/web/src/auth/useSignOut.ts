import { useMutation } from '@tanstack/react-query';
import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { useNavigate } from 'react-router';
import { ApiError, api, errorMessage } from '../api/client';
import { notify } from '../ui/notify';
import { useAuth } from './auth';

export const SIGN_OUT_SUCCESS = 'Logged out successfully';
export const SIGN_OUT_FAILURE = 'Failed to logout';

/** GET /api/logout; only a 200 signs the user out here (a 401 is handled by the auth layer). */
export function useSignOut(): { signOut: () => void; signingOut: boolean } {
  const { clear } = useAuth();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => api.get('logout'),
    onSuccess: (res) => {
      notify.success(res.message || SIGN_OUT_SUCCESS);
      clear('signedOut');
      navigate('/login', { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        console.error('Sign out failed', err.message);
        notify.error(err.message || SIGN_OUT_FAILURE);
        return;
      }
      console.error('Sign out failed', err);
      notify.error(errorMessage(err, DEFAULT_UNEXPECTED_MESSAGE));
    },
  });
  return { signOut: () => mutation.mutate(), signingOut: mutation.isPending };
}
