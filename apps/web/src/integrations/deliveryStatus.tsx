import Chip from '@mui/material/Chip';
import type { WebhookDeliveryStatus } from '@wfc/contract';

const STATUS: Record<WebhookDeliveryStatus, { label: string; color: 'success' | 'error' | 'warning' }> = {
  succeeded: { label: 'Delivered', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  pending: { label: 'Pending', color: 'warning' },
};

/** 'Delivered', 'Failed', 'Pending', or 'Retrying' once a pending delivery has been refused before. */
export function deliveryStatusLabel(status: WebhookDeliveryStatus, attempts = 0): string {
  return status === 'pending' && attempts > 0 ? 'Retrying' : STATUS[status].label;
}

export function DeliveryStatusChip({
  status,
  attempts,
}: {
  status: WebhookDeliveryStatus;
  attempts?: number;
}) {
  return (
    <Chip
      size="small"
      label={deliveryStatusLabel(status, attempts)}
      color={STATUS[status].color}
      variant={status === 'pending' ? 'outlined' : 'filled'}
      sx={{ fontWeight: 600 }}
    />
  );
}

/** 'HTTP 200', or 'No answer' when the receiver did not answer (or was not tried yet). */
export const answerText = (code: number | null, tried: boolean) =>
  code !== null ? `HTTP ${code}` : tried ? 'No answer' : 'Not tried yet';

export const monoFont = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.85em',
} as const;
