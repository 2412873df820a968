/** The operations of the companies context: what routes, job handlers and the CLI call through execute(). */

export { createCompany } from './create-company.js';
export { deleteCompany } from './delete-company.js';
export { getCompany } from './get-company.js';
export { getCompanyKycStatus } from './get-company-kyc-status.js';
export { listCompanies } from './list-companies.js';
export { recordCompanyKyc } from './record-company-kyc.js';
export { startCompanyKyc } from './start-company-kyc.js';
export { updateCompany } from './update-company.js';
export { validateSiret } from './validate-siret.js';
export { validateVat } from './validate-vat.js';
