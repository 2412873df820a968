import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  listWebhookLogs,
  regenerateWebhookSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../domain/webhooks/operations/index.js';
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
