import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ApiTokenRecord } from '@wfc/contract';
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { failureOf } from '../api/retry';
import { softShadow } from '../theme';
import { formatDateTime } from '../ui/dates';
import { notify } from '../ui/notify';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadingRegion } from '../ui/Skeletons';
import { useApiTokens, useRevokeApiToken } from './api';
import { CreateApiTokenDialog } from './CreateApiTokenDialog';
import { IntegrationsTabs } from './IntegrationsTabs';

const STATUS: Record<ApiTokenRecord['status'], { label: string; color: 'success' | 'default' | 'warning' }> =
  {
    active: { label: 'Active', color: 'success' },
    expired: { label: 'Expired', color: 'warning' },
    revoked: { label: 'Revoked', color: 'default' },
  };

const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso) : none);

function StatusChip({ token }: { token: ApiTokenRecord }) {
  const s = STATUS[token.status];
  return (
    <Chip
      size="small"
      label={s.label}
      color={s.color}
      variant={token.status === 'active' ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85em' };

function RevokeDialog({ token, onClose }: { token: ApiTokenRecord; onClose: () => void }) {
  const revoke = useRevokeApiToken();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="revoke-token-title">
      <DialogTitle id="revoke-token-title">Revoke the token of {token.name}?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Its next call is refused, on every server, and it cannot be turned back on. The integration needs a
          new token to go on working.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="error"
          disabled={revoke.isPending}
          onClick={() =>
            revoke.mutate(token.tokenCode, {
              onSuccess: () => {
                notify.success(`The token of ${token.name} is revoked`);
                onClose();
              },
              onError: (err) => notify.error(errorMessage(err, 'The token could not be revoked')),
            })
          }
        >
          Revoke
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RevokeButton({ token, onRevoke }: { token: ApiTokenRecord; onRevoke: (t: ApiTokenRecord) => void }) {
  if (token.status === 'revoked') return null;
  return (
    <Button
      size="small"
      variant="outlined"
      color="error"
      onClick={() => onRevoke(token)}
      aria-label={`Revoke the token of ${token.name}`}
    >
      Revoke
    </Button>
  );
}

function TokenTable({
  tokens,
  onRevoke,
}: {
  tokens: ApiTokenRecord[];
  onRevoke: (t: ApiTokenRecord) => void;
}) {
  return (
    <TableContainer>
      <Table aria-label="API tokens">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Token</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Expires</TableCell>
            <TableCell>Last used</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tokens.map((t) => (
            <TableRow key={t.tokenCode} sx={{ opacity: t.status === 'revoked' ? 0.7 : 1 }}>
              <TableCell sx={{ fontWeight: 600 }}>
                {t.name}
                {t.allowedAddresses.length > 0 && (
                  <Typography variant="body2" color="text.secondary">
                    From {t.allowedAddresses.join(', ')}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{t.role.roleName}</TableCell>
              <TableCell sx={mono}>{t.tokenPrefix}...</TableCell>
              <TableCell>
                {formatDateTime(t.createdAt)}
                <Typography variant="body2" color="text.secondary">
                  by {t.createdBy.username ?? 'someone since deleted'}
                </Typography>
              </TableCell>
              <TableCell>{when(t.expiresAt, 'Never')}</TableCell>
              <TableCell>{when(t.lastUsedAt, 'Not yet')}</TableCell>
              <TableCell>
                <StatusChip token={t} />
              </TableCell>
              <TableCell align="right">
                <RevokeButton token={t} onRevoke={onRevoke} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone each token is a block of its own: seven columns do not fit. */
function TokenList({
  tokens,
  onRevoke,
}: {
  tokens: ApiTokenRecord[];
  onRevoke: (t: ApiTokenRecord) => void;
}) {
  return (
    <Box component="ul" aria-label="API tokens" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {tokens.map((t) => (
        <Box
          component="li"
          key={t.tokenCode}
          sx={{ px: 2, py: 1.75, '& + &': { borderTop: 1, borderColor: 'divider' } }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 600, flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' }}>
              {t.name}
            </Typography>
            <StatusChip token={t} />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t.role.roleName} ·{' '}
            <Box component="span" sx={mono}>
              {t.tokenPrefix}...
            </Box>
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Expires {when(t.expiresAt, 'never')} · last used {when(t.lastUsedAt, 'not yet')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Created {formatDateTime(t.createdAt)} by {t.createdBy.username ?? 'someone since deleted'}
          </Typography>
          {t.allowedAddresses.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              From {t.allowedAddresses.join(', ')}
            </Typography>
          )}
          {t.status !== 'revoked' && (
            <Box sx={{ mt: 1 }}>
              <RevokeButton token={t} onRevoke={onRevoke} />
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

function Tokens({ onRevoke }: { onRevoke: (t: ApiTokenRecord) => void }) {
  const tokens = useApiTokens();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  if (tokens.isPending) {
    return (
      <LoadingRegion label="Loading the API tokens">
        <Skeleton variant="rounded" height={160} />
      </LoadingRegion>
    );
  }
  if (tokens.isError) return <RequestError {...failureOf(tokens, 'The API tokens could not be loaded')} />;
  if (tokens.data.length === 0) {
    return (
      <Box sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>No API tokens yet</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Create one for each integration that calls the console, with the role it needs and no more.
        </Typography>
      </Box>
    );
  }
  return phone ? (
    <TokenList tokens={tokens.data} onRevoke={onRevoke} />
  ) : (
    <TokenTable tokens={tokens.data} onRevoke={onRevoke} />
  );
}

/** Integrations > API tokens: the credentials other systems call the API with. */
export function ApiTokensPage() {
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenRecord>();
  return (
    <Box>
      <ScreenHeader
        title="API tokens"
        subtitle="Each integration calls the API with a token of its own, sent as Authorization: Bearer. Its role limits what it may do."
        crumbs={[{ label: 'Integrations', to: '/integrations' }, { label: 'API tokens' }]}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            New token
          </Button>
        }
      />
      <IntegrationsTabs />
      <Card sx={{ boxShadow: softShadow('0 8px 28px', 0.06) }}>
        <Tokens onRevoke={setRevoking} />
      </Card>
      {creating && <CreateApiTokenDialog onClose={() => setCreating(false)} />}
      {revoking && <RevokeDialog token={revoking} onClose={() => setRevoking(undefined)} />}
    </Box>
  );
}

export default ApiTokensPage;
