/** The operations of the webhooks context: what routes, job handlers and the CLI call through execute(). */

export { createWebhookEndpoint } from './create-webhook-endpoint.js';
export { deleteWebhookEndpoint } from './delete-webhook-endpoint.js';
export { dispatchEvents } from './dispatch-event.js';
export { getWebhookDisabledNotice } from './get-webhook-disabled-notice.js';
export { getWebhookEndpoint } from './get-webhook-endpoint.js';
export { listTenantWebhookLogs } from './list-tenant-webhook-logs.js';
export { listWebhookEndpoints } from './list-webhook-endpoints.js';
export { listWebhookLogs } from './list-webhook-logs.js';
export { prepareWebhookDeliveries, prepareWebhookDelivery } from './prepare-webhook-delivery.js';
export { prepareWebhookTest } from './prepare-webhook-test.js';
export { processInboundEvent, recordInboundEvent } from './process-inbound-event.js';
export { recordWebhookAttempt, recordWebhookAttempts } from './record-webhook-attempt.js';
export { recordWebhookTest } from './record-webhook-test.js';
export { regenerateTenantWebhookSecret } from './regenerate-tenant-webhook-secret.js';
export { regenerateWebhookSecret } from './regenerate-webhook-secret.js';
export { testWebhookEndpoint } from './test-webhook-endpoint.js';
export { updateWebhookEndpoint } from './update-webhook-endpoint.js';
