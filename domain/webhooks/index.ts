/** Public surface of the webhooks context for other contexts. */

export { assertEndpointUrl } from './endpoint-fields.js';
export { regenerateTenantWebhookSecretOf, syncTenantWebhook } from './tenant-webhook.js';
