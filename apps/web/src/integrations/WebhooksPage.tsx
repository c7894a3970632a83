import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
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
import { WEBHOOK_EVENT_TYPES, type WebhookRecord } from '@wfc/contract';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError, errorMessage } from '../api/client';
import { failureOf } from '../api/retry';
import { softShadow } from '../theme';
import { formatDateTime } from '../ui/dates';
import { FailureAlert } from '../ui/FailureAlert';
import { notify } from '../ui/notify';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadingRegion } from '../ui/Skeletons';
import { Breakable } from './Breakable';
import { answerText, DeliveryStatusChip, monoFont } from './deliveryStatus';
import { IntegrationsTabs } from './IntegrationsTabs';
import { deliveriesPath } from './paths';
import { WebhookDialog } from './WebhookDialog';
import { webhookEventLabel } from './webhookEvents';
import { useDeleteWebhook, useTestWebhook, useWebhooks } from './webhooksApi';

/** Up to this many events are shown one by one; more read as a count, listed in a tooltip. */
const EVENTS_SHOWN = 3;

const createdBy = (hook: WebhookRecord) => hook.createdBy.username ?? 'someone since deleted';

/** The URL's host, to name a webhook in a sentence: 'hooks.example.com'. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function ActiveChip({ hook }: { hook: WebhookRecord }) {
  return (
    <Chip
      size="small"
      label={hook.active ? 'Active' : 'Paused'}
      color={hook.active ? 'success' : 'default'}
      variant={hook.active ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}

/** The events as chips, or for many of them a count whose tooltip lists them. */
export function EventsSummary({ events }: { events: readonly string[] }) {
  if (events.length <= EVENTS_SHOWN) {
    return (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        {events.map((e) => (
          <Chip
            key={e}
            size="small"
            variant="outlined"
            label={e}
            title={webhookEventLabel(e)}
            sx={monoFont}
          />
        ))}
      </Box>
    );
  }
  const every =
    events.length >= WEBHOOK_EVENT_TYPES.length && WEBHOOK_EVENT_TYPES.every((t) => events.includes(t));
  const label = every ? `All ${events.length} events` : `${events.length} events`;
  return (
    <Tooltip
      describeChild
      title={
        <Box component="ul" sx={{ m: 0, pl: 2, maxHeight: 320, overflowY: 'auto' }}>
          {events.map((e) => (
            <li key={e}>{webhookEventLabel(e)}</li>
          ))}
        </Box>
      }
    >
      <Chip size="small" variant="outlined" label={label} tabIndex={0} sx={{ fontWeight: 600 }} />
    </Tooltip>
  );
}

function LastDelivery({ hook, inline }: { hook: WebhookRecord; inline?: boolean }) {
  const last = hook.lastDelivery;
  if (!last) {
    return (
      <Typography variant="body2" color="text.secondary">
        {inline ? 'No deliveries yet' : 'None yet'}
      </Typography>
    );
  }
  const code = last.statusCode !== null ? answerText(last.statusCode, true) : null;
  // An answer means it was tried: a pending one with an answer is being retried.
  const chip = <DeliveryStatusChip status={last.status} attempts={code ? 1 : 0} />;
  if (inline) {
    return (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
        {chip}
        <Typography variant="body2" color="text.secondary" component="span">
          {code ? `${code} · ` : ''}
          {formatDateTime(last.at)}
        </Typography>
      </Box>
    );
  }
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
        {chip}
        {code && (
          <Typography variant="body2" color="text.secondary" component="span" sx={{ whiteSpace: 'nowrap' }}>
            {code}
          </Typography>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
        {formatDateTime(last.at)}
      </Typography>
    </>
  );
}

interface Actions {
  onEdit(hook: WebhookRecord): void;
  onDelete(hook: WebhookRecord): void;
  onTest(hook: WebhookRecord): void;
  /** The webhook whose test event is on its way. */
  testing?: string;
}

/** Deliveries, Send test event, Edit, Delete: icons with their names on a desktop, words on a phone. */
function RowActions({ hook, actions, compact }: { hook: WebhookRecord; actions: Actions; compact: boolean }) {
  const host = hostOf(hook.url);
  const items = [
    {
      key: 'deliveries',
      label: 'Deliveries',
      name: `Deliveries of ${host}`,
      Icon: HistoryIcon,
      link: deliveriesPath(hook.webhookCode),
    },
    {
      key: 'test',
      label: 'Send test event',
      name: `Send test event to ${host}`,
      Icon: SendOutlinedIcon,
      onClick: () => actions.onTest(hook),
      disabled: actions.testing === hook.webhookCode,
    },
    {
      key: 'edit',
      label: 'Edit',
      name: `Edit the webhook to ${host}`,
      Icon: EditOutlinedIcon,
      onClick: () => actions.onEdit(hook),
    },
    {
      key: 'delete',
      label: 'Delete',
      name: `Delete the webhook to ${host}`,
      Icon: DeleteOutlineIcon,
      onClick: () => actions.onDelete(hook),
      danger: true,
    },
  ];
  if (!compact) {
    return (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {items.map(({ key, label, name, Icon, link, onClick, disabled, danger }) => (
          <Button
            key={key}
            size="small"
            variant="outlined"
            color={danger ? 'error' : 'primary'}
            startIcon={<Icon fontSize="small" />}
            aria-label={name}
            disabled={disabled}
            {...(link ? { component: RouterLink, to: link } : { onClick })}
          >
            {label}
          </Button>
        ))}
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.25 }}>
      {items.map(({ key, label, name, Icon, link, onClick, disabled, danger }) => (
        <Tooltip key={key} title={label}>
          {/* A disabled button hears no pointer: the span carries the tooltip. */}
          <span>
            <IconButton
              size="small"
              aria-label={name}
              disabled={disabled}
              color={danger ? 'error' : 'default'}
              {...(link ? { component: RouterLink, to: link } : { onClick })}
            >
              <Icon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ))}
    </Box>
  );
}

/** The URL, what it is for, and (in the table) who created it when. */
function UrlCell({ hook, created }: { hook: WebhookRecord; created?: boolean }) {
  return (
    <>
      <Box component="span" sx={{ ...monoFont, fontWeight: 600, overflowWrap: 'anywhere', display: 'block' }}>
        <Breakable text={hook.url} />
      </Box>
      {hook.description && (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere', mt: 0.25 }}>
          {hook.description}
        </Typography>
      )}
      {created && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, overflowWrap: 'anywhere' }}>
          Created {formatDateTime(hook.createdAt)} by {createdBy(hook)}
        </Typography>
      )}
    </>
  );
}

function WebhookTable({ hooks, actions }: { hooks: WebhookRecord[]; actions: Actions }) {
  return (
    <TableContainer>
      <Table
        aria-label="Webhooks"
        sx={{ '& .MuiTableCell-root': { px: 1.5 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>URL</TableCell>
            <TableCell>Events</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Last delivery</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {hooks.map((h) => (
            <TableRow key={h.webhookCode} sx={{ verticalAlign: 'top', opacity: h.active ? 1 : 0.8 }}>
              <TableCell sx={{ minWidth: 220 }}>
                <UrlCell hook={h} created />
              </TableCell>
              <TableCell sx={{ maxWidth: 200 }}>
                <EventsSummary events={h.events} />
              </TableCell>
              <TableCell sx={{ minWidth: 130 }}>
                <ActiveChip hook={h} />
                {h.includePersonalData && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    With personal details
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <LastDelivery hook={h} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <RowActions hook={h} actions={actions} compact />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone each webhook is a block of its own: five columns do not fit. */
function WebhookList({ hooks, actions }: { hooks: WebhookRecord[]; actions: Actions }) {
  return (
    <Box component="ul" aria-label="Webhooks" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {hooks.map((h) => (
        <Box
          component="li"
          key={h.webhookCode}
          sx={{ px: 2, py: 1.75, '& + &': { borderTop: 1, borderColor: 'divider' } }}
        >
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
              <UrlCell hook={h} />
            </Box>
            <ActiveChip hook={h} />
          </Box>
          <Box sx={{ mt: 1 }}>
            <EventsSummary events={h.events} />
          </Box>
          <Box sx={{ mt: 1 }}>
            <LastDelivery hook={h} inline />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Created {formatDateTime(h.createdAt)} by {createdBy(h)}
            {h.includePersonalData ? ' · with personal details' : ''}
          </Typography>
          <Box sx={{ mt: 1.25 }}>
            <RowActions hook={h} actions={actions} compact={false} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function Webhooks({ actions }: { actions: Actions }) {
  const hooks = useWebhooks();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  if (hooks.isPending) {
    return (
      <LoadingRegion label="Loading the webhooks">
        <Skeleton variant="rounded" height={160} />
      </LoadingRegion>
    );
  }
  if (hooks.isError) return <RequestError {...failureOf(hooks, 'Failed to fetch webhooks')} />;
  if (hooks.data.length === 0) {
    return (
      <Box sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>No webhooks yet</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Add one to tell another system, such as payroll, of changes as they happen.
        </Typography>
      </Box>
    );
  }
  return phone ? (
    <WebhookList hooks={hooks.data} actions={actions} />
  ) : (
    <WebhookTable hooks={hooks.data} actions={actions} />
  );
}

function DeleteDialog({ hook, onClose }: { hook: WebhookRecord; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const [failure, setFailure] = useState<string>();
  const onDelete = () =>
    remove.mutate(hook, {
      onSuccess: (res) => {
        notify.success(res.message || 'Webhook deleted');
        onClose();
      },
      onError: (err) => {
        const message = errorMessage(err, 'Failed to delete webhook');
        notify.error(message);
        // Changed meanwhile: the list is read again, and Delete then names the new version.
        setFailure(
          err instanceof ApiError && err.status === 409
            ? `${message.replace(/\.$/, '')}. Look at the list again before you delete it.`
            : message,
        );
      },
    });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-webhook-title">
      <DialogTitle id="delete-webhook-title">Delete the webhook to {hostOf(hook.url)}?</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        {failure && (
          <FailureAlert
            title="The webhook was not deleted"
            message={failure}
            outcome="Nothing was deleted."
          />
        )}
        <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
          {hook.url} will not be told of any more events: what is still queued for it is not sent, and its
          delivery log goes with it.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{failure ? 'Close' : 'Cancel'}</Button>
        <Button variant="contained" color="error" disabled={remove.isPending} onClick={onDelete}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Integrations > Webhooks: the URLs told of changes as they happen, signed with their own secret. */
export function WebhooksPage() {
  const [editing, setEditing] = useState<WebhookRecord | 'new'>();
  const [deleting, setDeleting] = useState<WebhookRecord>();
  const test = useTestWebhook();
  const actions: Actions = {
    onEdit: setEditing,
    onDelete: setDeleting,
    onTest: (hook) =>
      test.mutate(hook.webhookCode, {
        onSuccess: (res) =>
          notify.success(res.message || `A test event is on its way to ${hostOf(hook.url)}`),
        onError: (err) => notify.error(errorMessage(err, 'The test event could not be sent')),
      }),
    testing: test.isPending ? test.variables : undefined,
  };
  return (
    <Box>
      <ScreenHeader
        title="Webhooks"
        subtitle="Other systems told of changes as they happen: each event is POSTed to their URL as JSON, signed with the webhook's own secret."
        crumbs={[{ label: 'Integrations', to: '/integrations' }, { label: 'Webhooks' }]}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            New webhook
          </Button>
        }
      />
      <IntegrationsTabs />
      <Card sx={{ boxShadow: softShadow('0 8px 28px', 0.06) }}>
        <Webhooks actions={actions} />
      </Card>
      {editing && (
        <WebhookDialog
          webhook={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      {deleting && <DeleteDialog hook={deleting} onClose={() => setDeleting(undefined)} />}
    </Box>
  );
}

export default WebhooksPage;
