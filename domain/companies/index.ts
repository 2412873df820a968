/** Public surface of the companies context: its operations, the KYC port and the simulator's test data. */

export { frenchVatKey } from './company.js';
export { isCountryCode, isEuMember } from './countries.js';
export type { KycOutcome, KycProvider, KycSession, KycSubject } from './kyc-provider.js';
export { createCompany } from './operations/create-company.js';
export { deleteCompany } from './operations/delete-company.js';
export { getCompany } from './operations/get-company.js';
export { getCompanyKycStatus } from './operations/get-company-kyc-status.js';
export { listCompanies } from './operations/list-companies.js';
export { recordCompanyKyc } from './operations/record-company-kyc.js';
export { startCompanyKyc } from './operations/start-company-kyc.js';
export { updateCompany } from './operations/update-company.js';
export { KYC_REJECTED_TEST_SIRET, simulatedKycProvider } from './simulated-kyc-provider.js';
