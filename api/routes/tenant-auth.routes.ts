import { createTenantPublishableKey } from '../../domain/tenants/operations/create-tenant-publishable-key.js';
import { createTenantSecretKey } from '../../domain/tenants/operations/create-tenant-secret-key.js';
import { getTenantAccount } from '../../domain/tenants/operations/get-tenant-account.js';
import { listTenantKeys } from '../../domain/tenants/operations/list-tenant-keys.js';
import { loginTenant } from '../../domain/tenants/operations/login-tenant.js';
import { logoutTenant } from '../../domain/tenants/operations/logout-tenant.js';
import { registerTenant } from '../../domain/tenants/operations/register-tenant.js';
import type { RouteSpec } from '../http/route-spec.js';

const TAG = 'Tenant authentication';

/** Tenant sign-up (through a partner), sign-in with a tenant token, and the tenant's keys. */
export const tenantAuthRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/tenant/auth/register',
    operation: registerTenant,
    tag: TAG,
    auth: ['none'],
    rateLimit: 'credentials',
    status: 201,
    message: 'Tenant registered. Store the API key now: it is shown only once.',
    // The partner's publishable key: 401 when it is missing or unknown, 403 when it may not register tenants.
    errors: [401, 403],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/auth/login',
    operation: loginTenant,
    tag: TAG,
    auth: ['none'],
    rateLimit: 'credentials',
    // 401 INVALID_CREDENTIALS; 403 for a disabled tenant or a production sign-in before KYB.
    errors: [401, 403],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/auth/logout',
    operation: logoutTenant,
    tag: TAG,
    auth: ['tenant_key'],
    envelope: 'raw',
  },
  { method: 'get', path: '/api/v1/tenant/auth/me', operation: getTenantAccount, tag: TAG, auth: ['tenant_key'] },
  {
    method: 'get',
    path: '/api/v1/tenant/auth/keys',
    operation: listTenantKeys,
    tag: TAG,
    auth: ['tenant_key'],
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/tenant/auth/keys/secret',
    operation: createTenantSecretKey,
    tag: TAG,
    auth: ['tenant_key'],
    status: 201,
    message: 'Secret key created. Store it now: it is shown only once.',
  },
  {
    method: 'post',
    path: '/api/v1/tenant/auth/keys/publishable',
    operation: createTenantPublishableKey,
    tag: TAG,
    auth: ['tenant_key'],
    status: 201,
    message: 'Publishable key created. Store it now: it is shown only once.',
  },
];
