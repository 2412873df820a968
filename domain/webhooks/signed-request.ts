import type { WebhookEndpointRow } from './webhook-endpoint.js';
import { openHeaders, openWebhookSecret } from './webhook-secret.js';
import type { WebhookRequest } from './webhook-sender.js';
import { signatureHeader } from './webhook-signature.js';

export interface DeliveryHeaders {
  deliveryId: string;
  eventName: string;
  attempt: number;
}

/**
 * The request of one attempt: the endpoint's custom headers, then ours (spec "Outgoing webhooks";
 * vendor word replaced by Service), signed now with the endpoint's current secret.
 */
export function signedRequest(
  appKey: Buffer,
  endpoint: WebhookEndpointRow,
  body: string,
  delivery: DeliveryHeaders,
  now: Date,
): WebhookRequest {
  const secret = openWebhookSecret(appKey, endpoint.id, endpoint.secret_encrypted);
  return {
    url: endpoint.url,
    body,
    timeout_ms: endpoint.timeout_seconds * 1000,
    headers: {
      ...openHeaders(appKey, endpoint.id, endpoint.headers_encrypted),
      'Content-Type': 'application/json',
      'User-Agent': 'einvoice-webhooks/1',
      'X-Service-Event': delivery.eventName,
      'X-Service-Delivery': delivery.deliveryId,
      'X-Service-Delivery-Attempt': String(delivery.attempt),
      'X-Service-Signature': signatureHeader(secret, body, Math.floor(now.getTime() / 1000)),
    },
  };
}
