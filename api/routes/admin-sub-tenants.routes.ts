import {
  deleteAdminSubTenant,
  getAdminSubTenant,
  listAdminSubTenants,
  listSubTenantStatusOptions,
} from '../../domain/admin/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/** Spec line 7: relative to `{base_url}/api`, without a version segment, as published. */
const BASE = '/api/admin/sub-tenants';
/** Spec "Sub-tenants (cookie auth)": the dashboard's cookie session (with CSRF) or its bearer token. */
const admin = { tag: 'Admin', auth: ['bearer', 'cookie'] } as const;

/** Spec "Admin", sub-tenants of every tenant. */
export const adminSubTenantRoutes: RouteSpec[] = [
  { ...admin, method: 'get', path: BASE, operation: listAdminSubTenants, envelope: 'raw' },
  // Before `{id}`: `status-options` is not an id.
  { ...admin, method: 'get', path: `${BASE}/status-options`, operation: listSubTenantStatusOptions, envelope: 'raw' },
  { ...admin, method: 'get', path: `${BASE}/{id}`, operation: getAdminSubTenant },
  { ...admin, method: 'delete', path: `${BASE}/{id}`, operation: deleteAdminSubTenant, envelope: 'raw' },
];
