/**
 * Public surface of the webhooks context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { assertEndpointUrl } from './endpoint-fields.js';
export { httpWebhookSender } from './http-webhook-sender.js';
export { INBOUND_TOLERANCE_SECONDS, verifyInboundSignature } from './inbound-signature.js';
export { regenerateTenantWebhookSecretOf, syncTenantWebhook } from './tenant-webhook.js';
export type { WebhookSender } from './webhook-sender.js';
