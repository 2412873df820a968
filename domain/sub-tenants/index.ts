/**
 * Public surface of the sub-tenants context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { removeSubTenant, type SubTenantRemoval } from './remove-sub-tenant.js';
export { type SubTenantRow, toSubTenantView } from './sub-tenant.js';
export { guardExternalId, insertSubTenant, requireSubTenant } from './sub-tenant-store.js';
