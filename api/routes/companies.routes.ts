import {
  createCompany,
  deleteCompany,
  getCompany,
  getCompanyKycStatus,
  listCompanies,
  startCompanyKyc,
  updateCompany,
} from '../../domain/companies/operations/index.js';
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
