import { zodResolver } from '@hookform/resolvers/zod';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  type CreatedWebhook,
  createWebhookSchema,
  type FieldError,
  scopeOf,
  sendableEvents,
  updateWebhookSchema,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_HOURS,
  type WebhookRecord,
  webhookRecordSchema,
} from '@wfc/contract';
import { useMemo, useState } from 'react';
import {
  Controller,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type ResolverOptions,
  useForm,
} from 'react-hook-form';
import { ApiError, errorMessage } from '../api/client';
import { useAuth, useCan } from '../auth/auth';
import { asSentence, FailureAlert } from '../ui/FailureAlert';
import { notify } from '../ui/notify';
import { WebhookEventsField } from './WebhookEventsField';
import { useCreateWebhook, useUpdateWebhook, useWebhooks, type WebhookBody } from './webhooksApi';

export interface WebhookValues {
  url: string;
  description: string;
  events: string[];
  includePersonalData: boolean;
  active: boolean;
}

const FIELDS: readonly (keyof WebhookValues)[] = [
  'url',
  'description',
  'events',
  'includePersonalData',
  'active',
];

export const PERSONAL_DATA_PERMISSION = 'VIEW_PERSONAL_DATA';

export const valuesOf = (hook?: WebhookRecord): WebhookValues => ({
  url: hook?.url ?? '',
  description: hook?.description ?? '',
  events: hook ? [...hook.events] : [],
  includePersonalData: hook?.includePersonalData ?? false,
  active: hook?.active ?? true,
});

/**
 * The body a create or an update sends. The personal-details switch goes only when the user may
 * set it: an update without it keeps what the subscription has, a create without it shares none.
 */
export function webhookBody(values: WebhookValues, mayShare: boolean, editing?: WebhookRecord): WebhookBody {
  const body: WebhookBody = { url: values.url, description: values.description, events: values.events };
  if (mayShare) body.includePersonalData = values.includePersonalData;
  else if (!editing) body.includePersonalData = false;
  if (editing) {
    body.webhookCode = editing.webhookCode;
    body.active = values.active;
    body.version = editing.version;
  }
  return body;
}

/** The contract's schemas as the resolver takes them: they parse a request body. */
interface BodySchema {
  _zod: { output: FieldValues; input: FieldValues };
}

/**
 * The contract's schema over the body the form would send, so the browser says what the server
 * would, in its words; the form keeps its own values (the schema trims and drops duplicates).
 */
function webhookResolver(
  mayShare: boolean,
  sendable: readonly string[],
  editing?: WebhookRecord,
): Resolver<WebhookValues> {
  const schema = (editing ? updateWebhookSchema : createWebhookSchema) as unknown as BodySchema;
  return async (values, context, options) => {
    const checked = await zodResolver(schema, undefined, { raw: true })(
      webhookBody(values, mayShare, editing) as unknown as FieldValues,
      context,
      options as unknown as ResolverOptions<FieldValues>,
    );
    const errors: FieldErrors<WebhookValues> = { ...(checked.errors as FieldErrors<WebhookValues>) };
    // The server refuses these with a 403, which would take the user away from the form.
    const hidden = values.events.filter((t) => !sendable.includes(t));
    if (!errors.events && hidden.length > 0) {
      errors.events = { type: 'hidden', message: `${WEBHOOK_MESSAGES.moduleHidden}: ${hidden.join(', ')}` };
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/** `events.3` → `events`: each refusal beside the field it is about, the others above the form. */
export function placeErrors(errors: readonly FieldError[]) {
  const placed = new Map<keyof WebhookValues, string>();
  const unplaced: string[] = [];
  for (const e of errors) {
    const name = FIELDS.find(
      (f) => e.field === f || e.field.startsWith(`${f}.`) || e.field.startsWith(`${f}[`),
    );
    if (name && !placed.has(name)) placed.set(name, e.message);
    else if (!name) unplaced.push(e.message);
  }
  return { placed, unplaced };
}

/** The record a 409 carries: the subscription as it now stands, or null when it was deleted. */
function theirsOf(err: unknown): WebhookRecord | null | undefined {
  if (!(err instanceof ApiError) || err.status !== 409) return undefined;
  if (err.data === null) return null;
  const parsed = webhookRecordSchema.safeParse(err.data);
  return parsed.success ? parsed.data : undefined;
}

interface Conflict {
  message: string;
  /** The subscription as it now stands, when the answer carried it. */
  theirs?: WebhookRecord | null;
}

/** The signing secret, shown this once, with a copy button and what it is for. */
function SecretStep({ created, onClose }: { created: CreatedWebhook; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
      notify.success('Signing secret copied');
    } catch {
      notify.error('The secret could not be copied: select it and copy it by hand');
    }
  };
  return (
    <>
      <DialogTitle id="webhook-dialog-title">Copy the signing secret</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2.5, alignContent: 'start' }}>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          For <strong>{created.url}</strong>
        </Typography>
        <Alert severity="warning">
          <AlertTitle>This is the only time the secret is shown</AlertTitle>
          You will not see it again. Store it where the receiver keeps its secrets now: if it is lost, delete
          this webhook and create another.
        </Alert>
        <TextField
          label="Signing secret"
          value={created.secret}
          fullWidth
          multiline
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              'aria-describedby': 'webhook-secret-use',
              style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
            },
          }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Box>
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy secret'}
          </Button>
        </Box>
        <Typography id="webhook-secret-use" variant="body2" color="text.secondary">
          Each delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
          <code>webhook-signature</code> headers (Standard Webhooks): the receiver checks the signature with
          this secret before it trusts the body.
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} variant={copied ? 'contained' : 'text'}>
          Done
        </Button>
      </DialogActions>
    </>
  );
}

/** New webhook, or the one given edited: URL, description, events and switches; a new one's secret, once. */
export function WebhookDialog({ webhook, onClose }: { webhook?: WebhookRecord; onClose: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const can = useCan();
  const { user } = useAuth();
  const mayShare = can(PERSONAL_DATA_PERMISSION);
  const sendable = useMemo(
    () => sendableEvents(WEBHOOK_EVENT_TYPES, (permission) => scopeOf(user, permission) === 'all'),
    [user],
  );
  // The version being edited: a reload after a conflict moves it on.
  const [base, setBase] = useState(webhook);
  const editing = webhook !== undefined;
  const [created, setCreated] = useState<CreatedWebhook>();
  const [failure, setFailure] = useState<string>();
  const [conflict, setConflict] = useState<Conflict>();
  const list = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const { control, handleSubmit, register, setError, reset, formState } = useForm<WebhookValues>({
    defaultValues: valuesOf(webhook),
    resolver: webhookResolver(mayShare, sendable, base),
  });
  const { errors, isSubmitting } = formState;

  const refused = (err: unknown) => {
    const message = errorMessage(err, editing ? 'Failed to update webhook' : 'Failed to create webhook');
    notify.error(message);
    if (editing && err instanceof ApiError && err.status === 409) {
      setConflict({ message, theirs: theirsOf(err) });
      return;
    }
    const { placed, unplaced } = placeErrors(err instanceof ApiError ? (err.errors ?? []) : []);
    for (const [name, msg] of placed) setError(name, { type: 'server', message: msg }, { shouldFocus: true });
    if (placed.size === 0 || unplaced.length > 0) setFailure(unplaced.join(' ') || message);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    setConflict(undefined);
    const body = webhookBody(values, mayShare, base);
    try {
      if (base) {
        const res = await update.mutateAsync(body);
        notify.success(res.message || 'Webhook updated');
        onClose();
      } else {
        const res = await create.mutateAsync(body);
        notify.success(res.message || 'Webhook created');
        if (res.data) setCreated(res.data);
        else onClose();
      }
    } catch (err) {
      refused(err);
    }
  });

  /** Takes the subscription as it now stands into the form: what the user typed is dropped. */
  const reload = async () => {
    let theirs = conflict?.theirs;
    if (theirs === undefined && base) {
      const fresh = await list.refetch();
      theirs = fresh.data?.find((h) => h.webhookCode === base.webhookCode) ?? null;
    }
    setConflict(undefined);
    setFailure(undefined);
    if (!theirs) {
      notify.error('This webhook was deleted meanwhile');
      onClose();
      return;
    }
    setBase(theirs);
    reset(valuesOf(theirs));
  };

  const busy = isSubmitting || create.isPending || update.isPending;
  const title = editing ? 'Edit webhook' : 'New webhook';
  return (
    <Dialog
      open
      onClose={created || busy ? undefined : onClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="webhook-dialog-title"
    >
      {created ? (
        <SecretStep created={created} onClose={onClose} />
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit}>
          <DialogTitle id="webhook-dialog-title">{title}</DialogTitle>
          <DialogContent sx={{ display: 'grid', gap: 2.5, pt: '8px !important' }}>
            {conflict && (
              <Alert
                severity="warning"
                role="alert"
                action={
                  conflict.theirs === null ? (
                    <Button color="inherit" size="small" onClick={onClose}>
                      Close
                    </Button>
                  ) : (
                    <Button color="inherit" size="small" onClick={() => void reload()}>
                      Reload
                    </Button>
                  )
                }
              >
                <AlertTitle>
                  {conflict.theirs === null
                    ? 'Not saved: someone else deleted this webhook'
                    : 'Not saved: someone else changed this webhook'}
                </AlertTitle>
                {asSentence(conflict.message)}
                {conflict.theirs === null
                  ? ''
                  : ' Reload to edit their version: what you entered here is then replaced.'}
              </Alert>
            )}
            {failure && (
              <FailureAlert
                title={
                  editing ? 'Your changes to this webhook were not saved' : 'The webhook was not created'
                }
                message={failure}
                outcome="Nothing was saved; what you entered is still in the form."
                onDismiss={() => setFailure(undefined)}
              />
            )}
            <TextField
              {...register('url')}
              label="URL"
              required
              autoFocus={!editing}
              placeholder="https://hooks.example.com/workforce"
              slotProps={{ htmlInput: { maxLength: 2000, spellCheck: false, inputMode: 'url' } }}
              error={Boolean(errors.url)}
              helperText={
                errors.url?.message ??
                'Each event is POSTed here as JSON; redirects are not followed and an answer takes at most 10 s'
              }
            />
            <TextField
              {...register('description')}
              label="Description (optional)"
              multiline
              minRows={1}
              slotProps={{ htmlInput: { maxLength: 500 } }}
              error={Boolean(errors.description)}
              helperText={errors.description?.message ?? 'What receives it, e.g. Payroll sync'}
            />
            <Controller
              control={control}
              name="events"
              render={({ field }) => (
                <WebhookEventsField
                  value={field.value}
                  onChange={field.onChange}
                  sendable={sendable}
                  error={errors.events?.message ?? errors.events?.root?.message}
                />
              )}
            />
            <Box sx={{ display: 'grid', gap: 1 }}>
              <Controller
                control={control}
                name="includePersonalData"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Switch
                        checked={field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                        onBlur={field.onBlur}
                        disabled={!mayShare}
                        slotProps={{ input: { 'aria-describedby': 'webhook-personal-help' } }}
                      />
                    }
                    label="Include personal details"
                  />
                )}
              />
              <FormHelperText
                id="webhook-personal-help"
                error={Boolean(errors.includePersonalData)}
                sx={{ mt: -1 }}
              >
                {errors.includePersonalData?.message ??
                  (mayShare
                    ? 'Records are sent with their need-to-know fields; off, those fields are left out'
                    : 'Only someone who may see personal details may send them: records go without them')}
              </FormHelperText>
              {editing && (
                <>
                  <Controller
                    control={control}
                    name="active"
                    render={({ field }) => (
                      <FormControlLabel
                        control={
                          <Switch
                            checked={field.value}
                            onChange={(e) => field.onChange(e.target.checked)}
                            onBlur={field.onBlur}
                            slotProps={{ input: { 'aria-describedby': 'webhook-active-help' } }}
                          />
                        }
                        label="Active"
                      />
                    )}
                  />
                  <FormHelperText id="webhook-active-help" error={Boolean(errors.active)} sx={{ mt: -1 }}>
                    {errors.active?.message ?? 'Paused, it is told of nothing until it is active again'}
                  </FormHelperText>
                </>
              )}
            </Box>
            <Typography variant="body2" color="text.secondary">
              A receiver that does not answer with 2xx is tried again, less and less often, for{' '}
              {WEBHOOK_RETRY_HOURS} hours.
            </Typography>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" disabled={busy || Boolean(conflict)}>
              {busy ? 'Saving...' : editing ? 'Save changes' : 'Create webhook'}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
