/** The operations of the tenants context: what routes, job handlers and the CLI call through execute(). */

export { createApiKey } from './create-api-key.js';
export { createTenant } from './create-tenant.js';
export { createTenantPublishableKey } from './create-tenant-publishable-key.js';
export { createTenantSecretKey } from './create-tenant-secret-key.js';
export { getApiKey } from './get-api-key.js';
export { getTenantAccount } from './get-tenant-account.js';
export { getTenantProfile } from './get-tenant-profile.js';
export { getTenantStats } from './get-tenant-stats.js';
export { listApiKeys } from './list-api-keys.js';
export { listTenantKeys } from './list-tenant-keys.js';
export { loginTenant } from './login-tenant.js';
export { logoutTenant } from './logout-tenant.js';
export { regenerateTenantKey } from './regenerate-tenant-key.js';
export { registerTenant } from './register-tenant.js';
export { revokeApiKey } from './revoke-api-key.js';
export { updateTenantProfile } from './update-tenant-profile.js';
export { validateApiKey } from './validate-api-key.js';
