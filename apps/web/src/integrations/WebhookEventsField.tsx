import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import { WEBHOOK_EVENT_TYPES } from '@wfc/contract';
import { useEffect, useMemo, useRef } from 'react';
import {
  groupSelection,
  groupWebhookEvents,
  OTHER_EVENTS_KEY,
  toggleEvent,
  toggleGroup,
  type WebhookEventGroup,
} from './webhookEvents';

interface Props {
  value: readonly string[];
  onChange(next: string[]): void;
  /** The events the user may subscribe to; others show only while chosen, to be unticked. */
  sendable: readonly string[];
  error?: string;
}

/**
 * A box for a set of boxes: checked, empty, or mixed. Mixed is the input's own `indeterminate`
 * state, which assistive technology reads as such; MUI's `aria-checked="mixed"` on a native
 * checkbox is not allowed.
 */
function MixedCheckbox({
  selection,
  disabled,
  onChange,
  label,
}: {
  selection: 'all' | 'some' | 'none';
  disabled?: boolean;
  onChange(): void;
  label?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection === 'some';
  }, [selection]);
  return (
    <Checkbox
      size="small"
      checked={selection === 'all'}
      indeterminate={selection === 'some'}
      disabled={disabled}
      onChange={onChange}
      inputRef={ref}
      slotProps={{ input: { 'aria-checked': undefined, ...(label ? { 'aria-label': label } : {}) } }}
    />
  );
}

/** One module's events: its "all" box, then each event's; a fieldset named by the module. */
function Group({
  group,
  value,
  order,
  sendable,
  onChange,
}: {
  group: WebhookEventGroup;
  value: readonly string[];
  order: readonly string[];
  sendable: readonly string[];
  onChange(next: string[]): void;
}) {
  // The "all" box chooses what the user may choose, and unticks everything when all of it is chosen.
  const open = { ...group, events: group.events.filter((e) => sendable.includes(e.type)) };
  const selection = open.events.length > 0 ? groupSelection(open, value) : groupSelection(group, value);
  const toggleAll = () =>
    onChange(
      selection === 'all'
        ? value.filter((t) => !group.events.some((e) => e.type === t))
        : toggleGroup(open, value, order),
    );
  return (
    <Box
      component="fieldset"
      aria-label={group.label}
      sx={{
        m: 0,
        px: 1.5,
        py: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        minWidth: 0,
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <FormControlLabel
        sx={{ mr: 0, '& .MuiFormControlLabel-label': { fontWeight: 600 } }}
        control={
          <MixedCheckbox
            selection={selection}
            disabled={open.events.length === 0 && selection === 'none'}
            onChange={toggleAll}
            label={`${group.label}: all`}
          />
        }
        label={group.label}
      />
      {/* A module's four verbs two by two; the other events' longer names one a line. */}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: group.key === OTHER_EVENTS_KEY ? '1fr' : 'repeat(2, minmax(0, 1fr))',
          columnGap: 1,
          pl: 3,
        }}
      >
        {group.events.map((e) => {
          const checked = value.includes(e.type);
          return (
            <FormControlLabel
              key={e.type}
              sx={{ mr: 1 }}
              control={
                <Checkbox
                  size="small"
                  checked={checked}
                  disabled={!checked && !sendable.includes(e.type)}
                  onChange={() => onChange(toggleEvent(e.type, value, order))}
                  name="events"
                  value={e.type}
                />
              }
              label={
                <Typography variant="body2" component="span">
                  {e.label}
                </Typography>
              }
            />
          );
        })}
      </Box>
    </Box>
  );
}

/**
 * The events a webhook is told of, grouped by module. Events a newer server knows, or that the
 * subscription holds from before, are offered too, so that saving never drops them unseen.
 */
export function WebhookEventsField({ value, onChange, sendable, error }: Props) {
  const order = useMemo(
    () => [...WEBHOOK_EVENT_TYPES, ...value.filter((t) => !WEBHOOK_EVENT_TYPES.includes(t))],
    [value],
  );
  const groups = useMemo(
    () => groupWebhookEvents(order.filter((t) => sendable.includes(t) || value.includes(t))),
    [order, sendable, value],
  );
  const everything = {
    key: 'everything',
    label: 'Every event',
    events: sendable.map((type) => ({ type, label: type })),
  };
  const all = groupSelection(everything, value);
  const hidden = WEBHOOK_EVENT_TYPES.length - sendable.length;
  return (
    <FormControl component="fieldset" error={Boolean(error)} sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, mb: 0.5 }}>
        <FormLabel component="legend" sx={{ float: 'left', fontWeight: 600, color: 'text.primary' }}>
          Events
        </FormLabel>
        <FormControlLabel
          sx={{ ml: 'auto', mr: 0 }}
          control={
            <MixedCheckbox
              selection={all}
              disabled={sendable.length === 0}
              onChange={() => onChange(toggleGroup(everything, value, order))}
            />
          }
          label={
            <Typography variant="body2">
              Every event ({value.length} of {sendable.length} chosen)
            </Typography>
          }
        />
      </Box>
      {error && <FormHelperText sx={{ mx: 0, mb: 1 }}>{error}</FormHelperText>}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
          gap: 1,
          clear: 'both',
        }}
      >
        {groups.map((g) => (
          <Group key={g.key} group={g} value={value} order={order} sendable={sendable} onChange={onChange} />
        ))}
      </Box>
      {hidden > 0 && (
        <FormHelperText sx={{ mx: 0 }} error={false}>
          Events of modules you may not view in full are not offered: a webhook sends only what its creator
          could read of every record.
        </FormHelperText>
      )}
    </FormControl>
  );
}
