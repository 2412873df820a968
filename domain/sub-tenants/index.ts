/**
 * Public surface of the sub-tenants context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { guardExternalId, insertSubTenant, requireSubTenant } from './sub-tenant-store.js';
