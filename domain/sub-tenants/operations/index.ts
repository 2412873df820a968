/** The operations of the sub-tenants context: what routes, job handlers and the CLI call through execute(). */

export { createSubTenant } from './create-sub-tenant.js';
export { deleteSubTenant } from './delete-sub-tenant.js';
export { findSubTenantByExternalId } from './find-sub-tenant-by-external-id.js';
export { getSubTenant } from './get-sub-tenant.js';
export { getSubTenantStats } from './get-sub-tenant-stats.js';
export { listSubTenants } from './list-sub-tenants.js';
export { updateSubTenant } from './update-sub-tenant.js';
