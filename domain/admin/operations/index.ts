/** The operations of the admin context: what routes call through execute(). */

export { creditUserBalance } from './credit-user-balance.js';
export { debitUserBalance } from './debit-user-balance.js';
export { deleteAdminSubTenant } from './delete-admin-sub-tenant.js';
export { getAdminCompany } from './get-admin-company.js';
export { getAdminStats } from './get-admin-stats.js';
export { getAdminSubTenant } from './get-admin-sub-tenant.js';
export { getAdminUser } from './get-admin-user.js';
export { listAdminCompanies } from './list-admin-companies.js';
export { listAdminSubTenants } from './list-admin-sub-tenants.js';
export { listAdminUsers } from './list-admin-users.js';
export { listSubTenantStatusOptions } from './list-sub-tenant-status-options.js';
export { toggleCompanyStatus } from './toggle-company-status.js';
export { toggleUserStatus } from './toggle-user-status.js';
