/**
 * Public surface of the admin context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { type AdminAction, recordAdminAction } from './admin-audit-store.js';
export { actAcrossTenants } from './admin-scope.js';
