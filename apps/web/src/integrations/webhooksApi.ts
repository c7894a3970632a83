import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedWebhook,
  WebhookDeliveryPage,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '@wfc/contract';
import { api } from '../api/client';

export const WEBHOOKS_KEY = ['integrations', 'webhooks'] as const;
const deliveriesKey = (webhookCode: string) => [...WEBHOOKS_KEY, 'deliveries', webhookCode] as const;

/** While a delivery waits for its next attempt its page is read again this often. */
const PENDING_REFRESH_MS = 5_000;

export function useWebhooks() {
  return useQuery({
    queryKey: WEBHOOKS_KEY,
    queryFn: async () => (await api.get<WebhookRecord[]>('GetWebhooks')).data ?? [],
  });
}

export interface DeliveriesQuery {
  page: number;
  limit: number;
}

/** A page of a webhook's deliveries, newest first; read again while any of them is pending. */
export function useWebhookDeliveries(webhookCode: string, query: DeliveriesQuery) {
  return useQuery({
    queryKey: [...deliveriesKey(webhookCode), query.page, query.limit],
    queryFn: async () =>
      (
        await api.post<WebhookDeliveryPage>('GetWebhookDeliveries', {
          webhookCode,
          pageNumber: query.page,
          pageSize: query.limit,
        })
      ).data,
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false,
  });
}

/** What the form sends: the create body, and on an update the code, switches and version. */
export interface WebhookBody {
  url: string;
  events: string[];
  description: string;
  /** Left out when the user may not change it: the subscription keeps what it has. */
  includePersonalData?: boolean;
  webhookCode?: string;
  active?: boolean;
  version?: number;
}

/** A change to the subscriptions: the list is read again after it, whatever the outcome. */
function useWebhooksChange<V, T>(call: (vars: V) => Promise<{ message: string; data?: T }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export const useCreateWebhook = () =>
  useWebhooksChange((body: WebhookBody) =>
    api.post<CreatedWebhook>('CreateWebhook', body as unknown as Record<string, unknown>),
  );

export const useUpdateWebhook = () =>
  useWebhooksChange((body: WebhookBody) =>
    api.post<WebhookRecord>('UpdateWebhook', body as unknown as Record<string, unknown>),
  );

export const useDeleteWebhook = () =>
  useWebhooksChange((hook: Pick<WebhookRecord, 'webhookCode' | 'version'>) =>
    api.post<WebhookRecord>('DeleteWebhook', { webhookCode: hook.webhookCode, version: hook.version }),
  );

/** Queues a `webhook.test` event: it shows in the deliveries like any other. */
export const useTestWebhook = () =>
  useWebhooksChange((webhookCode: string) => api.post<WebhookDeliveryRecord>('TestWebhook', { webhookCode }));

export const useRedeliverWebhook = () =>
  useWebhooksChange((deliveryCode: string) =>
    api.post<WebhookDeliveryRecord>('RedeliverWebhook', { deliveryCode }),
  );
