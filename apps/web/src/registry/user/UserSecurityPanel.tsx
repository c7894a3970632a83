import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MySessionRecord } from '@wfc/contract';
import { Link as RouterLink } from 'react-router';
import { api, errorMessage } from '../../api/client';
import { failureOf } from '../../api/retry';
import { useAuth, useCan } from '../../auth/auth';
import { formatDateTime } from '../../ui/dates';
import { notify } from '../../ui/notify';
import { RequestError } from '../../ui/RequestError';
import type { ViewPanelProps } from '../resourceExtension';

/**
 * On a user's view screen, for a user manager (UPDATE_USER): where the user is signed in, signing
 * them out everywhere, and resetting their two-factor sign-in (a lost phone). On their own user
 * the server refuses both: My account does them, asking for the password.
 */
export function UserSecurityPanel({ code: userCode }: ViewPanelProps) {
  const can = useCan();
  const own = useAuth().user?.userCode === userCode;
  const queryClient = useQueryClient();
  const key = ['user-sessions', userCode];
  const sessions = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await api.post<MySessionRecord[]>('GetSessionsByUserCode', { userCode })).data ?? [],
    enabled: can('UPDATE_USER'),
  });
  const act = useMutation({
    mutationFn: (path: 'EndUserSessions' | 'ResetUserMfa') => api.post(path, { userCode }),
    onSuccess: (res) => notify.success(res.message),
    onError: (err) => notify.error(errorMessage(err, 'The change could not be made')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  if (!can('UPDATE_USER')) return null;
  const count = sessions.data?.length ?? 0;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Sign-in security"
      sx={{ mt: 3, p: { xs: 2, sm: 3 }, maxWidth: 880 }}
    >
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        <Box sx={{ flex: '1 1 240px' }}>
          <Typography variant="h2" sx={{ fontSize: '1.15rem', fontWeight: 600 }}>
            Sign-in security
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {sessions.isPending ? 'Loading sessions...' : `${count} active session${count === 1 ? '' : 's'}`}
          </Typography>
        </Box>
        {own ? (
          <Typography variant="body2" sx={{ flex: '1 1 240px' }}>
            Your own sessions and two-factor sign-in are in{' '}
            <Link component={RouterLink} to="/account">
              My account
            </Link>
            .
          </Typography>
        ) : (
          <>
            <Button
              variant="outlined"
              color="error"
              disabled={act.isPending || count === 0}
              onClick={() => act.mutate('EndUserSessions')}
            >
              Sign out everywhere
            </Button>
            <Button variant="outlined" disabled={act.isPending} onClick={() => act.mutate('ResetUserMfa')}>
              Reset two-factor sign-in
            </Button>
          </>
        )}
      </Box>
      {sessions.isError && <RequestError {...failureOf(sessions, 'Sessions could not be loaded')} />}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {(sessions.data ?? []).map((s) => (
          <Box component="li" key={s.sessionCode} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
            <Typography variant="body2">
              {s.ipAddress ?? 'Unknown address'} · last active {formatDateTime(s.lastSeenAt)}{' '}
              {s.current && <Chip size="small" label="Your session" sx={{ ml: 1 }} />}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {s.userAgent ?? 'Unknown browser'}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
