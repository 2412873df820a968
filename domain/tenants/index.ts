/**
 * Public surface of the tenants context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { environmentOfKey, hashApiKey, KEY_FORMAT, type KeyKind, keyPrefix, TENANT_KEY_SCOPES } from './api-key.js';
export { insertApiKey, revokeActiveKey } from './api-key-store.js';
export { tenantOf, tenantWideCaller } from './key-guards.js';
export { KYB_DOCUMENT_MAX_BYTES } from './kyb-document.js';
export { isValidSiret } from './siret.js';
export { type TenantContacts, tenantContactsOf } from './tenant-contacts.js';
export { findTenant, insertTenant, insertTenantAndEnter } from './tenant-store.js';
