import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiFetchError, api } from '../api/client';
import { notify } from '../ui/notify';
import { useAuth } from './auth';

export const SIGN_OUT_SUCCESS = 'Logged out successfully';
export const SIGN_OUT_FAILURE = 'Failed to logout';

/** GET /api/logout; only a 200 signs the user out here (a 401 is handled by the auth layer). */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const { clear } = useAuth();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = useCallback(async () => {
    setSigningOut(true);
    try {
      const env = await api.get('logout');
      if (env.statusCode === 200) {
        notify.success(env.message || SIGN_OUT_SUCCESS);
        clear();
        navigate('/login', { replace: true });
        return;
      }
      console.error('Sign out failed', env.message);
      notify.error(env.message || SIGN_OUT_FAILURE);
    } catch (err) {
      console.error('Sign out failed', err);
      notify.error(err instanceof ApiFetchError ? err.message : DEFAULT_UNEXPECTED_MESSAGE);
    } finally {
      setSigningOut(false);
    }
  }, [clear, navigate]);

  return { signOut, signingOut };
}
