import {
  createSubTenant,
  deleteSubTenant,
  findSubTenantByExternalId,
  getSubTenant,
  getSubTenantStats,
  listSubTenants,
  updateSubTenant,
} from '../../domain/sub-tenants/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/tenant/sub-tenants';
const common = { tag: 'Sub-tenants', auth: ['tenant_key'] } as const;

/** Spec "Sub-tenants [TenantKey]": always the caller's tenant, in the key's environment. */
export const subTenantRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: BASE, operation: listSubTenants, envelope: 'raw' },
  { ...common, method: 'post', path: BASE, operation: createSubTenant, status: 201, message: 'Sub-tenant created.' },
  { ...common, method: 'get', path: `${BASE}/by-external-id/{externalId}`, operation: findSubTenantByExternalId },
  { ...common, method: 'get', path: `${BASE}/{subTenantId}/stats/overview`, operation: getSubTenantStats },
  { ...common, method: 'get', path: `${BASE}/{id}`, operation: getSubTenant },
  { ...common, method: 'put', path: `${BASE}/{id}`, operation: updateSubTenant, message: 'Sub-tenant updated.' },
  { ...common, method: 'delete', path: `${BASE}/{id}`, operation: deleteSubTenant, envelope: 'raw' },
];
