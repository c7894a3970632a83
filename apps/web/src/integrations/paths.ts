/** Where the Webhooks screens live. */
export const WEBHOOKS_PATH = '/integrations/webhooks';

export const deliveriesPath = (webhookCode: string) =>
  `${WEBHOOKS_PATH}/${encodeURIComponent(webhookCode)}/deliveries`;
