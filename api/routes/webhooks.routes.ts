import { createWebhookEndpoint } from '../../domain/webhooks/operations/create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from '../../domain/webhooks/operations/delete-webhook-endpoint.js';
import { getWebhookEndpoint } from '../../domain/webhooks/operations/get-webhook-endpoint.js';
import { listWebhookEndpoints } from '../../domain/webhooks/operations/list-webhook-endpoints.js';
import { listWebhookLogs } from '../../domain/webhooks/operations/list-webhook-logs.js';
import { regenerateWebhookSecret } from '../../domain/webhooks/operations/regenerate-webhook-secret.js';
import { testWebhookEndpoint } from '../../domain/webhooks/operations/test-webhook-endpoint.js';
import { updateWebhookEndpoint } from '../../domain/webhooks/operations/update-webhook-endpoint.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/webhooks';
const dashboard = { tag: 'Webhooks', auth: ['bearer', 'cookie'] } as const;

/** Spec "Webhooks [Bearer]": the eight endpoint routes, for the dashboard's token or cookie session. */
export const webhookRoutes: RouteSpec[] = [
  { ...dashboard, method: 'get', path: BASE, operation: listWebhookEndpoints, envelope: 'raw' },
  {
    ...dashboard,
    method: 'post',
    path: BASE,
    operation: createWebhookEndpoint,
    status: 201,
    message: 'Webhook endpoint created. Store the secret now: it is shown only once.',
  },
  { ...dashboard, method: 'get', path: `${BASE}/{id}`, operation: getWebhookEndpoint },
  {
    ...dashboard,
    method: 'put',
    path: `${BASE}/{id}`,
    operation: updateWebhookEndpoint,
    message: 'Webhook endpoint updated.',
  },
  { ...dashboard, method: 'delete', path: `${BASE}/{id}`, operation: deleteWebhookEndpoint, envelope: 'raw' },
  { ...dashboard, method: 'post', path: `${BASE}/{id}/test`, operation: testWebhookEndpoint, envelope: 'raw' },
  { ...dashboard, method: 'get', path: `${BASE}/{id}/logs`, operation: listWebhookLogs, envelope: 'raw' },
  {
    ...dashboard,
    method: 'post',
    path: `${BASE}/{id}/regenerate-secret`,
    operation: regenerateWebhookSecret,
    message: 'Webhook secret regenerated: the old secret no longer signs anything. Store the new one now.',
  },
];
