import { createCompany } from '../../domain/companies/operations/create-company.js';
import { deleteCompany } from '../../domain/companies/operations/delete-company.js';
import { getCompany } from '../../domain/companies/operations/get-company.js';
import { getCompanyKycStatus } from '../../domain/companies/operations/get-company-kyc-status.js';
import { listCompanies } from '../../domain/companies/operations/list-companies.js';
import { startCompanyKyc } from '../../domain/companies/operations/start-company-kyc.js';
import { updateCompany } from '../../domain/companies/operations/update-company.js';
import type { RouteSpec } from '../http/route-spec.js';

const dashboard = { tag: 'Companies', auth: ['bearer', 'cookie'] } as const;

/** Spec "Companies [Bearer]": the dashboard's token or cookie session. */
export const companyRoutes: RouteSpec[] = [
  { ...dashboard, method: 'get', path: '/api/v1/companies', operation: listCompanies, envelope: 'raw' },
  {
    ...dashboard,
    method: 'post',
    path: '/api/v1/companies',
    operation: createCompany,
    status: 201,
    message: 'Company created.',
  },
  { ...dashboard, method: 'get', path: '/api/v1/companies/{id}', operation: getCompany },
  {
    ...dashboard,
    method: 'put',
    path: '/api/v1/companies/{id}',
    operation: updateCompany,
    message: 'Company updated.',
  },
  { ...dashboard, method: 'delete', path: '/api/v1/companies/{id}', operation: deleteCompany, envelope: 'raw' },
  // 202: the verification runs asynchronously; the same answer while it is pending.
  {
    ...dashboard,
    method: 'post',
    path: '/api/v1/companies/{id}/kyc',
    operation: startCompanyKyc,
    status: 202,
    message: 'KYC verification in progress.',
    // 503: the verification provider did not answer, or none is configured.
    errors: [503],
  },
  { ...dashboard, method: 'get', path: '/api/v1/companies/{id}/kyc/status', operation: getCompanyKycStatus },
];
