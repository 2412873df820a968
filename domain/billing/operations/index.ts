/** The operations of the billing context: what routes, job handlers and the CLI call through execute(). */

export { creditBalance } from './credit-balance.js';
export { getBalance } from './get-balance.js';
export { getTenantBalance } from './get-tenant-balance.js';
export { updateBalanceSettings } from './update-balance-settings.js';
