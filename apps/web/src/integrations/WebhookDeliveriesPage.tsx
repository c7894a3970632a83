import RefreshIcon from '@mui/icons-material/Refresh';
import ReplayIcon from '@mui/icons-material/Replay';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { WebhookDeliveryRecord } from '@wfc/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../api/client';
import { failureOf } from '../api/retry';
import { softShadow } from '../theme';
import { formatDateTime } from '../ui/dates';
import { notify } from '../ui/notify';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadingRegion } from '../ui/Skeletons';
import { Spinner } from '../ui/Spinner';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { Breakable } from './Breakable';
import { answerText, DeliveryStatusChip, monoFont } from './deliveryStatus';
import { IntegrationsTabs } from './IntegrationsTabs';
import { WEBHOOKS_PATH } from './paths';
import {
  type DeliveriesQuery,
  useRedeliverWebhook,
  useTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from './webhooksApi';

const FIRST_PAGE: DeliveriesQuery = { page: 1, limit: 20 };

const nextAttempt = (d: WebhookDeliveryRecord) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : '—');
const answer = (d: WebhookDeliveryRecord) => answerText(d.lastStatusCode, d.attempts > 0);

interface Redeliver {
  onSend(d: WebhookDeliveryRecord): void;
  /** The delivery being sent again. */
  sending?: string;
}

function SendAgainButton({ delivery, redeliver }: { delivery: WebhookDeliveryRecord; redeliver: Redeliver }) {
  const busy = redeliver.sending === delivery.deliveryCode;
  // A pending delivery is still being tried: sending it again would only queue it twice.
  const pending = delivery.status === 'pending';
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={busy ? <Spinner label="Sending" /> : <ReplayIcon fontSize="small" />}
      disabled={busy || pending}
      onClick={() => redeliver.onSend(delivery)}
      aria-label={`Send again: ${delivery.eventType} of ${formatDateTime(delivery.createdAt)}`}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Send again
    </Button>
  );
}

/** The receiver's last complaint, cut to a line; the whole of it on hover or focus. */
function LastError({ text }: { text: string | null }) {
  if (!text) return <>—</>;
  return (
    <Tooltip title={text} describeChild>
      <Box
        component="span"
        tabIndex={0}
        sx={{
          display: '-webkit-box',
          WebkitLineClamp: 2,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
          overflowWrap: 'break-word',
          color: 'error.main',
        }}
      >
        {text}
      </Box>
    </Tooltip>
  );
}

function DeliveryTable({ rows, redeliver }: { rows: WebhookDeliveryRecord[]; redeliver: Redeliver }) {
  return (
    <TableContainer>
      <Table
        aria-label="Deliveries"
        size="small"
        sx={{
          '& th': { whiteSpace: 'nowrap' },
          '& .MuiTableCell-root': { px: 1.5 },
          '& .MuiTableCell-root:first-of-type': { pl: 2 },
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell>Time</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Answer</TableCell>
            <TableCell align="right">Attempts</TableCell>
            <TableCell>Next attempt</TableCell>
            <TableCell>Last error</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((d) => (
            <TableRow key={d.deliveryCode} sx={{ '& td': { py: 1.25 } }}>
              <TableCell sx={{ minWidth: 130 }}>{formatDateTime(d.createdAt)}</TableCell>
              <TableCell sx={{ ...monoFont, minWidth: 120 }}>
                <Breakable text={d.eventType} />
              </TableCell>
              <TableCell>
                <DeliveryStatusChip status={d.status} attempts={d.attempts} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{answer(d)}</TableCell>
              <TableCell align="right">{d.attempts}</TableCell>
              <TableCell sx={{ minWidth: 130 }}>{nextAttempt(d)}</TableCell>
              <TableCell sx={{ minWidth: 140, maxWidth: 260 }}>
                <LastError text={d.lastError} />
              </TableCell>
              <TableCell align="right">
                <SendAgainButton delivery={d} redeliver={redeliver} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone each delivery is a block of lines. */
function DeliveryList({ rows, redeliver }: { rows: WebhookDeliveryRecord[]; redeliver: Redeliver }) {
  return (
    <Box component="ul" aria-label="Deliveries" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {rows.map((d) => (
        <Box
          component="li"
          key={d.deliveryCode}
          sx={{ px: 2, py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography
              sx={{ ...monoFont, fontWeight: 600, flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' }}
            >
              {d.eventType}
            </Typography>
            <DeliveryStatusChip status={d.status} attempts={d.attempts} />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {formatDateTime(d.createdAt)} · {answer(d)} ·{' '}
            {d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`}
          </Typography>
          {d.nextAttemptAt && (
            <Typography variant="body2" color="text.secondary">
              Next attempt {nextAttempt(d)}
            </Typography>
          )}
          {d.lastError && (
            <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
              {d.lastError}
            </Typography>
          )}
          <Box sx={{ mt: 1 }}>
            <SendAgainButton delivery={d} redeliver={redeliver} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function Deliveries({
  webhookCode,
  query,
  onQuery,
  redeliver,
}: {
  webhookCode: string;
  query: DeliveriesQuery;
  onQuery(q: DeliveriesQuery): void;
  redeliver: Redeliver;
}) {
  const page = useWebhookDeliveries(webhookCode, query);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  if (page.isPending) {
    return (
      <LoadingRegion label="Loading the deliveries">
        <Skeleton variant="rounded" height={160} />
      </LoadingRegion>
    );
  }
  if (page.isError) return <RequestError {...failureOf(page, 'Failed to fetch deliveries')} />;
  const { deliveries = [], total = 0 } = page.data ?? {};
  if (total === 0) {
    return (
      <Box sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>No deliveries yet</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Each event this webhook is told of shows here, with the receiver's answer. Send a test event to try
          it.
        </Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ position: 'relative' }}>
      {page.isPlaceholderData && <LoadingOverlay label="Loading the deliveries" />}
      {phone ? (
        <DeliveryList rows={deliveries} redeliver={redeliver} />
      ) : (
        <DeliveryTable rows={deliveries} redeliver={redeliver} />
      )}
      <TablePager total={total} query={query} onChange={onQuery} />
    </Box>
  );
}

/** A webhook's delivery log: each event's status, the receiver's answer and attempts, and Send again. */
export function WebhookDeliveriesPage() {
  const webhookCode = useParams().webhookCode ?? '';
  const hooks = useWebhooks();
  const hook = hooks.data?.find((h) => h.webhookCode === webhookCode);
  const [query, setQuery] = useState(FIRST_PAGE);
  const page = useWebhookDeliveries(webhookCode, query);
  const test = useTestWebhook();
  const resend = useRedeliverWebhook();
  const redeliver: Redeliver = {
    onSend: (d) =>
      resend.mutate(d.deliveryCode, {
        onSuccess: (res) => notify.success(res.message || `${d.eventType} is on its way again`),
        onError: (err) => notify.error(errorMessage(err, 'The delivery could not be sent again')),
      }),
    sending: resend.isPending ? resend.variables : undefined,
  };
  const sendTest = () =>
    test.mutate(webhookCode, {
      onSuccess: (res) => {
        notify.success(res.message || 'A test event is on its way');
        // The newest delivery is first: the test shows at the top of page 1.
        setQuery((q) => ({ ...q, page: 1 }));
      },
      onError: (err) => notify.error(errorMessage(err, 'The test event could not be sent')),
    });
  return (
    <Box>
      <ScreenHeader
        title="Deliveries"
        subtitle={hook ? hook.url : undefined}
        crumbs={[
          { label: 'Integrations', to: '/integrations' },
          { label: 'Webhooks', to: WEBHOOKS_PATH },
          { label: 'Deliveries' },
        ]}
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={page.isFetching ? <Spinner label="Refreshing" /> : <RefreshIcon />}
              disabled={page.isFetching}
              onClick={() => void page.refetch()}
            >
              Refresh
            </Button>
            <Button
              variant="contained"
              startIcon={<SendOutlinedIcon />}
              disabled={test.isPending}
              onClick={sendTest}
            >
              Send test event
            </Button>
          </>
        }
      />
      <IntegrationsTabs />
      <Card sx={{ boxShadow: softShadow('0 8px 28px', 0.06) }}>
        <Deliveries webhookCode={webhookCode} query={query} onQuery={setQuery} redeliver={redeliver} />
      </Card>
    </Box>
  );
}

export default WebhookDeliveriesPage;
